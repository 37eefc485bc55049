"""Players' secret links for the dilemma warm-up.

Each player who joins gets a token (144 bits) that opens their page at ``/d/TOKEN``; it is also
kept in a cookie so that scanning the room code again brings them back. Tokens live in the
session file's metadata (key ``dilemma_seats``), never in the history rows: the log holds only
the join (an id and a name). The token is written *before* the join is submitted, so a crash in
between leaves at worst a token for nobody.

Each seat also keeps the device address it was taken from (``address``: ``None`` for a player
the game master added at the console) and when (``joined``: epoch seconds), for the game
master alone (to see and clear a flood of joins from one device); no phone, board or log row
shows them.
"""

from __future__ import annotations

import hmac
import json
import secrets
import time
import weakref
from typing import TYPE_CHECKING, Any, NamedTuple

from companion.session.store import Store

if TYPE_CHECKING:
    from companion.session.dilemma import DilemmaSession

META_KEY = "dilemma_seats"
TOKEN_BYTES = 18  # 144 bits


class Origin(NamedTuple):
    """Where and when a seat was taken: the device's address (``None``: at the console, or in
    a session from before addresses were kept) and the time (epoch seconds, or ``None``)."""

    address: str | None
    joined: float | None


class _Read(NamedTuple):
    """The seats as last read from one session file: the stored text and what it says."""

    text: str | None
    seats: list[dict[str, Any]]
    origins: dict[str, Origin]


# The seats of each open store, decoded once per change of their stored text: a hall's
# 1,000 seats are ~100 kB of JSON, and a join reads them three times (the stored text is read
# and compared every time, so a change written by anyone is seen at once).
_read: weakref.WeakKeyDictionary[Store, _Read] = weakref.WeakKeyDictionary()


def _decoded(session: DilemmaSession) -> _Read:
    text = session.store.meta_text(META_KEY)
    read = _read.get(session.store)
    if read is None or read.text != text:
        seats = list(json.loads(text) or []) if text is not None else []
        found = {seat["pid"]: Origin(seat.get("address"), seat.get("joined")) for seat in seats}
        read = _read[session.store] = _Read(text, seats, found)
    return read


def _seats(session: DilemmaSession) -> list[dict[str, Any]]:
    return list(_decoded(session).seats)  # a copy: the caller may build on it


def new_seat(
    session: DilemmaSession, address: str | None = None, *, now: float | None = None
) -> tuple[str, str]:
    """A fresh (pid, token), stored in the session file with the ``address`` it was taken from
    and the time; the pid is for the join command."""
    pid = secrets.token_hex(4)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    joined = time.time() if now is None else now
    seat = {"pid": pid, "token": token, "address": address, "joined": joined}
    read = _decoded(session)
    said = json.dumps(seat)
    # the stored text with the seat added, as json.dumps of the whole list writes it (not
    # encoding 1,000 seats again for each join); what is written is what is kept as read
    if read.text is not None and read.text.endswith("}]"):
        text = f"{read.text[:-1]}, {said}]"
    else:
        text = json.dumps([*read.seats, seat])
    session.store.set_meta_text(META_KEY, text)
    _read[session.store] = _Read(
        text, [*read.seats, seat], {**read.origins, pid: Origin(address, joined)}
    )
    return pid, token


def origins(session: DilemmaSession) -> dict[str, Origin]:
    """Each seat's player id with where and when it was taken (the game master's only)."""
    return dict(_decoded(session).origins)


def forget(session: DilemmaSession, token: str) -> None:
    """Drop a token whose join was refused."""
    kept = [s for s in _seats(session) if s["token"] != token]
    session.store.set_meta(META_KEY, kept)


def pid_for(session: DilemmaSession, token: str) -> str | None:
    """The player id a token opens, compared in constant time against every token."""
    found = None
    given = token.encode("utf-8", "surrogateescape")
    for seat in _decoded(session).seats:
        if hmac.compare_digest(seat["token"].encode(), given):
            found = seat["pid"]
    return found

