"""What the prison break's handlers share: the session, its seats (each found by its link's
token or its typed seat code, behind the guard against guessing) and the views a seat may have.

Every view is the room's: the game as the room may see it (:func:`room_state`: a search's
result stays out until the game master steps through its reveal) and the stage (who is in with
the warden and the time left, the planning countdown, the reveal as far as it was shown).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from companion.language import N_
from companion.rules.prison.room import (
    BoardRoomView,
    PhonesCount,
    SeatRoomView,
    StageView,
    stage_view,
)
from companion.rules.prison.stage import Stage
from companion.rules.prison.state import PrisonState
from companion.rules.prison.views import TableView, table
from companion.session.prison import PrisonSession
from companion.session.prison.seats import Seat, by_code, by_token, seats_of
from companion.session.wifi import wifi_of
from companion.web.common.context import (
    NOT_FOUND,
    Limiter,
    Presence,
    Problem,
    count_wrong,
    log_version,
)
from companion.web.common.desk import Desk
from companion.web.common.fanout import Fanout
from companion.web.common.group_commit import GroupCommit

# The views the pages and the API read: the room's (rules/prison/room.py).
SeatView = SeatRoomView
BoardView = BoardRoomView

# What a paused device is told depends on what it was doing: following a link (scan the
# card) or typing a seat code on the join page (type it again).
TOO_MANY = N_(
    "Too many wrong links or seat codes came from this device; wait a minute, then scan "
    "your card again."
)
TOO_MANY_CODES = N_(
    "Too many wrong seat codes came from this device; wait a minute, then type the seat code "
    "on your card again, or ask the game master for help."
)


# What a choice changes in every prisoner's view: who has chosen, which a prisoner's page shows
# as one line ("k of n prisoners have chosen tonight"), sent alone as a patch.
COUNTS = ("submitted", "submitted_count")


class SharedTable:
    """The table of the room's game and its JSON text, made once for every prisoner's stream
    while the game stays the same (a prisoner's view is the table and its own part).

    ``look``: the table without :data:`COUNTS`, the very same object for as long as it stays
    equal, so that a stream sees at a glance whether anything but the counts changed."""

    def __init__(self) -> None:
        self._state: PrisonState | None = None
        self.table: TableView | None = None
        self.json = ""
        self.look: dict[str, Any] = {}
        self._texts: dict[str, dict[str, str]] = {}  # the counts' line by language, likewise

    def of(self, state: PrisonState) -> tuple[TableView, str]:
        """The table of ``state`` and its JSON text without the outer braces."""
        if state is not self._state or self.table is None:
            self.table = table(state)
            self.json = json.dumps(self.table, ensure_ascii=False, separators=(",", ":"))[1:-1]
            self._state = state
            self._texts = {}
            look = {k: v for k, v in self.table.items() if k not in COUNTS}
            if look != self.look:
                self.look = look
        return self.table, self.json

    def counts_texts(self, code: str, make: Callable[[], dict[str, str]]) -> dict[str, str]:
        """The texts of this table's counts on a prisoner's page in the language ``code``
        (what a patch changes when nothing else did): ``make()``, once per language and
        table, the very same object for every prisoner."""
        texts = self._texts.get(code)
        if texts is None:
            texts = self._texts[code] = make()
        return texts


def room_version(session: PrisonSession) -> int:
    """The version of what the room sees (every page's and stream's, ``X-View-Version``):
    the log's, but for an interview recorded while the prisoner is still in with the warden
    (:class:`~companion.rules.prison.room.PrisonRoom` ``ahead``), whose row the room does
    not count until the interview ends: a deal made then, and one recorded as they come
    back, number the same."""
    version = log_version(session)
    return version - 1 if session.room.ahead is not None else version


def seat_view(session: PrisonSession, seat: Seat, now: float | None = None) -> SeatView:
    """What ``seat`` may see at ``now`` (epoch seconds; default: now): the room's fold's."""
    return session.room.seat_view(seat.role, seat.name, time.time() if now is None else now)


def board_view(
    session: PrisonSession, phones: PhonesCount, now: float | None = None
) -> BoardView:
    """What the board shows at ``now`` (default: now): the room's fold's."""
    return session.room.board_view(phones, time.time() if now is None else now)


@dataclass(eq=False)
class StreamMemory:
    """What the prison keeps of one event stream (what its page shows is the outbox's, see
    :func:`companion.web.common.fanout.show`): its seat's token (``None``: the board), the
    seat as looked up last, the push that last served it and the game master's secret."""

    token: str | None
    looked_up: tuple[list[Seat] | None, Seat | None] = (None, None)
    at: int = -1  # the push (NightContext.pushes) that last put a message in, if one did
    gm: str | None = None  # the game master's phone's secret its page was opened with


@dataclass
class NightContext:
    """What every handler of the prison break's server shares (the session, the limits, the
    phones' presence, the fan-out, the desk): its handlers' context."""

    session: PrisonSession
    limiter: Limiter
    presence: Presence
    base_url: str | None = None
    fanout: Fanout[StreamMemory] | None = None  # the live updates, while the server runs
    desk: Desk | None = None  # the game master's desk, on the night's server
    clock: Callable[[], float] = time.time  # the countdowns' "now" (tests pin it)
    shared: SharedTable = field(default_factory=SharedTable, repr=False)
    together: GroupCommit = field(init=False, repr=False)  # the prisoners' choices, in groups
    pushes: int = 0  # how many pushes the streams had
    pushed: tuple[PrisonState, Stage] | None = None  # the room's game and stage at the last one
    logged: int = 0  # the log's version at the last one
    # the seats as last read: at this log length, from this stored text
    _seats: tuple[object, list[Seat]] = field(default=(None, []), repr=False)

    def __post_init__(self) -> None:
        self.together = GroupCommit(self.session)

    def wifi_name(self) -> str | None:
        """The venue's network's name, for the board's "join the Wi-Fi" code (its password is
        only in the code's image, ``/wifi.svg``)."""
        wifi = wifi_of(self.session)
        return wifi.name if wifi is not None else None

    def seats(self) -> list[Seat]:
        """The seats (made and kept the first time they are asked for), parsed again only when
        their setting was replaced: every request and every stream at every push looks its seat
        up, 54 us each uncached at 50 seats (``benchmarks/phones.py --costs``), 0 us kept."""
        stored = self.session.settings.get("seats")
        if stored is None or stored is not self._seats[0]:
            seats = seats_of(self.session)
            self._seats = (self.session.settings.get("seats"), seats)
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

    def phones_count(self) -> PhonesCount:
        names = [s.name for s in self.seats()]
        return {"connected": self.presence.count(names), "seats": len(names)}

    def stage_view(self) -> StageView:
        """The stage as the room sees it now."""
        return stage_view(self.session.room.stage, self.clock())

    def seat_view(self, seat: Seat) -> SeatView:
        return seat_view(self.session, seat, self.clock())

    def board_view(self) -> BoardView:
        return board_view(self.session, self.phones_count(), self.clock())

    def warden_only(self, last: tuple[PrisonState, Stage] | None) -> bool:
        """Whether the push now brings only an interview recorded while its prisoner is still
        in (held from the room): the log grew, the room's game and stage did not. Only the
        warden's pages hear of it, or the room would hear that a deal was made meanwhile."""
        logged, self.logged = self.logged, log_version(self.session)
        room = self.session.room
        return (
            room.ahead is not None and last is not None and last[0] is room.game
            and last[1] == room.stage and logged != self.logged
        )

    def is_wardens(self, watch: StreamMemory) -> bool:
        """Whether the stream ``watch`` is one of the warden's pages."""
        seat = by_token(self.seats(), watch.token) if watch.token is not None else None
        return seat is not None and seat.role == "warden"


NIGHT = web.AppKey("night", NightContext)


def night_of(request: web.Request) -> NightContext:
    """What the handlers share, from the application serving ``request``."""
    return request.app[NIGHT]
