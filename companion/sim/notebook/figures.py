"""The figures of a group of games (one scenario's rules, one group size): how they ended, with
95% intervals, and how they were played, for the real tables and for the bots alike."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.sim.measures import Measures, measure
from companion.sim.notebook.playtest import Playtest
from companion.sim.runner import OUTCOMES, Tally
from companion.sim.stats import Rate, wilson

# The rates set side by side: (key, what it counts, out of what).
RATES = (
    ("work", "work", "prisoner_nights"),
    ("deal_taken", "deals", "interviews"),
    ("search_caught", "catches", "searches"),
    ("accused", "accusations", "accusation_chances"),
    ("accusation_hit", "hits", "accusations"),
)


@dataclass
class Figures:
    """Outcome counts and summed measures of some games."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    measures: Measures = field(default_factory=Measures)

    @property
    def games(self) -> int:
        return sum(self.counts.values())

    @classmethod
    def of_tally(cls, tally: Tally) -> Figures:
        return cls(dict(tally.counts), tally.measures)

    @classmethod
    def of_games(cls, playtests: Iterable[Playtest]) -> Figures:
        figures = cls()
        for p in playtests:
            state = p.final()
            assert state.outcome is not None
            figures.counts[state.outcome] += 1
            figures.measures.add(measure(state))
        return figures

    def outcome(self, key: str) -> Rate:
        return wilson(self.counts[key], self.games)

    def rate(self, key: str) -> Rate:
        _, hits, of = next(r for r in RATES if r[0] == key)
        m = self.measures
        return wilson(getattr(m, hits), getattr(m, of))

    def per_day(self, what: str) -> float:
        days = self.measures.days
        return getattr(self.measures, what) / days if days else 0.0

    @property
    def mean_days(self) -> float:
        return self.measures.days / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "outcomes": {k: self.outcome(k).as_dict() for k in OUTCOMES},
            "mean_days": round(self.mean_days, 2),
            "nights_per_day": round(self.per_day("nights"), 3),
            "deals_per_day": round(self.per_day("deals"), 3),
            "accusations_per_day": round(self.per_day("accusations"), 3),
            "rates": {key: self.rate(key).as_dict() for key, _, _ in RATES},
            "counts": self.measures.as_dict(),
        }


@dataclass(frozen=True)
class GroupKey:
    """The games that can be compared: the same scenario, rules and group size."""

    scenario: str
    prisoners: int
    rules: str  # the rules as canonical JSON

    def rules_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.rules)
        return data

    def label(self) -> str:
        r = self.rules_dict()
        return (
            f"{self.scenario}, {self.prisoners} prisoners ({r['nights_to_escape']} nights to "
            f"escape, {r['parole_tokens_to_win']} parole tokens to win)"
        )


def group_key(p: Playtest) -> GroupKey:
    return GroupKey(p.scenario, p.size, json.dumps(p.rules, sort_keys=True))


def groups(playtests: Iterable[Playtest]) -> dict[GroupKey, list[Playtest]]:
    out: dict[GroupKey, list[Playtest]] = {}
    for p in playtests:
        out.setdefault(group_key(p), []).append(p)
    return dict(sorted(out.items(), key=lambda kv: (kv[0].scenario, kv[0].prisoners,
                                                    kv[0].rules)))


def escape_points(playtests: Iterable[Playtest], prisoners: int, tokens: int
                  ) -> list[dict[str, Any]]:
    """The real tables' escape rate at each nights to escape they played, for one group size
    and parole tokens to win (the points the Balance screen sets beside the bots' curve)."""
    by_nights: dict[int, list[Playtest]] = {}
    for p in playtests:
        if p.size == prisoners and p.rules["parole_tokens_to_win"] == tokens:
            by_nights.setdefault(int(p.rules["nights_to_escape"]), []).append(p)
    points = []
    for nights, games in sorted(by_nights.items()):
        escapes = sum(1 for p in games if p.final().outcome == "escape")
        points.append({"nights_to_escape": nights, "games": len(games),
                       "escape": wilson(escapes, len(games)).as_dict()})
    return points
