"""The bots: one per prisoner, one warden, and the yard where the prisoners make their plan.

A bot keeps what its player would remember (the plans agreed in the yard, the tips an informant
gave the warden) and decides from the view it is handed; it never holds the engine's state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.rules.prison.commands import Choice
from companion.rules.prison.views import PrisonerView, TableView, WardenView
from companion.sim.strategies.accusations import TRIGGERS
from companion.sim.strategies.mixes import Mix
from companion.sim.strategies.prisoners import Prisoner
from companion.sim.strategies.warden import OFFERS, SEARCH
from companion.sim.strategies.yard import PLANNING, Plan, YardTalk


@dataclass
class PrisonerBot:
    name: str
    strategy: Prisoner
    habit: str
    talk: YardTalk
    rng: random.Random

    @property
    def reads_views(self) -> bool:
        return self.strategy.reads_views

    @property
    def reads_view_to_choose(self) -> bool:
        return self.strategy.reads_view_to_choose

    def choose(self, plan: Plan, view: PrisonerView | None = None) -> Choice:
        return self.strategy.choose(self.name, plan, self.rng, view)

    def accept_deal(self, view: PrisonerView | None = None) -> bool:
        return self.strategy.accept_deal(self.name, self.rng, view)

    def tell(self, plan: Plan, view: PrisonerView | None = None) -> tuple[str, ...]:
        """What this prisoner tells the warden after taking a deal."""
        return self.strategy.tell(self.name, plan, self.rng, view)

    def accuse(self, view: PrisonerView) -> str | None:
        me = view["me"]
        if not self.strategy.accuses or me["shivs"] < 1 or me["accusations_left"] < 1:
            return None
        return self.strategy.accuse(view, self.talk, self.rng, self.habit)


@dataclass
class Yard:
    """The prisoners' meeting while the warden is out: the plan, and who broke it."""

    planning: str
    rng: random.Random
    talk: YardTalk = field(default_factory=YardTalk)

    def plan(self, view: TableView) -> Plan:
        plan = Plan(view["day"], PLANNING[self.planning](view, self.talk, self.rng))
        self.talk.plans[plan.day] = plan
        return plan

    def after_reveal(self, view: TableView, habit: str) -> bool:
        """Note who broke the plan tonight; whether anyone with ``habit`` may accuse now."""
        self.talk.suspects.update(self.talk.deviants_today(view))
        return TRIGGERS[habit](view, self.talk)


@dataclass
class WardenBot:
    search_habit: str
    offer_habit: str
    rng: random.Random
    tips: list[str] = field(default_factory=list)

    def start_day(self) -> None:
        self.tips = []

    def offer_order(self, view: WardenView) -> list[str]:
        """Whom to call in, in order, offering each a deal until one accepts."""
        if view["deals_left_today"] < 1:
            return []
        return OFFERS[self.offer_habit](view, self.rng)

    def hear(self, informant: str, names: tuple[str, ...]) -> None:
        self.tips.extend(n for n in names if n not in self.tips)

    def search(self, view: TableView) -> str:
        return SEARCH[self.search_habit](view, self.tips, self.rng)


@dataclass
class Table:
    """Every bot of one game."""

    yard: Yard
    warden: WardenBot
    prisoners: dict[str, PrisonerBot]
    log: list[Any] | None = None  # every command played, when the game is recorded


def seat_bots(mix: Mix, names: list[str], rng: random.Random) -> Table:
    yard = Yard(mix.planning, rng)
    prisoners = {
        n: PrisonerBot(n, mix.draw_prisoner(rng), mix.accusation, yard.talk, rng) for n in names
    }
    return Table(yard, WardenBot(mix.search, mix.offers, rng), prisoners)
