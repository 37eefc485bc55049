"""Players' secret links for the dilemma warm-up.

Each player who joins gets a token (144 bits) that opens their page at ``/d/TOKEN``; it is also
kept in a cookie so that scanning the room code again brings them back. Tokens live in the
session file's metadata (key ``dilemma_seats``), never in the history rows: the log holds only
the join (an id and a name). The token is written *before* the join is submitted, so a crash in
between leaves at worst a token for nobody.
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.session.session import Session

META_KEY = "dilemma_seats"
TOKEN_BYTES = 18  # 144 bits


def _seats(session: Session) -> list[dict[str, str]]:
    return list(session.meta().get(META_KEY, []))


def new_seat(session: Session) -> tuple[str, str]:
    """A fresh (pid, token), stored in the session file; the pid is for the join command."""
    pid = secrets.token_hex(4)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    session.store.set_meta(META_KEY, [*_seats(session), {"pid": pid, "token": token}])
    return pid, token


def forget(session: Session, token: str) -> None:
    """Drop a token whose join was refused."""
    kept = [s for s in _seats(session) if s["token"] != token]
    session.store.set_meta(META_KEY, kept)


def pid_for(session: Session, token: str) -> str | None:
    """The player id a token opens, compared in constant time against every token."""
    found = None
    given = token.encode("utf-8", "surrogateescape")
    for seat in _seats(session):
        if hmac.compare_digest(seat["token"].encode(), given):
            found = seat["pid"]
    return found

