"""The prisoners' accusation habits: whom a prisoner holding a shiv accuses tonight, if anyone,
and what on the public record of the night triggers each habit."""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.rules.prison.views import PrisonerView, TableView
from companion.sim.strategies.yard import YardTalk


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
