"""The tournament's standings, as every view of :mod:`companion.rules.dilemma.views` shows them:

- :func:`leaderboard`: present players by least total months (ties share a rank), then those who
  left after playing; :func:`ranked` is the same order, of the players themselves. A player
  removed before playing any round is on neither (the log keeps them); nobody has a rank
  before a round has been revealed (nothing has been served yet);
- :func:`cooperation`: per revealed round, how many people chose SILENT, how many BETRAY and how
  many gave no answer;
- :func:`house`: the house player's record, shown apart and never ranked against people.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TypedDict

from companion.rules.core.roster import reading_key
from companion.rules.dilemma.state import DilemmaState, Player, is_house
from companion.rules.dilemma.strategies import HOW, Strategy


class HouseView(TypedDict):
    """The house player: shown apart, never ranked against people. ``name``, ``strategy`` and
    ``how`` are what it plays now (in the open round, or the next); ``played`` the strategies
    that played its revealed rounds, in the order they first did (each round keeps its own)."""

    name: str
    strategy: Strategy
    how: str
    months: int
    rounds: int
    played: list[Strategy]


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
    rate: float  # silent / (silent + betray): a no answer is not a choice, nor counted here


def house(state: DilemmaState) -> HouseView:
    """The house player's record: what it plays now, and the months, rounds and strategies of
    its revealed rounds."""
    months = rounds = 0
    played: list[Strategy] = []
    for r in state.rounds:
        for o in r.outcomes:
            for pid, served in ((o.a, o.months_a), (o.b, o.months_b)):
                if is_house(pid):
                    months += served
                    rounds += 1
                    strategy = r.houses.get(pid, state.house)
                    played += [strategy] if strategy not in played else []
    return {
        "name": state.house_name(),
        "strategy": state.house,
        "how": HOW[state.house],
        "months": months,
        "rounds": rounds,
        "played": played,
    }


_reading_key = lru_cache(maxsize=4096)(reading_key)  # names sort the same every time


def on_results(state: DilemmaState) -> list[Player]:
    """The players the results show: those in the tournament, and those who left after being
    drawn into a round (one removed before playing is in the log alone)."""
    return [p for p in state.players if p.present or p.drawn]


def ranked(state: DilemmaState, months: dict[str, int] | None = None) -> list[Player]:
    """The players in the leaderboard's order: present first, by least months, then by name
    (only those :func:`on_results` shows)."""
    months = state.months() if months is None else months
    return sorted(
        on_results(state),
        key=lambda p: (not p.present, months.get(p.pid, 0), _reading_key(p.name)),
    )


def leaderboard(state: DilemmaState) -> list[LeaderRow]:
    """Present players by least total months (ties share a rank), then those who left after
    playing; no ranks before a round has been revealed."""
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
    rows = ranked(state, months)
    served = any(r.revealed for r in state.rounds)
    out: list[LeaderRow] = []
    rank = 0
    last: tuple[bool, int] | None = None
    for i, p in enumerate(rows):
        here = (p.present, months.get(p.pid, 0))
        if here != last:
            rank, last = i + 1, here
        out.append(
            {
                "rank": rank if p.present and served else None,
                "name": p.name,
                "months": months.get(p.pid, 0),
                "rounds": played.get(p.pid, 0),
                "silent": silent.get(p.pid, 0),
                "present": p.present,
            }
        )
    return out


def cooperation(state: DilemmaState) -> list[CooperationRow]:
    """Per revealed round: how many people chose SILENT, how many BETRAY, how many gave no
    answer (the house player's choices are not the room's)."""
    rows: list[CooperationRow] = []
    for r in state.rounds:
        if not r.revealed:
            continue
        answers = [
            choice if answered else None
            for o in r.outcomes
            for pid, choice, answered in (
                (o.a, o.choice_a, o.answered_a),
                (o.b, o.choice_b, o.answered_b),
            )
            if not is_house(pid)
        ]
        silent, betray = answers.count("silent"), answers.count("betray")
        rows.append(
            {
                "round": r.number,
                "silent": silent,
                "betray": betray,
                "no_answer": answers.count(None),
                "choices": len(answers),
                "rate": silent / (silent + betray) if silent + betray else 0.0,
            }
        )
    return rows
