"""The tournament's finale: once it is over, the game master steps the room through its end on
the board, as the prison's epilogue does, a step at a time: the podium, the house player under
each strategy it played, what the famous strategies would have served in the room's seats (the
debrief, :mod:`companion.rules.dilemma.debrief`), everyone's place, and then the results as a
whole again.

Each step is a ``finale`` note (:class:`ShowFinale`, the steps the room has been shown), folded
by the room (:attr:`companion.rules.dilemma.room.DilemmaRoom.finale`); an undo that brings the
tournament back to life shows none of it again. Before the first step the board shows the
results as a whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from companion.rules.core.phrase import Phrase, phrase
from companion.rules.dilemma.leaderboard import LeaderRow, leaderboard
from companion.rules.dilemma.state import DilemmaState, is_house
from companion.rules.dilemma.strategies import HOW, Strategy

Step = Literal["podium", "house", "strategies", "leaderboard", "end"]
# Each step as the game master is told of it (the console's line and the game master's page).
STEP_WORDS: dict[Step, Phrase] = {
    "podium": phrase("the podium"),
    "house": phrase("the house player"),
    "strategies": phrase("the famous strategies in the room's seats"),
    "leaderboard": phrase("everyone's place"),
    "end": phrase("the results as a whole"),
}
PODIUM = 3  # the places on the podium (all who share them)
PODIUM_NAMES = 6  # at most this many names on it (a tie of a whole hall is counted)


@dataclass(frozen=True)
class ShowFinale:
    """The room is shown the first ``shown`` steps of the finale (the tournament is over)."""

    shown: int
    what: str = field(default="finale", init=False)

    def body(self) -> dict[str, Any]:
        return {"shown": self.shown}


class HouseRow(TypedDict):
    """The house player under one strategy: its rounds, its months and the rounds in which it
    served less than its partner."""

    strategy: Strategy
    how: str
    rounds: int
    months: int
    ahead: int


class FinaleView(TypedDict):
    steps: list[Step]
    shown: int  # steps the room has seen
    step: Step | None  # what the board shows now; None: the results as a whole
    podium: list[LeaderRow]  # the ranked players of the first places (up to PODIUM_NAMES)
    podium_more: int  # those of the first places not named
    houses: list[HouseRow]


def steps(state: DilemmaState) -> list[Step]:
    """The finale's steps for a tournament that is over (none before)."""
    if state.phase != "over":
        return []
    ranked = any(row["rank"] for row in leaderboard(state))
    out: list[Step] = ["podium"] if ranked else []
    if houses(state):
        out.append("house")
    if any(r.outcomes for r in state.rounds):
        out.append("strategies")
    return [*out, "leaderboard", "end"]


def houses(state: DilemmaState) -> list[HouseRow]:
    """The house player under each strategy it played, in the order they first played."""
    rows: dict[Strategy, HouseRow] = {}
    for r in state.rounds:
        for o in r.outcomes:
            for pid, mine, theirs in ((o.a, o.months_a, o.months_b), (o.b, o.months_b, o.months_a)):
                if not is_house(pid):
                    continue
                strategy = r.houses.get(pid, state.house)
                row = rows.setdefault(
                    strategy,
                    {"strategy": strategy, "how": HOW[strategy], "rounds": 0, "months": 0,
                     "ahead": 0},
                )
                row["rounds"] += 1
                row["months"] += mine
                row["ahead"] += mine < theirs
    return list(rows.values())


def finale_view(state: DilemmaState, shown: int) -> FinaleView | None:
    """The finale as the room has seen ``shown`` of its steps; ``None`` before the end."""
    all_steps = steps(state)
    if not all_steps:
        return None
    shown = max(0, min(shown, len(all_steps)))
    step = all_steps[shown - 1] if shown else None
    placed = [row for row in leaderboard(state) if row["rank"] and row["rank"] <= PODIUM]
    return {
        "steps": all_steps,
        "shown": shown,
        "step": None if step == "end" else step,
        "podium": placed[:PODIUM_NAMES],
        "podium_more": max(0, len(placed) - PODIUM_NAMES),
        "houses": houses(state),
    }


def next_step(state: DilemmaState, shown: int, *, to_end: bool = False) -> ShowFinale | None:
    """The act that shows the room the finale's next step (``to_end``: the results as a whole
    again); ``None`` before the end or once it has all been shown."""
    total = len(steps(state))
    if not total or shown >= total:
        return None
    return ShowFinale(total if to_end else shown + 1)
