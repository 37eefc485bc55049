"""The debrief: what each famous strategy would have served in the room's own seats.

For every person who played, each strategy is put in their seat and replayed against the
choices their actual partners made, round by round, in the same pairings (the partners'
choices stay as recorded; the strategy sees only what happened in that seat before). The
lesson of Axelrod's tournaments shows in the two numbers: a strategy may serve little in all
while seldom serving less than its partner in a round. (In a repeated match with one partner,
Tit for Tat never serves less than that partner in a round; in this room the partner changes
each round and Tit for Tat copies the last partner's move, so it may: the debrief says what
it did here, from ``StrategyRow.ahead``.)

"What the room served" is one figure everywhere: the mean of the leaderboard's totals over the
people on the results (:func:`companion.rules.dilemma.leaderboard.on_results`), missed rounds
included. A strategy put in a seat serves that seat's missed rounds as the person did (it
could not have played them), so its months compare with the room's.
"""

from __future__ import annotations

from typing import TypedDict

from companion.rules.dilemma.leaderboard import on_results
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
    seats: int  # people on the results (who played a round, or are in the tournament)
    people: float  # what the room served: the mean of the leaderboard's totals
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
    played = seat_games(state)
    totals = state.months()
    games = {p.pid: played.get(p.pid, []) for p in on_results(state)}
    people = sum(totals.get(pid, 0) for pid in games)
    # months a seat served in rounds it did not play (missed, sat out): a strategy serves them too
    missed = sum(
        totals.get(pid, 0) - sum(served for _, _, served in seat) for pid, seat in games.items()
    )
    rows: list[StrategyRow] = []
    for strategy in NAMES:
        months = missed
        ahead = behind = rounds = 0
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
