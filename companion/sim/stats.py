"""Rates with 95% intervals (Wilson score), and the summary of a simulation run."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    hits: int
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.hits / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "count": self.hits,
            "rate": round(self.rate, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
        }

    def short(self) -> str:
        return f"{self.rate:.1%} ({self.low:.1%}-{self.high:.1%})"

    def __str__(self) -> str:
        return f"{self.rate:6.1%}  [{self.low:6.1%}, {self.high:6.1%}]"


def wilson(hits: int, games: int, z: float = Z95) -> Rate:
    """The Wilson score interval for ``hits`` successes out of ``games``."""
    if games <= 0:
        return Rate(hits, games, 0.0, 1.0)
    p = hits / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return Rate(hits, games, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Gap:
    """How much closer to the target one setting is than another (in escape rate), with a 95%
    interval: ``low > 0`` means surely closer, ``high < 0`` surely further."""

    gap: float
    low: float
    high: float

    @property
    def settled(self) -> bool:
        return self.low > 0 or self.high < 0

    def as_dict(self) -> dict[str, Any]:
        return {"gap": round(self.gap, 4), "low": round(self.low, 4), "high": round(self.high, 4)}


def closer_by(a: Rate, b: Rate, target: float, penalty_a: float = 0.0,
              penalty_b: float = 0.0, z: float = Z95) -> Gap:
    """How much closer ``a`` is to ``target`` than ``b``, each distance plus its penalty:
    ``(|b - target| + penalty_b) - (|a - target| + penalty_a)``, with a normal interval from
    the two samples (each rate's variance estimated with one hit and one miss added, so a rate
    of 0 or 1 still has some)."""
    gap = (abs(b.rate - target) + penalty_b) - (abs(a.rate - target) + penalty_a)
    var = _variance(a) + _variance(b)
    half = z * math.sqrt(var)
    return Gap(gap, gap - half, gap + half)


def _variance(r: Rate) -> float:
    p = (r.hits + 1) / (r.games + 2)
    return p * (1 - p) / max(1, r.games)


def apart(a: Rate, b: Rate, z: float = Z95) -> Gap:
    """How far rate ``a`` is above rate ``b``, with a normal interval from the two samples
    (each variance estimated as in :func:`closer_by`): ``settled`` when the two differ beyond
    chance."""
    gap = a.rate - b.rate
    half = z * math.sqrt(_variance(a) + _variance(b))
    return Gap(gap, gap - half, gap + half)
