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
