"""Players' secret links for the dilemma warm-up.

Each player who joins gets a token (144 bits) that opens their page at ``/d/TOKEN``; it is also
kept in a cookie so that scanning the room code again brings them back. Tokens live in the
session's settings (key ``dilemma_seats``, a setting row per seat), never in the game's
history: its rows hold only the join (an id and a name). The token is written *before* the join
is submitted, so a crash in between leaves at worst a token for nobody.

Each seat also keeps the device address it was taken from (``address``: ``None`` for a player
the game master added at the console) and when (``joined``: epoch seconds), for the game
master alone (to see and clear a flood of joins from one device); no phone, board or log row
shows them.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import weakref
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from companion.session.dilemma import DilemmaSession

META_KEY = "dilemma_seats"
# The limit of joins per device address: "lifted" (behind a proxy every phone shares one
# address; the game master lifts it from the console), else the server's own limit.
LIFTED_KEY = "joins_per_device"
TOKEN_BYTES = 18  # 144 bits


class Origin(NamedTuple):
    """Where and when a seat was taken: the device's address (``None``: at the console, or in
    a session from before addresses were kept) and the time (epoch seconds, or ``None``)."""

    address: str | None
    joined: float | None


def _seats(session: DilemmaSession) -> list[dict[str, Any]]:
    return list(session.settings.get(META_KEY) or [])


def new_pid() -> str:
    """A fresh player id, for a join command."""
    return secrets.token_hex(4)


def new_seat(
    session: DilemmaSession, address: str | None = None, *, now: float | None = None,
    pid: str | None = None,
) -> tuple[str, str]:
    """A (pid, token) for a player (``pid``, or a fresh one), the token stored in the session
    (a setting row of its own) with the ``address`` it was taken from and the time."""
    pid = pid or new_pid()
    token = secrets.token_urlsafe(TOKEN_BYTES)
    joined = time.time() if now is None else now
    session.add(META_KEY, {"pid": pid, "token": token, "address": address, "joined": joined})
    return pid, token


def origins(session: DilemmaSession) -> dict[str, Origin]:
    """Each seat's player id with where and when it was taken (the game master's only)."""
    return {s["pid"]: Origin(s.get("address"), s.get("joined")) for s in _seats(session)}


def forget(session: DilemmaSession, token: str) -> None:
    """Drop a token whose join was refused."""
    for seat in _seats(session):
        if seat["token"] == token:
            session.drop(META_KEY, seat)


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()


# Each session's seats by the digest of their token, made again when the seats setting is
# replaced (settings are replaced, never changed in place).
_INDEX: weakref.WeakKeyDictionary[Any, tuple[object, dict[bytes, str]]] = (
    weakref.WeakKeyDictionary()
)


def pid_for(session: DilemmaSession, token: str) -> str | None:
    """The player id a token opens, found by its digest (SHA-256) in a dict: one look-up,
    whatever the number of seats, and what its time could tell of a guess is a digest's, not
    how much of a real token the guess shares."""
    seats = session.settings.get(META_KEY)
    held = _INDEX.get(session)
    if held is None or held[0] is not seats:
        held = (seats, {_digest(s["token"]): s["pid"] for s in seats or []})
        _INDEX[session] = held
    return held[1].get(_digest(token))

