"""Presence: the passing news that a seat's phone came or went, for any game.

The phone server tells it to the session (:meth:`Session.signal
<companion.session.session.Session.signal>`), which hands it to every subscriber as
``Change.signal``; the consoles follow it to show who is connected. It is never logged: a
restarted server knows nobody until the phones come back.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeatPresence:
    """One seat's phone connected (a stream of it is open) or away (its last one closed)."""

    seat: str  # the seat's name (prison break) or the player's id (warm-up)
    connected: bool
    since: float  # epoch seconds: when it connected, or went away
