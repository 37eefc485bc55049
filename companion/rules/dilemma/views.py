"""What each audience may see of a dilemma tournament.

- ``board(state)``: the room (the projector, anyone): who faces whom, how many have chosen,
  revealed rounds, the leaderboard, the cooperation rate and, at the end, the explanation;
- ``player(state, pid)``: one phone: the board plus whom I face and my own choice;
- ``gm(state, peek=False)``: the console: the board plus who has chosen (choices only if peeking).

The leaderboard, the cooperation per round and the house player's record every view carries
are :mod:`companion.rules.dilemma.leaderboard`'s.

No choice of an open round leaves the core except in its chooser's own view (or a GM peek).
Each view is plain JSON-ready data, typed by the ``TypedDict`` of its shape.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal, NamedTuple, NotRequired, TypedDict

from companion.rules.dilemma import phrases
from companion.rules.dilemma.commands import Choice
from companion.rules.dilemma.debrief import DebriefView, debrief
from companion.rules.dilemma.leaderboard import (
    CooperationRow,
    HouseView,
    LeaderRow,
    cooperation,
    house,
    leaderboard,
    ranked,
)
from companion.rules.dilemma.state import DilemmaState, Phase, Round, is_house
from companion.rules.dilemma.strategies import Strategy


class SentencesView(TypedDict):
    both_silent: int
    both_betray: int
    betrayer: int
    betrayed: int
    sitting_out: int | Literal["mean"]
    no_answer: Choice


class OutcomeRow(TypedDict):
    a: str
    b: str
    choice_a: Choice
    choice_b: Choice
    months_a: int
    months_b: int
    answered_a: bool
    answered_b: bool
    house_a: bool
    house_b: bool
    strategy_a: Strategy | None  # the house strategy that played this side, in this round
    strategy_b: Strategy | None


# Up to this many players the board lists the pairs themselves (12 pairs with the house: they
# fit whole at 1280x720 in German, tests/web/dilemma/test_board_fits.py); past it, the room's
# totals (each phone carries its own pair, sentence, rank and rounds).
SMALL_ROOM = 24


class PairTotals(TypedDict):
    """A revealed round's pairs, counted: both silent, one betrayed the other, both betrayed,
    and pairs in which someone gave no answer (whatever they were served as)."""

    both_silent: int
    one_betrayed: int
    both_betrayed: int
    no_answer: int


class RoundView(TypedDict):
    number: int
    pairs: list[list[str]]
    sitting_out: list[str]
    revealed: bool
    closed_early: bool
    timed_out: bool
    outcomes: list[OutcomeRow]
    sitting_out_months: int | None
    totals: PairTotals  # all 0 before the reveal


class BoardView(TypedDict):
    """The public view (:func:`board`)."""

    game: Literal["dilemma"]
    phase: Phase
    round: int
    rounds: int
    ended_early: bool
    doors_closed: bool  # the game master closed the doors: nobody may join
    sentences: SentencesView
    players: list[str]
    left: list[str]
    current: RoundView | None
    chosen_count: int
    to_choose: int
    waiting: list[str]
    last: RoundView | None
    leaderboard: list[LeaderRow]
    cooperation: list[CooperationRow]
    explanation: str | None
    house: HouseView
    missed_rule: str
    debrief: DebriefView | None


class MyRound(TypedDict):
    """One of a player's revealed rounds. ``mine`` and ``theirs`` are the choices made:
    ``None`` for no answer (or a round missed: ``opponent`` is ``None``); ``served_as`` and
    ``theirs_served_as`` what each served as (the choice, or the scenario's ``no_answer``)."""

    round: int
    opponent: str | None
    mine: Choice | None
    theirs: Choice | None
    served_as: Choice | None
    theirs_served_as: Choice | None
    months: int
    house: bool
    strategy: Strategy | None  # the house strategy the opponent played in this round


class PlayerMe(TypedDict):
    name: str
    present: bool
    months: int
    rank: int | None
    tied: int  # how many others share that rank
    facing: str | None
    facing_house: bool
    sitting_out: bool
    choice: Choice | None
    rounds: list[MyRound]


class PlayerView(BoardView):
    """One phone's view (:func:`player`); ``me`` is ``None`` for an unknown player."""

    me: PlayerMe | None


class RosterRow(TypedDict):
    pid: str
    name: str
    present: bool
    months: int
    doing: str
    facing: str | None
    facing_house: bool
    choice: NotRequired[Choice | None]  # only when the game master peeks


class GmView(BoardView):
    """The game master's view (:func:`gm`)."""

    roster: list[RosterRow]
    peek: bool


def _sentences(state: DilemmaState) -> SentencesView:
    s = state.rules.sentences
    return {
        "both_silent": s.both_silent,
        "both_betray": s.both_betray,
        "betrayer": s.betrayer,
        "betrayed": s.betrayed,
        "sitting_out": state.rules.sitting_out,
        "no_answer": state.rules.no_answer,
    }


def missed_rule(state: DilemmaState) -> str:
    """How a round missed is served, and why, in English (:func:`phrases.missed_rule`)."""
    return phrases.missed_rule(state.rules.sitting_out).english()


def _outcomes(state: DilemmaState, r: Round) -> list[OutcomeRow]:
    def n(pid: str) -> str:
        return state.seat_name(r, pid)

    return [
        {
            "a": n(o.a),
            "b": n(o.b),
            "choice_a": o.choice_a,
            "choice_b": o.choice_b,
            "months_a": o.months_a,
            "months_b": o.months_b,
            "answered_a": o.answered_a,
            "answered_b": o.answered_b,
            "house_a": is_house(o.a),
            "house_b": is_house(o.b),
            "strategy_a": r.houses.get(o.a),
            "strategy_b": r.houses.get(o.b),
        }
        for o in r.outcomes
    ]


def _totals(r: Round) -> PairTotals:
    totals: PairTotals = {"both_silent": 0, "one_betrayed": 0, "both_betrayed": 0, "no_answer": 0}
    for o in r.outcomes:
        if not (o.answered_a and o.answered_b):
            totals["no_answer"] += 1
        elif o.choice_a == o.choice_b == "silent":
            totals["both_silent"] += 1
        elif o.choice_a == o.choice_b:
            totals["both_betrayed"] += 1
        else:
            totals["one_betrayed"] += 1
    return totals


def _round(state: DilemmaState, r: Round) -> RoundView:
    """A round as the room knows it: choices only once revealed."""
    return {
        "number": r.number,
        "pairs": [[state.seat_name(r, a), state.seat_name(r, b)] for a, b in r.pairs],
        "sitting_out": [state.name(p) for p in r.sitting_out],
        "revealed": r.revealed,
        "closed_early": r.closed_early,
        "timed_out": r.timed_out,
        "outcomes": _outcomes(state, r) if r.revealed else [],
        "sitting_out_months": r.sitting_out_months if r.revealed else None,
        "totals": _totals(r),
    }


def explanation(state: DilemmaState) -> str:
    """Why betrayal dominates each single round, yet silent pairs did better together, in
    English (:func:`phrases.explanation`)."""
    return phrases.explanation(state).english()


def board(state: DilemmaState) -> BoardView:
    """The public view: what anyone in the room, or the projector, may see."""
    current = state.current
    open_round = state.open_round()
    waiting = state.waiting()
    revealed = [r for r in state.rounds if r.revealed]
    people = [p for p in open_round.paired() if not is_house(p)] if open_round else []
    return {
        "game": "dilemma",
        "phase": state.phase,
        "round": current.number if current else 0,
        "rounds": state.rules.rounds,
        "ended_early": state.ended_early,
        "doors_closed": state.doors_closed,
        "sentences": _sentences(state),
        "players": [p.name for p in state.players if p.present],
        "left": [p.name for p in state.players if not p.present],
        "current": _round(state, open_round) if open_round else None,
        "chosen_count": len(people) - len(waiting),
        "to_choose": len(people),
        "waiting": [state.name(p) for p in waiting],
        "last": _round(state, revealed[-1]) if revealed else None,
        "leaderboard": leaderboard(state),
        "cooperation": cooperation(state),
        "explanation": explanation(state) if state.phase == "over" else None,
        "house": house(state),
        "missed_rule": missed_rule(state),
        "debrief": debrief(state) if state.phase == "over" else None,
    }


class Public(NamedTuple):
    """What every phone's view shares, made once per state: the board, each player's row of
    the leaderboard and each player's revealed rounds."""

    board: BoardView
    rows: dict[str, LeaderRow]
    rounds: dict[str, list[MyRound]]
    order: dict[str, int]  # each player's place in the leaderboard, 0 first
    sharing: dict[int, int]  # how many players hold each rank


def public(state: DilemmaState) -> Public:
    view = board(state)
    rounds: dict[str, list[MyRound]] = {}
    present = {p.pid for p in state.players if p.present}
    for r in state.rounds:
        for o in r.outcomes:
            for me, other, mine, theirs, answered, they_answered, served in (
                (o.a, o.b, o.choice_a, o.choice_b, o.answered_a, o.answered_b, o.months_a),
                (o.b, o.a, o.choice_b, o.choice_a, o.answered_b, o.answered_a, o.months_b),
            ):
                if not is_house(me):
                    rounds.setdefault(me, []).append(
                        {
                            "round": r.number,
                            "opponent": state.seat_name(r, other),
                            "mine": mine if answered else None,  # no answer is no choice
                            "theirs": theirs if they_answered else None,
                            "served_as": mine,
                            "theirs_served_as": theirs,
                            "months": served,
                            "house": is_house(other),
                            "strategy": r.houses.get(other),
                        }
                    )
        if r.revealed:
            for pid in (*r.sitting_out, *state.missed(r)):
                if pid in present or pid in r.sitting_out:
                    rounds.setdefault(pid, []).append(
                        {
                            "round": r.number,
                            "opponent": None,
                            "mine": None,
                            "theirs": None,
                            "served_as": None,
                            "theirs_served_as": None,
                            "months": r.sitting_out_months,
                            "house": False,
                            "strategy": None,
                        }
                    )
    players = ranked(state)
    rows = {p.pid: row for p, row in zip(players, view["leaderboard"], strict=True)}
    sharing = Counter(row["rank"] for row in view["leaderboard"] if row["rank"])
    return Public(view, rows, rounds, {p.pid: i for i, p in enumerate(players)}, dict(sharing))


def player(state: DilemmaState, pid: str, shared: Public | None = None) -> PlayerView:
    """One player's phone: the board, whom they face and their own choice, their rounds.
    ``shared`` (from :func:`public` of the same state) spares making the board again."""
    shared = shared or public(state)
    view = shared.board
    me = state.player(pid)
    if me is None:
        return {**view, "me": None}
    open_round = state.open_round()
    facing = open_round.partner(pid) if open_round else None
    row = shared.rows.get(pid)  # none: removed before playing, on no results
    return {
        **view,
        "me": {
            "name": me.name,
            "present": me.present,
            "months": row["months"] if row else 0,
            "rank": row["rank"] if row else None,
            "tied": shared.sharing.get(row["rank"], 1) - 1 if row and row["rank"] else 0,
            "facing": state.name(facing) if facing else None,
            "facing_house": facing is not None and is_house(facing),
            "sitting_out": bool(open_round and pid in open_round.sitting_out),
            "choice": open_round.choices.get(pid) if open_round else None,
            "rounds": shared.rounds.get(pid, []),
        },
    }


def gm(state: DilemmaState, peek: bool = False) -> GmView:
    """The game master's console: ids to act on, who has chosen; choices only when peeking."""
    open_round = state.open_round()
    months = state.months()
    rows: list[RosterRow] = []
    for p in state.players:
        if open_round is None or not p.present:
            doing = "left" if not p.present else "waiting for a round"
        elif p.pid in open_round.sitting_out:
            doing = "sits out"
        elif p.pid in open_round.choices:
            doing = "chosen"
        elif open_round.partner(p.pid) is not None:
            doing = "choosing"
        else:
            doing = "joins next round"
        row: RosterRow = {
            "pid": p.pid,
            "name": p.name,
            "present": p.present,
            "months": months.get(p.pid, 0),
            "doing": doing,
            "facing": state.name(f) if open_round and (f := open_round.partner(p.pid)) else None,
            "facing_house": bool(open_round and is_house(open_round.partner(p.pid) or "")),
        }
        if peek and open_round is not None:
            row["choice"] = open_round.choices.get(p.pid)
        rows.append(row)
    return {**board(state), "roster": rows, "peek": peek}
