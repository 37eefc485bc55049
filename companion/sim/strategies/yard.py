"""What the prisoners agree and hear in the yard: tonight's plan (who works), the talk every
prisoner heard (the plans so far, who broke one), and the planning policies that make the plan.

A planning policy takes the table's view, the yard's talk and the game's random generator.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.rules.prison.views import TableView


@dataclass(frozen=True)
class Plan:
    """What the prisoners agreed in the yard tonight (the engine never sees it): who works."""

    day: int
    workers: frozenset[str]


@dataclass
class YardTalk:
    """What every prisoner heard in the yard: the plans so far, and who broke one."""

    plans: dict[int, Plan] = field(default_factory=dict)
    suspects: set[str] = field(default_factory=set)

    def deviants_today(self, view: TableView) -> list[str]:
        """Prisoners who were meant to work tonight, were not caught and did not work."""
        today = view["today"]
        plan = self.plans.get(view["day"])
        if plan is None or not today["revealed"]:
            return []
        caught = {s["prisoner"] for s in today["searches"] if s["caught"]}
        worked = set(today["workers"])
        return [n for n in view["active"] if n in plan.workers and n not in worked | caught]


def _trusted(view: TableView, talk: YardTalk) -> list[str]:
    active = view["active"]
    trusted = [n for n in active if n not in talk.suspects]
    return trusted or list(active)


def plan_all(view: TableView, talk: YardTalk, rng: random.Random) -> frozenset[str]:
    """Everyone the group trusts works every night."""
    return frozenset(_trusted(view, talk))


def plan_half(view: TableView, talk: YardTalk, rng: random.Random) -> frozenset[str]:
    """Half of the trusted prisoners (rounded up), picked at random, work each night."""
    trusted = _trusted(view, talk)
    return frozenset(rng.sample(trusted, math.ceil(len(trusted) / 2)))


def plan_needed(view: TableView, talk: YardTalk, rng: random.Random) -> frozenset[str]:
    """As many trusted prisoners as nights are still needed (all of them if fewer)."""
    trusted = _trusted(view, talk)
    need = max(1, view["nights_to_escape"] - view["nights_done"])
    return frozenset(rng.sample(trusted, min(len(trusted), need)))


def plan_finish(view: TableView, talk: YardTalk, rng: random.Random) -> frozenset[str]:
    """Half of the trusted prisoners work each night, but all of them on a night when the
    escape is done even if the search catches one worker."""
    trusted = _trusted(view, talk)
    need = view["nights_to_escape"] - view["nights_done"]
    if len(trusted) - view["rules"]["searches_per_day"] >= need:
        return frozenset(trusted)
    return frozenset(rng.sample(trusted, math.ceil(len(trusted) / 2)))


PLANNING: dict[str, Callable[[TableView, YardTalk, random.Random], frozenset[str]]] = {
    "all": plan_all,
    "half": plan_half,
    "needed": plan_needed,
    "finish": plan_finish,
}
