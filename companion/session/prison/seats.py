"""Seats: each player's secret link token and short seat code.

A seat is one player's place in a session (every prisoner and the warden). Its token (128 bits
or more) makes the private link ``BASE/p/TOKEN`` printed as a QR code on the player's card; its
8-character code can be typed at ``BASE/join`` instead. Seats are kept in the session's
settings (a setting row, never in the game's history, so a report of the history cannot leak
them); reissuing a seat replaces its token and code at once and is noted by name only.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

if TYPE_CHECKING:
    from companion.session.prison import PrisonSession

Role = Literal["prisoner", "warden"]
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 8
TOKEN_BYTES = 18  # 144 bits


class Seat(NamedTuple):  # (not a dataclass: `companion links` starts without them)
    name: str
    role: Role
    token: str
    code: str


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def make_seats(warden: str, prisoners: list[str]) -> list[Seat]:
    seats = [Seat(warden, "warden", new_token(), new_code())]
    seats += [Seat(name, "prisoner", new_token(), new_code()) for name in prisoners]
    return seats


def normalise_code(text: str) -> str:
    """What a player typed, as a seat code: case and spaces or dashes do not matter."""
    return "".join(c for c in text.upper() if c.isalnum())


def stored_seats(meta: Mapping[str, Any]) -> list[Seat] | None:
    """The seats kept in a session's settings; ``None`` before they are first asked for."""
    if "seats" not in meta:
        return None
    return [Seat(**s) for s in meta["seats"]]


def seats_of(session: PrisonSession) -> list[Seat]:
    """The session's seats, created (and stored) the first time they are asked for."""
    stored = stored_seats(session.settings)
    if stored is not None:
        return stored
    state = session.state
    seats = make_seats(state.warden, list(state.roster))
    session.set("seats", [s._asdict() for s in seats])
    return seats


def reissue(session: PrisonSession, name: str) -> Seat:
    """Give one seat a new token and code; the old link and code stop working at once."""
    seats = seats_of(session)
    for i, seat in enumerate(seats):
        if seat.name == name:
            fresh = Seat(seat.name, seat.role, new_token(), new_code())
            seats[i] = fresh
            session.set("seats", [s._asdict() for s in seats])
            session.note("seat_reissued", seat=name)
            return fresh
    raise KeyError(f"There is no seat for {name!r}.")


def by_token(seats: list[Seat], token: str) -> Seat | None:
    """The seat with this token, compared in constant time against every seat."""
    found = None
    given = token.encode("utf-8", "surrogateescape")
    for seat in seats:
        if hmac.compare_digest(seat.token.encode(), given):
            found = seat
    return found


def by_code(seats: list[Seat], code: str) -> Seat | None:
    wanted = normalise_code(code).encode()
    found = None
    for seat in seats:
        if hmac.compare_digest(seat.code.encode(), wanted):
            found = seat
    return found


def seat_url(base: str, seat: Seat) -> str:
    return f"{base.rstrip('/')}/p/{seat.token}"


def join_url(base: str) -> str:
    return f"{base.rstrip('/')}/join"


def board_url(base: str) -> str:
    return f"{base.rstrip('/')}/board"
