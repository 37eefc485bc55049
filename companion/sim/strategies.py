"""How bots play: prisoner strategies, the prisoners' planning policy, accusation habits, the
warden's search and deal habits, and the named mixes that combine them.

Every decision takes a view (a typed dict from :mod:`companion.rules.prison.views`), the bot
layer's own knowledge (the prisoners' plan, what informants said) and the game's random
generator; never the engine's state.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.rules.prison.commands import Choice
from companion.rules.prison.views import PrisonerView, TableView, WardenView


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


# ---- prisoners ------------------------------------------------------------------------------


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


PRISONER_STRATEGIES: dict[str, Callable[[], Prisoner]] = {
    "loyal": Loyal,
    "opportunist": Opportunist,
    "saboteur": Saboteur,
}


# ---- the prisoners' plan ---------------------------------------------------------------------


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


# ---- accusations -----------------------------------------------------------------------------


def accuse_never(view: PrisonerView, talk: YardTalk, rng: random.Random) -> str | None:
    return None


def accuse_deviants(view: PrisonerView, talk: YardTalk, rng: random.Random) -> str | None:
    """Accuse a prisoner who skipped the work the plan gave them tonight."""
    me = view["me"]["name"]
    deviants = [n for n in talk.deviants_today(view) if n != me]
    return rng.choice(deviants) if deviants else None


def accuse_on_leak(view: PrisonerView, talk: YardTalk, rng: random.Random) -> str | None:
    """When a worker was caught tonight, sometimes accuse someone the warden called in."""
    today = view["today"]
    if not any(s["caught"] for s in today["searches"]) or rng.random() >= 0.3:
        return None
    me = view["me"]["name"]
    called = [n for n in today["interviewed"] if n != me and n in view["active"]]
    return rng.choice(called) if called else None


def accuse_both(view: PrisonerView, talk: YardTalk, rng: random.Random) -> str | None:
    """Deviants first; otherwise, after a leak, someone the warden called in."""
    return accuse_deviants(view, talk, rng) or accuse_on_leak(view, talk, rng)


def _leak_tonight(view: TableView, talk: YardTalk) -> bool:
    return any(s["caught"] for s in view["today"]["searches"])


# When a habit's trigger is false on the public record of the night, no prisoner with that habit
# accuses anyone (and draws no random number), so the runner does not ask them.
TRIGGERS: dict[str, Callable[[TableView, YardTalk], bool]] = {
    "never": lambda view, talk: False,
    "table": lambda view, talk: True,  # measured habits: anyone may accuse on any night
    "deviants": lambda view, talk: bool(talk.deviants_today(view)),
    "leak": _leak_tonight,
    "both": lambda view, talk: bool(talk.deviants_today(view)) or _leak_tonight(view, talk),
}

ACCUSATION: dict[str, Callable[[PrisonerView, YardTalk, random.Random], str | None]] = {
    "never": accuse_never,
    "table": accuse_never,  # a habitual prisoner decides for themself (Habitual.accuse)
    "deviants": accuse_deviants,
    "leak": accuse_on_leak,
    "both": accuse_both,
}


# ---- the warden --------------------------------------------------------------------------------


def offers_none(view: WardenView, rng: random.Random) -> list[str]:
    return []


def offers_random(view: WardenView, rng: random.Random) -> list[str]:
    """Call the active prisoners in at random and offer each a deal until one accepts."""
    order = list(view["active"])
    rng.shuffle(order)
    return order


def offers_focus(view: WardenView, rng: random.Random) -> list[str]:
    """Offer first to whoever is closest to parole (the warden wins on a parole too)."""
    order = offers_random(view, rng)
    tokens = view["parole_tokens"]
    return sorted(order, key=lambda n: -tokens[n])


OFFERS: dict[str, Callable[[WardenView, random.Random], list[str]]] = {
    "none": offers_none,
    "random": offers_random,
    "focus": offers_focus,
}


def search_random(view: TableView, named: Sequence[str], rng: random.Random) -> str:
    """Search a random cell; informants are ignored."""
    return rng.choice(view["unsearched"])


def search_informed(view: TableView, named: Sequence[str], rng: random.Random) -> str:
    """Search a cell an informant named tonight; otherwise a random one."""
    open_cells = list(view["unsearched"])
    tips = [n for n in named if n in open_cells]
    return rng.choice(tips) if tips else rng.choice(open_cells)


def search_tracker(view: TableView, named: Sequence[str], rng: random.Random) -> str:
    """Informants first; otherwise whoever has worked most often so far (public record)."""
    open_cells = list(view["unsearched"])
    tips = [n for n in named if n in open_cells]
    if tips:
        return rng.choice(tips)
    worked: dict[str, int] = dict.fromkeys(open_cells, 0)
    for day in view["history"]:
        for n in day["workers"]:
            if n in worked:
                worked[n] += 1
    top = max(worked.values())
    return rng.choice([n for n, w in worked.items() if w == top])


SEARCH: dict[str, Callable[[TableView, Sequence[str], random.Random], str]] = {
    "random": search_random,
    "informed": search_informed,
    "tracker": search_tracker,
}


# ---- mixes -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mix:
    """A named combination of habits for a whole table of bots."""

    name: str
    description: str
    loyal: float
    opportunist: float
    saboteur: float
    planning: str
    accusation: str
    search: str
    offers: str
    habits: Habits | None = None  # a mix learned from real tables: every prisoner Habitual

    def draw_prisoner(self, rng: random.Random) -> Prisoner:
        if self.habits is not None:
            return Habitual(self.habits)
        x = rng.random() * (self.loyal + self.opportunist + self.saboteur)
        if x < self.loyal:
            return Loyal()
        if x < self.loyal + self.opportunist:
            return Opportunist()
        return Saboteur()

    def summary(self) -> str:
        h = self.habits
        if h is not None:
            return (
                f"{self.name} ({self.description}): prisoners work {h.work:.0%} of nights, "
                f"take {h.accept:.0%} of the deals offered and accuse on {h.accuse:.0%} of "
                "the nights they could; "
                f"warden search '{self.search}', deals '{self.offers}'"
            )
        return (
            f"{self.name}: prisoners {self.loyal:.0%} loyal / {self.opportunist:.0%} opportunist / "
            f"{self.saboteur:.0%} saboteur, plan '{self.planning}', accusations "
            f"'{self.accusation}', warden search '{self.search}', deals '{self.offers}'"
        )


MIXES: dict[str, Mix] = {
    m.name: m
    for m in (
        Mix(
            "standard",
            "mostly loyal prisoners, some opportunists, a few saboteurs; a warden who acts on tips",
            0.6, 0.3, 0.1, "finish", "both", "informed", "focus",
        ),
        Mix(
            "loyal",
            "every prisoner loyal and no accusations; the warden searches at random",
            1.0, 0.0, 0.0, "finish", "never", "random", "random",
        ),
        Mix(
            "cutthroat",
            "many opportunists and saboteurs; a warden who tracks workers and courts informants",
            0.4, 0.35, 0.25, "finish", "both", "tracker", "focus",
        ),
        Mix(
            "naive-warden",
            "the standard prisoners against a warden who ignores tips and offers deals at random",
            0.6, 0.3, 0.1, "finish", "both", "random", "random",
        ),
        Mix(
            "trusting",
            "the standard prisoners who never accuse anyone",
            0.6, 0.3, 0.1, "finish", "never", "informed", "focus",
        ),
    )
}
