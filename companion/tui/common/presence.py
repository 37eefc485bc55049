"""What the consoles know of the players' phones: the phone server's presence signals
(:class:`~companion.session.presence.SeatPresence`: a seat is connected while one of its event
streams is open, away since it last closed)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from companion.language import Language, language
from companion.session.presence import SeatPresence


@dataclass(frozen=True)
class PhoneSeen:
    connected: bool
    since: float  # epoch seconds: when it connected, or went away


Presence = dict[str, PhoneSeen]


def seat_seen(presence: Presence, signal: SeatPresence | None) -> str | None:
    """Take in a change's presence signal; the seat it is about, or ``None`` without one."""
    if not isinstance(signal, SeatPresence):
        return None
    presence[signal.seat] = PhoneSeen(signal.connected, signal.since)
    return signal.seat


def phone_words(
    seen: PhoneSeen | None, lang: Language | None = None, *, short: bool = False
) -> str:
    """``connected``, ``away since 21:04`` (``short``: ``away 21:04``, for a narrow table),
    or ``-`` (not seen since the console started), in ``lang`` (English by default)."""
    _ = lang or language()
    if seen is None:
        return "-"
    if seen.connected:
        return _("connected")
    at = time.strftime("%H:%M", time.localtime(seen.since))
    if short:
        return _("away %(time)s", time=at)
    return _("away since %(time)s", time=at)


def connected_count(presence: Presence, seats: list[str] | None = None) -> int:
    names = presence if seats is None else seats
    return sum(1 for name in names if (s := presence.get(name)) is not None and s.connected)
