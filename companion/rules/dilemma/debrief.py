"""The debrief: what each famous strategy would have served in the room's own seats.

For every person who played, each strategy is put in their seat and replayed against the
choices their actual partners made, round by round, in the same pairings (the partners'
choices stay as recorded; the strategy sees only what happened in that seat before). The
lesson of Axelrod's tournaments shows in the two numbers: a strategy may serve little in all
while never serving less than its partner in a single round.
"""

from __future__ import annotations

from typing import TypedDict

from companion.rules.dilemma.state import DilemmaState, is_house
from companion.rules.dilemma.strategies import HOW, NAMES, Choice, Strategy, play


class StrategyRow(TypedDict):
    strategy: Strategy
    name: str
    how: str
    months: float  # mean months per seat over the seats' played rounds
    ahead: int  # rounds in which it served less than its partner
    behind: int  # rounds in which it served more
    rounds: int


class DebriefView(TypedDict):
    seats: int  # people who played at least one round
    people: float  # what the people themselves served, on average per seat, in those rounds
    strategies: list[StrategyRow]  # least months first


def seat_games(state: DilemmaState) -> dict[str, list[tuple[int, Choice, int]]]:
    """Per person who played: (round, their partner's recorded choice, the months the person
    actually served), in round order."""
    games: dict[str, list[tuple[int, Choice, int]]] = {}
    for r in state.rounds:
        for o in r.outcomes:
            for me, theirs, served in (
                (o.a, o.choice_b, o.months_a),
                (o.b, o.choice_a, o.months_b),
            ):
                if not is_house(me):
                    games.setdefault(me, []).append((r.number, theirs, served))
    return games


def debrief(state: DilemmaState) -> DebriefView:
    s = state.rules.sentences
    games = seat_games(state)
    people = sum(served for seat in games.values() for _, _, served in seat)
    rows: list[StrategyRow] = []
    for strategy in NAMES:
        months = ahead = behind = rounds = 0
        for pid, seat in games.items():
            history: list[tuple[Choice, Choice]] = []
            for number, theirs, _ in seat:
                mine = play(strategy, history, f"debrief:{number}:{pid}")
                mine_months, their_months = s.months(mine, theirs), s.months(theirs, mine)
                months += mine_months
                ahead += mine_months < their_months
                behind += mine_months > their_months
                rounds += 1
                history.append((mine, theirs))
        rows.append(
            {
                "strategy": strategy,
                "name": NAMES[strategy],
                "how": HOW[strategy],
                "months": months / len(games) if games else 0.0,
                "ahead": ahead,
                "behind": behind,
                "rounds": rounds,
            }
        )
    rows.sort(key=lambda row: (row["months"], row["name"]))
    return {
        "seats": len(games),
        "people": people / len(games) if games else 0.0,
        "strategies": rows,
    }
