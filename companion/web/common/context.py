"""What every handler shares: the session, the seats, the guard against guessed tokens, the
presence signals and the templates."""

from __future__ import annotations

import contextlib
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from companion.rules.core.game import Refused
from companion.rules.prison.views import prisoner, table, warden
from companion.session.seats import Seat, by_code, by_token, seats_of
from companion.session.store import StoreError
from companion.web.common.events import Hub

NOT_FOUND = "There is nothing here; scan your card again or ask the game master for your link."
TOO_MANY = (
    "Too many wrong links or seat codes came from this device; wait a minute, then scan "
    "your card again."
)


def json_answer(data: Any, status: int = 200) -> web.Response:
    """An API answer: JSON (non-ASCII names as they are), never cached."""
    return web.json_response(
        data,
        status=status,
        dumps=lambda d: json.dumps(d, ensure_ascii=False),
        headers={"Cache-Control": "no-store"},
    )


class Problem(Exception):
    """A request refused with an HTTP status and one clear sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def submit_for_phone(session: Any, command: dict[str, Any], by: str) -> None:
    """Submit a phone's command; refused (409) or not recorded (503), it raises a Problem
    with the sentence that says why."""
    try:
        outcome = session.submit(command, by=by)
    except StoreError as error:
        raise Problem(503, str(error)) from None
    if isinstance(outcome, Refused):
        raise Problem(409, outcome.reason)


class Limiter:
    """Counts wrong tokens and seat codes per address; over the limit, the address is refused
    every lookup (right or wrong) until its oldest failure leaves the window."""

    def __init__(
        self, limit: int = 20, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, address: str) -> deque[float]:
        times = self._failures.setdefault(address, deque())
        cutoff = self.clock() - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        return times

    def blocked(self, address: str) -> bool:
        return len(self._recent(address)) >= self.limit

    def failed(self, address: str) -> None:
        self._recent(address).append(self.clock())
        if len(self._failures) > 10_000:  # a flood of addresses: forget the quiet ones
            for key in [k for k, v in self._failures.items() if not v]:
                del self._failures[key]


def count_wrong(session: Any, limiter: Limiter, address: str) -> None:
    """Count a wrong link or seat code from ``address``; when it reaches the limit, note it in
    the session's history for the game master (the address and the count, never what was
    guessed). Once per address and window: a blocked address is not counted further."""
    limiter.failed(address)
    if limiter.blocked(address):
        with contextlib.suppress(StoreError):  # a full disk must not turn a 404 into a 503
            session.note(
                "bad_tokens", address=address, count=limiter.limit, seconds=limiter.window
            )


class Presence:
    """Tells the session (and so the console) that a seat's phone was seen; throttled."""

    def __init__(self, session: Any, every: float = 5.0) -> None:
        self.session = session
        self.every = every
        self._last: dict[str, float] = {}

    def seen(self, name: str) -> None:
        now = time.time()
        if now - self._last.get(name, 0.0) >= self.every:
            self._last[name] = now
            self.session.signal("presence", seat=name, seen=now)


async def read_form(request: web.Request) -> Any:
    """A posted form; 400 in one sentence when it cannot be read (a broken multipart body,
    an unknown charset)."""
    try:
        return await request.post()
    except (ValueError, AssertionError, LookupError):
        raise Problem(400, "The form could not be read; reload the page and try again.") from None


def seat_view(state: Any, seat: Seat) -> dict[str, Any]:
    """The one view a seat may have (spec, "Who may see what")."""
    if seat.role == "warden":
        return warden(state)
    return prisoner(state, seat.name)


def board_view(state: Any) -> dict[str, Any]:
    return table(state)


@dataclass
class Phones:
    session: Any
    limiter: Limiter
    presence: Presence
    base_url: str | None = None
    hub: Hub | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    _seats: tuple[str | None, list[Seat]] = field(default=(None, []), repr=False)

    def seats(self) -> list[Seat]:
        """The seats, read again only when their stored text changed (a reissue): every open
        stream looks its seat up at every change of the game."""
        stored = self.session.store.meta_text("seats")
        if stored is None or stored != self._seats[0]:
            seats = seats_of(self.session)
            self._seats = (self.session.store.meta_text("seats"), seats)
        return self._seats[1]

    def _look_up(
        self, request: web.Request, find: Callable[[list[Seat], str], Seat | None], key: str
    ) -> Seat | None:
        """The seat ``find`` gives for ``key``; a miss is counted against the address, and an
        address over the limit is refused (429) before anything is looked up."""
        address = request.remote or "unknown"
        if self.limiter.blocked(address):
            raise Problem(429, TOO_MANY)
        seat = find(self.seats(), key)
        if seat is None:
            count_wrong(self.session, self.limiter, address)
        return seat

    def seat_for(self, request: web.Request, token: str) -> Seat:
        """The seat a token opens; 429 for a guesser, 404 (as for any unknown path) else."""
        seat = self._look_up(request, by_token, token)
        if seat is None:
            raise Problem(404, NOT_FOUND)
        self.presence.seen(seat.name)
        return seat

    def seat_for_code(self, request: web.Request, code: str) -> Seat | None:
        return self._look_up(request, by_code, code)

    def find_seat(self, token: str) -> Seat | None:
        """The seat for a token without counting or signalling (for open streams)."""
        return by_token(self.seats(), token)


PHONES = web.AppKey("phones", Phones)
