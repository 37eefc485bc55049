"""What the prison break's handlers share: the session, its seats (each found by its link's
token or its typed seat code, behind the guard against guessing) and the views a seat may have.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

from companion.rules.prison.state import PrisonState
from companion.rules.prison.views import (
    PrisonerView,
    TableView,
    WardenView,
    prisoner,
    table,
    warden,
)
from companion.session.seats import Seat, by_code, by_token, seats_of
from companion.session.session import Session
from companion.web.common.context import NOT_FOUND, Limiter, Presence, Problem, count_wrong
from companion.web.common.events import Hub

# The views the pages and the API read, as rules/prison/views.py gives them.
SeatView = PrisonerView | WardenView
BoardView = TableView

# What a paused device is told depends on what it was doing: following a link (scan the
# card) or typing a seat code on the join page (type it again).
TOO_MANY = (
    "Too many wrong links or seat codes came from this device; wait a minute, then scan "
    "your card again."
)
TOO_MANY_CODES = (
    "Too many wrong seat codes came from this device; wait a minute, then type the seat code "
    "on your card again, or ask the game master for help."
)


def seat_view(state: PrisonState, seat: Seat) -> SeatView:
    """The one view a seat may have (spec, "Who may see what")."""
    if seat.role == "warden":
        return warden(state)
    return prisoner(state, seat.name)


def board_view(state: PrisonState) -> BoardView:
    return table(state)


@dataclass
class Phones:
    """What every handler of the prison break's server shares."""

    session: Session
    limiter: Limiter
    presence: Presence
    base_url: str | None = None
    hub: Hub | None = None
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
        self,
        request: web.Request,
        find: Callable[[list[Seat], str], Seat | None],
        key: str,
        paused: str = TOO_MANY,
    ) -> Seat | None:
        """The seat ``find`` gives for ``key``; a miss is counted against the address, and an
        address over the limit is refused (429, saying ``paused``) before anything is looked
        up."""
        address = request.remote or "unknown"
        if self.limiter.blocked(address):
            raise Problem(429, paused)
        seat = find(self.seats(), key)
        if seat is None:
            count_wrong(self.session, self.limiter, address)
        return seat

    def seat_for(self, request: web.Request, token: str) -> Seat:
        """The seat a token opens; 429 for a guesser, 404 (as for any unknown path) else."""
        seat = self._look_up(request, by_token, token)
        if seat is None:
            raise Problem(404, NOT_FOUND)
        return seat

    def seat_for_code(self, request: web.Request, code: str) -> Seat | None:
        return self._look_up(request, by_code, code, TOO_MANY_CODES)

    def find_seat(self, token: str) -> Seat | None:
        """The seat for a token without counting or signalling (for open streams)."""
        return by_token(self.seats(), token)


PHONES = web.AppKey("phones", Phones)


def phones_of(request: web.Request) -> Phones:
    """What the handlers share, from the application serving ``request``."""
    return request.app[PHONES]
