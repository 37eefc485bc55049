"""``companion playtests fit``: the few habits the bots assume, estimated from recorded games.

- how often a prisoner works (work chosen, of the prisoners active at a day's planning);
- how often a deal is taken (deals, of the interviews);
- how often a prisoner holding a shiv accuses someone (of the nights accusations were open);
- how the warden chooses whom to search: a ``tracker`` (whoever has worked most often so far,
  by the public record) when real searches fall on such a prisoner more often than searching
  at random would, beyond chance; else ``random``.
Each estimate comes with its 95% interval and the counts it rests on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from companion.sim.learned import table_mix
from companion.sim.measures import Measures, measure
from companion.sim.notebook.playtest import Playtest
from companion.sim.stats import Z95, Rate, wilson
from companion.sim.strategies.mixes import Mix
from companion.sim.strategies.prisoners import Habits


@dataclass(frozen=True)
class SearchHabit:
    searches: int  # searches with a choice to make (two or more cells, someone ahead)
    on_leader: int  # ... that fell on a prisoner who had worked most often so far
    expected: float  # ... that searching at random would have put there, on average
    variance: float

    @property
    def tracker(self) -> bool:
        """Searches fall on the leaders more often than chance, beyond chance (95%)."""
        if self.searches == 0:
            return False
        return self.on_leader - self.expected > Z95 * math.sqrt(max(self.variance, 1e-9))


@dataclass(frozen=True)
class Fit:
    games: int
    rehearsals: int
    work: Rate
    accept: Rate
    accuse: Rate
    search: SearchHabit

    @property
    def search_habit(self) -> str:
        return "tracker" if self.search.tracker else "random"

    def mix(self) -> Mix:
        return table_mix(
            Habits(self.work.rate, self.accept.rate, self.accuse.rate), self.search_habit,
            f"learned from {self.games} recorded games",
        )

    def basis(self) -> dict[str, Any]:
        return {
            "games": self.games, "rehearsals": self.rehearsals,
            "work": self.work.as_dict() | {"of": self.work.games},
            "accept": self.accept.as_dict() | {"of": self.accept.games},
            "accuse": self.accuse.as_dict() | {"of": self.accuse.games},
            "search": {"searches": self.search.searches, "on_leader": self.search.on_leader,
                       "expected_at_random": round(self.search.expected, 2),
                       "habit": self.search_habit},
        }


def search_habit(playtests: list[Playtest]) -> SearchHabit:
    searches = on_leader = 0
    expected = variance = 0.0
    for p in playtests:
        state = p.final()
        worked = dict.fromkeys(state.roster, 0)
        out: set[str] = set()
        for day in state.days:
            searched: set[str] = set()
            for name, caught in day.searches:
                cells = [n for n in state.roster if n not in out and n not in searched]
                counts = {n: worked[n] for n in cells}
                top = max(counts.values(), default=0)
                leaders = [n for n, c in counts.items() if c == top]
                if len(cells) > 1 and top > 0 and len(leaders) < len(cells):
                    chance = len(leaders) / len(cells)
                    searches += 1
                    on_leader += name in leaders
                    expected += chance
                    variance += chance * (1 - chance)
                searched.add(name)
                if caught:
                    out.add(name)
            for n in day.workers:
                worked[n] += 1
            out |= {accused for _, accused, shived in day.accusations if shived}
    return SearchHabit(searches, on_leader, expected, variance)


def fit(playtests: list[Playtest]) -> Fit:
    total = Measures()
    for p in playtests:
        total.add(measure(p.final()))
    return Fit(
        len(playtests), sum(p.rehearsal for p in playtests),
        wilson(total.work, total.prisoner_nights), wilson(total.deals, total.interviews),
        wilson(total.accusations, total.accusation_chances), search_habit(playtests),
    )


def describe(f: Fit) -> list[str]:
    """What the estimate rests on, in plain words."""
    def said(r: Rate, what: str) -> str:
        if not r.games:
            return f"no {what} recorded (the mix assumes 0%)"
        return f"{r.rate:.0%} ({r.low:.0%}–{r.high:.0%}, from {r.hits} of {r.games} {what})"

    rehearsals = f", {f.rehearsals} of them rehearsals with bots" if f.rehearsals else ""
    s = f.search
    if s.searches:
        habit = (f"the warden searched a prisoner who had worked most often so far in "
                 f"{s.on_leader} of {s.searches} searches, against {s.expected:.1f} by chance: "
                 f"{'a tracker' if s.tracker else 'no better than at random'}")
    else:
        habit = "no search had a leader to choose: the warden is taken to search at random"
    return [
        f"From {f.games} finished {'game' if f.games == 1 else 'games'}{rehearsals}:",
        f"  prisoners work {said(f.work, 'prisoner-nights')}",
        f"  a deal is taken {said(f.accept, 'interviews')}",
        f"  a prisoner holding a shiv accuses {said(f.accuse, 'chances')}",
        f"  {habit}.",
    ]
