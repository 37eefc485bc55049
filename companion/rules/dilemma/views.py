"""What each audience may see of a dilemma tournament.

- ``board(state)``: the room (the projector, anyone): who faces whom, how many have chosen,
  revealed rounds, the leaderboard, the cooperation rate and, at the end, the explanation;
- ``player(state, pid)``: one phone: the board plus whom I face and my own choice;
- ``gm(state, peek=False)``: the console: the board plus who has chosen (choices only if peeking).

No choice of an open round leaves the core except in its chooser's own view (or a GM peek).
Each view is plain JSON-ready data, typed by the ``TypedDict`` of its shape.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from companion.rules.core.roster import reading_key
from companion.rules.core.words import plural
from companion.rules.dilemma.commands import Choice
from companion.rules.dilemma.state import DilemmaState, Phase, Round


class SentencesView(TypedDict):
    both_silent: int
    both_betray: int
    betrayer: int
    betrayed: int
    sitting_out: int


class OutcomeRow(TypedDict):
    a: str
    b: str
    choice_a: Choice
    choice_b: Choice
    months_a: int
    months_b: int
    answered_a: bool
    answered_b: bool


class RoundView(TypedDict):
    number: int
    pairs: list[list[str]]
    sitting_out: list[str]
    revealed: bool
    closed_early: bool
    outcomes: list[OutcomeRow]
    sitting_out_months: int | None


class LeaderRow(TypedDict):
    rank: int | None
    name: str
    months: int
    rounds: int
    silent: int
    present: bool


class CooperationRow(TypedDict):
    """One revealed round: answers SILENT and BETRAY, and those who gave none (the round was
    closed before they chose; they served as silent but did not choose it)."""

    round: int
    silent: int
    betray: int
    no_answer: int
    choices: int  # all three together
    rate: float  # silent / choices


class BoardView(TypedDict):
    """The public view (:func:`board`)."""

    game: Literal["dilemma"]
    phase: Phase
    round: int
    rounds: int
    ended_early: bool
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


class MyRound(TypedDict):
    round: int
    opponent: str | None
    mine: Choice | None
    theirs: Choice | None
    months: int


class PlayerMe(TypedDict):
    name: str
    present: bool
    months: int
    rank: int | None
    facing: str | None
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
    }


def _outcomes(state: DilemmaState, r: Round) -> list[OutcomeRow]:
    n = state.name
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
        }
        for o in r.outcomes
    ]


def _round(state: DilemmaState, r: Round) -> RoundView:
    """A round as the room knows it: choices only once revealed."""
    return {
        "number": r.number,
        "pairs": [[state.name(a), state.name(b)] for a, b in r.pairs],
        "sitting_out": [state.name(p) for p in r.sitting_out],
        "revealed": r.revealed,
        "closed_early": r.closed_early,
        "outcomes": _outcomes(state, r) if r.revealed else [],
        "sitting_out_months": r.sitting_out_months if r.revealed else None,
    }


def leaderboard(state: DilemmaState) -> list[LeaderRow]:
    """Present players by least total months (ties share a rank), then those who left."""
    months = state.months()
    played: dict[str, int] = {}
    silent: dict[str, int] = {}
    for r in state.rounds:
        for o in r.outcomes:
            for pid, choice, answered in (
                (o.a, o.choice_a, o.answered_a),
                (o.b, o.choice_b, o.answered_b),
            ):
                played[pid] = played.get(pid, 0) + 1
                silent[pid] = silent.get(pid, 0) + (answered and choice == "silent")
    rows = sorted(
        state.players, key=lambda p: (not p.present, months.get(p.pid, 0), reading_key(p.name))
    )
    out: list[LeaderRow] = []
    rank = 0
    last: tuple[bool, int] | None = None
    for i, p in enumerate(rows):
        here = (p.present, months.get(p.pid, 0))
        if here != last:
            rank, last = i + 1, here
        out.append(
            {
                "rank": rank if p.present else None,
                "name": p.name,
                "months": months.get(p.pid, 0),
                "rounds": played.get(p.pid, 0),
                "silent": silent.get(p.pid, 0),
                "present": p.present,
            }
        )
    return out


def cooperation(state: DilemmaState) -> list[CooperationRow]:
    """Per revealed round: how many chose SILENT, how many BETRAY, how many gave no answer."""
    rows: list[CooperationRow] = []
    for r in state.rounds:
        if not r.revealed:
            continue
        answers = [
            choice if answered else None
            for o in r.outcomes
            for choice, answered in ((o.choice_a, o.answered_a), (o.choice_b, o.answered_b))
        ]
        silent = answers.count("silent")
        rows.append(
            {
                "round": r.number,
                "silent": silent,
                "betray": answers.count("betray"),
                "no_answer": answers.count(None),
                "choices": len(answers),
                "rate": silent / len(answers) if answers else 0.0,
            }
        )
    return rows


def explanation(state: DilemmaState) -> str:
    """Why betrayal dominates each single round, yet silent pairs did better together."""
    s = state.rules.sentences
    both_silent = both_betray = mixed = unanswered = 0
    for r in state.rounds:
        for o in r.outcomes:
            unanswered += (not o.answered_a) + (not o.answered_b)
            if o.choice_a == o.choice_b == "silent":
                both_silent += 1
            elif o.choice_a == o.choice_b == "betray":
                both_betray += 1
            else:
                mixed += 1
    tally = (
        f" In this tournament {plural(both_silent, 'pair')} stayed silent together and served "
        f"{2 * s.both_silent} months a pair, {plural(both_betray, 'pair')} betrayed each other "
        f"and served {2 * s.both_betray}, and in {plural(mixed, 'pair')} one betrayed the other "
        f"and together they served {s.betrayer + s.betrayed}."
    )
    if unanswered:  # served as silent, but nobody chose it: said, not hidden in the tally
        tally += (
            f" {plural(unanswered, 'time')} a player gave no answer and served as if silent."
        )
    return (
        "Whatever your partner does, betraying shortens your own sentence: against a silent "
        f"partner you serve {s.betrayer} months instead of {s.both_silent}, against a betrayer "
        f"{s.both_betray} instead of {s.betrayed}. So in any single round betrayal dominates, "
        "and two careful egoists both betray. Yet a pair who both stay silent serves "
        f"{2 * s.both_silent} months between them, while a pair who both betray serves "
        f"{2 * s.both_betray}: each choice that is best alone leaves both worse off together."
        + tally
    )


def board(state: DilemmaState) -> BoardView:
    """The public view: what anyone in the room, or the projector, may see."""
    current = state.current
    open_round = state.open_round()
    waiting = state.waiting()
    revealed = [r for r in state.rounds if r.revealed]
    return {
        "game": "dilemma",
        "phase": state.phase,
        "round": current.number if current else 0,
        "rounds": state.rules.rounds,
        "ended_early": state.ended_early,
        "sentences": _sentences(state),
        "players": [p.name for p in state.players if p.present],
        "left": [p.name for p in state.players if not p.present],
        "current": _round(state, open_round) if open_round else None,
        "chosen_count": (len(open_round.paired()) - len(waiting)) if open_round else 0,
        "to_choose": len(open_round.paired()) if open_round else 0,
        "waiting": [state.name(p) for p in waiting],
        "last": _round(state, revealed[-1]) if revealed else None,
        "leaderboard": leaderboard(state),
        "cooperation": cooperation(state),
        "explanation": explanation(state) if state.phase == "over" else None,
    }


def player(state: DilemmaState, pid: str) -> PlayerView:
    """One player's phone: the board, whom they face and their own choice, their rounds."""
    view = board(state)
    me = state.player(pid)
    if me is None:
        return {**view, "me": None}
    board_rows = {row["name"]: row for row in view["leaderboard"]}
    open_round = state.open_round()
    facing = open_round.partner(pid) if open_round else None
    mine: list[MyRound] = []
    for r in state.rounds:
        for o in r.outcomes:
            if pid in (o.a, o.b):
                first = pid == o.a
                mine.append(
                    {
                        "round": r.number,
                        "opponent": state.name(o.b if first else o.a),
                        "mine": o.choice_a if first else o.choice_b,
                        "theirs": o.choice_b if first else o.choice_a,
                        "months": o.months_a if first else o.months_b,
                    }
                )
        if r.revealed and (pid in r.sitting_out or pid in state.missed(r)):
            mine.append(
                {
                    "round": r.number,
                    "opponent": None,
                    "mine": None,
                    "theirs": None,
                    "months": r.sitting_out_months,
                }
            )
    return {
        **view,
        "me": {
            "name": me.name,
            "present": me.present,
            "months": board_rows[me.name]["months"],
            "rank": board_rows[me.name]["rank"],
            "facing": state.name(facing) if facing else None,
            "sitting_out": bool(open_round and pid in open_round.sitting_out),
            "choice": open_round.choices.get(pid) if open_round else None,
            "rounds": mine,
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
        }
        if peek and open_round is not None:
            row["choice"] = open_round.choices.get(p.pid)
        rows.append(row)
    return {**board(state), "roster": rows, "peek": peek}
