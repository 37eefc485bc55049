"""The prisoner strategies: how a prisoner chooses tonight (work or rest), takes a deal when the
warden calls them in, tells the warden who works, and accuses (by the mix's habit)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.rules.prison.commands import Choice
from companion.rules.prison.views import PrisonerView
from companion.sim.strategies.accusations import ACCUSATION
from companion.sim.strategies.yard import Plan, YardTalk


class Prisoner:
    """Base prisoner strategy: follows the plan, refuses deals, tells nothing.

    ``me`` is the bot's own name and ``plan`` what the yard agreed. Loyal prisoners and saboteurs
    decide from those alone, so the runner does not build a view for them outside the
    accusations (``reads_views = False``); a strategy that looks at the game sets
    ``reads_views = True`` and gets its own prisoner view for deals, and with
    ``reads_view_to_choose = True`` also at planning.
    """

    name = "loyal"
    accuses = True
    reads_views = False
    reads_view_to_choose = False

    def choose(self, me: str, plan: Plan, rng: random.Random, view: PrisonerView | None) -> Choice:
        return "work" if me in plan.workers else "rest"

    def accept_deal(self, me: str, rng: random.Random, view: PrisonerView | None) -> bool:
        return False

    def tell(
        self, me: str, plan: Plan, rng: random.Random, view: PrisonerView | None
    ) -> tuple[str, ...]:
        return ()

    def accuse(
        self, view: PrisonerView, talk: YardTalk, rng: random.Random, habit: str
    ) -> str | None:
        """Whom to accuse tonight, if anyone: the mix's accusation habit decides."""
        return ACCUSATION[habit](view, talk, rng)


class Loyal(Prisoner):
    """Works when the plan says so and refuses every deal."""


@dataclass
class Opportunist(Prisoner):
    """Follows the plan, takes a deal when offered with some probability (always when one
    more token paroles them) and tells the truth about tonight's workers only sometimes."""

    accept: float = 0.5
    truth: float = 0.5
    name: str = "opportunist"
    reads_views: bool = True

    def accept_deal(self, me: str, rng: random.Random, view: PrisonerView | None) -> bool:
        assert view is not None
        if view["me"]["parole_tokens"] + 1 >= view["rules"]["parole_tokens_to_win"]:
            return True
        return rng.random() < self.accept

    def tell(
        self, me: str, plan: Plan, rng: random.Random, view: PrisonerView | None
    ) -> tuple[str, ...]:
        assert view is not None
        workers = sorted(plan.workers - {me})
        if rng.random() < self.truth:
            return tuple(workers)
        others = [n for n in view["active"] if n != me and n not in plan.workers]
        return tuple(rng.sample(others, min(len(others), max(1, len(workers)))))


class Saboteur(Prisoner):
    """Plays for parole: rests every night, takes every deal and names tonight's workers."""

    name = "saboteur"
    accuses = False

    def choose(self, me: str, plan: Plan, rng: random.Random, view: PrisonerView | None) -> Choice:
        return "rest"

    def accept_deal(self, me: str, rng: random.Random, view: PrisonerView | None) -> bool:
        return True

    def tell(
        self, me: str, plan: Plan, rng: random.Random, view: PrisonerView | None
    ) -> tuple[str, ...]:
        return tuple(sorted(plan.workers - {me}))


@dataclass(frozen=True)
class Habits:
    """How people played at real tables, as ``companion playtests fit`` measured it: how often a
    prisoner works, takes a deal when called in, and accuses someone when holding a shiv."""

    work: float
    accept: float
    accuse: float


@dataclass
class Habitual(Prisoner):
    """A prisoner who plays as the recorded tables did on average: works with the measured
    probability whatever the yard planned, takes a deal with the measured probability, and
    accuses with the measured probability (someone the warden called in today, if any, else
    anyone). Tells the warden nothing a search could use (the records do not say)."""

    habits: Habits = field(default_factory=lambda: Habits(0.5, 0.5, 0.0))
    name: str = "habitual"

    def choose(self, me: str, plan: Plan, rng: random.Random, view: PrisonerView | None) -> Choice:
        return "work" if rng.random() < self.habits.work else "rest"

    def accept_deal(self, me: str, rng: random.Random, view: PrisonerView | None) -> bool:
        return rng.random() < self.habits.accept

    def accuse(
        self, view: PrisonerView, talk: YardTalk, rng: random.Random, habit: str
    ) -> str | None:
        if rng.random() >= self.habits.accuse:
            return None
        me = view["me"]["name"]
        others = [n for n in view["active"] if n != me]
        called = [n for n in view["today"]["interviewed"] if n in others]
        pool = called or others
        return rng.choice(pool) if pool else None
