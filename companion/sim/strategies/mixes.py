"""The named mixes: a combination of prisoner strategies and habits (planning, accusations) and
of the warden's habits (search, deals) for a whole table of bots."""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.sim.strategies.prisoners import (
    Habits,
    Habitual,
    Loyal,
    Opportunist,
    Prisoner,
    Saboteur,
)


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
