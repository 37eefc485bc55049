"""How many players may join from one device address: a few tries a minute (a refused join
counts: an address that tries while the room is full has no joins left when it empties), and
a few present at once, so that one script cannot fill the room (a household or a phone
sharing its hotspot, all behind one address, still joins together). Behind a proxy every
phone comes from one address: the game master lifts the limit from the console (the session's
``joins_per_device`` setting, ``"lifted"``).

The counts live in memory (a restart forgets them, which only lets an address join again); the
addresses themselves are kept with the seats in the session file
(:mod:`companion.session.dilemma.seats`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from companion.session.dilemma.seats import LIFTED_KEY
from companion.web.common.context import Recent

__all__ = ["JOINS_PER_MINUTE", "LIFTED_KEY", "JoinLimiter", "per_device", "present_from"]

JOINS_PER_MINUTE = 6  # joins tried from one address in any 60 seconds
PRESENT_PER_ADDRESS = 10  # players who joined from one address and are still in
WINDOW = 60.0  # seconds


class JoinLimiter:
    """A sliding window of joins per address, and a cap on the players present from it."""

    def __init__(
        self,
        per_window: int = JOINS_PER_MINUTE,
        present: int = PRESENT_PER_ADDRESS,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_window = per_window
        self.present = present
        self._joins = Recent(window, clock)

    def allows(self, address: str, present_from_it: int) -> bool:
        """Whether one more player may join from ``address``, where ``present_from_it`` players
        who joined from it are still in."""
        return self._joins.count(address) < self.per_window and present_from_it < self.present

    def tried(self, address: str) -> None:
        """A join was tried from ``address``, taken or refused (full, a taken name, over the
        limit): each counts, up to the limit, the latest kept."""
        self._joins.add(address, most=self.per_window)


def per_device(present: int | None) -> JoinLimiter:
    """The limit for ``--per-device``: ``None`` the defaults, 0 none at all, else ``present``
    players in at once from one address (and at most ``JOINS_PER_MINUTE`` joining a minute)."""
    if present is None:
        return JoinLimiter()
    if present == 0:
        return JoinLimiter(per_window=10**9, present=10**9)
    return JoinLimiter(per_window=min(present, JOINS_PER_MINUTE), present=present)


def present_from(address: str, origins: Iterable[tuple[str, str | None]], present: set[str]) -> int:
    """How many of the players in ``present`` took their seat from ``address``
    (``origins``: each seat's player id and address)."""
    return sum(1 for pid, where in origins if where == address and pid in present)
