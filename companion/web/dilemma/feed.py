"""The warm-up's live pages: which pages a change touches, made once, pushed coalesced.

A lecture hall holds hundreds of phones, so a change costs work in proportion to the pages it
changes, not to the room:

- a choice changes its chooser's page and a count: the chooser's part is made again, every
  other phone gets the count alone (a ``patch`` event, encoded once for all);
- a join in the lobby changes the joiner's page and the count of players;
- anything else (a round drawn, a reveal, an undo, a timer note) changes every page: the
  shared part (results, leaderboard, debrief) is made once and each phone's own part around it;
- the board is made again after any of these, and after a phone comes or goes.

Each phone's page is in its own language: the shared part is made once per language that an
open phone speaks (when one first needs it), each phone's part in its stream's language.

Changes are gathered and sent at most every ``COALESCE`` seconds: each stream has an
:class:`Outbox` that keeps only the latest message, so a slow phone gets the newest page and
never a backlog. Nothing is sent that the log does not hold: the session tells the feed after
the change is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from companion.language import Language, language
from companion.rules.dilemma.events import Chose, Joined
from companion.rules.dilemma.state import DilemmaState, is_house
from companion.rules.dilemma.timer import RoundTimer, round_timer
from companion.rules.dilemma.views import Public, player, public
from companion.session.presence import SeatPresence
from companion.session.session import Change, Session
from companion.web.common.context import log_version
from companion.web.common.events import (
    HEARTBEAT_SECONDS,
    Attendance,
    last_event_id,
    open_stream,
)
from companion.web.dilemma import pages

COALESCE = 0.2  # seconds between two pushes of counts: at most five a second
URGENT = 0.02  # a change of every page (a reveal, a round drawn) goes out this soon


def counts(state: DilemmaState) -> pages.Counts:
    """What a choice or a join changes on every page: how many have chosen, of how many, and
    how many joined."""
    r = state.open_round()
    people = sum(1 for p in r.paired() if not is_house(p)) if r is not None else 0
    return {
        "chosen_count": people - len(state.waiting()),
        "to_choose": people,
        "players": [p.name for p in state.players if p.present],
    }


class Outbox:
    """One stream's next message; a newer one replaces it, unsent. ``lang``: the stream's
    page's language (``None``: the board, in the session's)."""

    __slots__ = ("lang", "message", "ready")

    def __init__(self, lang: Language | None = None) -> None:
        self.lang = lang
        self.message: bytes | None = None
        self.ready = asyncio.Event()

    def put(self, message: bytes) -> None:
        self.message = message
        self.ready.set()

    def take(self) -> bytes | None:
        message, self.message = self.message, None
        self.ready.clear()
        return message


def _message(event: str, data: Any, event_id: int | None = None) -> bytes:
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return (head + "data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":"))).encode(
        "utf-8"
    ) + b"\n\n"


@dataclass
class Dirty:
    """What changed since the last push."""

    everything: bool = False
    seats: set[str] = field(default_factory=set)
    counts: bool = False
    board: bool = False

    def any(self) -> bool:
        return self.everything or bool(self.seats) or self.counts or self.board


@dataclass
class Made:
    """The pages of one state, made once and shared by the streams that need them."""

    version: int
    state: DilemmaState
    shared: Public
    clock: RoundTimer | None
    results: dict[str, str] = field(default_factory=dict)  # by language, made when needed

    def results_in(self, lang: Language) -> str:
        """The shared results in ``lang``, made the first time a phone in it needs them."""
        made = self.results.get(lang.code)
        if made is None:
            made = self.results[lang.code] = pages.render_results(self.shared.board, lang)
        return made

    def timer(self) -> pages.Timer | None:
        """The countdown as of now (a page made later than the state counts from now)."""
        return pages.Timer.of(self.clock.left(time.time())) if self.clock else None


class Feed:
    """Pushes the warm-up's pages to its open streams; see the module's docstring."""

    def __init__(self, session: Session, board_part: Callable[[pages.Timer | None], str]) -> None:
        self.session = session
        self.board_part = board_part
        self.loop = asyncio.get_running_loop()
        self.players: dict[str, set[Outbox]] = {}
        self.boards: set[Outbox] = set()
        self.dirty = Dirty()
        self.closing = False
        self.sent = 0  # messages handed to streams (the benchmark counts them)
        self._wake = asyncio.Event()
        self._urgent = asyncio.Event()  # set by a change of every page: no waiting for counts
        self._made: Made | None = None
        self._unsubscribe = session.subscribe(self._on_change)
        self._task = self.loop.create_task(self._run())

    # ---- what changed -----------------------------------------------------------------------

    def _on_change(self, session: Session, change: Change) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            self._note(change)
        else:  # told from another thread: hand over to the server's loop
            self.loop.call_soon_threadsafe(self._note, change)

    def _note(self, change: Change) -> None:
        dirty = self.dirty
        if change.kind == "signal":
            if not isinstance(change.signal, SeatPresence):
                return
            dirty.board = True
        elif change.kind == "command" and change.entry is not None:
            events = change.entry.events
            lobby = self.session.state.phase == "lobby"
            if events and all(isinstance(e, Chose) for e in events):
                # the shared part stays as made: a choice shows only on its chooser's page
                dirty.seats.update(e.pid for e in events if isinstance(e, Chose))
                dirty.counts = dirty.board = True
            elif events and lobby and all(isinstance(e, Joined) for e in events):
                self._made = None
                dirty.seats.update(e.pid for e in events if isinstance(e, Joined))
                dirty.counts = dirty.board = True
            elif events:
                self._made = None
                dirty.everything = True
        else:  # an undo or a note (a timer, a peek): anything may have changed
            self._made = None
            dirty.everything = True
        if dirty.everything:
            self._urgent.set()
        self._wake.set()

    # ---- making pages -------------------------------------------------------------------------

    def version(self) -> int:
        """The version of the state now (every message's id: what its page shows)."""
        return log_version(self.session)

    def made(self) -> Made:
        """The shared pages, made again only after a change other than a choice (a choice
        changes only its chooser's page and the counts, which are read afresh)."""
        version = self.version()
        state = self.session.state
        if self._made is None:
            shared = public(state)
            self._made = Made(version, state, shared, self.clock(state))
        return self._made

    def clock(self, state: DilemmaState) -> RoundTimer | None:
        """The open round's timer, if it has one."""
        r = state.open_round()
        if r is None:
            return None
        return round_timer((row.body for row in self.session.notes("round_timer")), r.number)

    def part(self, pid: str, lang: Language, made: Made | None = None) -> str:
        """A phone's part: its own lines from the state as it is now, around the shared part."""
        made = made or self.made()
        state = self.session.state
        if state.player(pid) is not None and pid not in made.shared.rows:
            self._made = None  # a player the shared part does not know yet (not expected)
            made = self.made()
        view = player(state, pid, made.shared)
        view.update(counts(state))  # type: ignore[typeddict-item]
        results = pages.mark_me(made.results_in(lang), made.shared.order.get(pid))
        return pages.render_player_part(view, lang, made.timer(), results)

    def player_message(self, pid: str, made: Made, lang: Language) -> bytes:
        return _message("view", {"html": self.part(pid, lang, made)}, self.version())

    def board_message(self) -> bytes:
        made = self.made()
        return _message("view", {"html": self.board_part(made.timer())}, self.version())

    # ---- pushing --------------------------------------------------------------------------

    async def _run(self) -> None:
        while not self.closing:
            await self._wake.wait()
            self._wake.clear()
            if self.closing:
                break
            dirty, self.dirty = self.dirty, Dirty()
            self._urgent.clear()
            if dirty.any():
                self.push(dirty)
                # Counts wait their turn; a reveal or a new round does not wait for them (it
                # still waits a moment, so that the changes of one burst go out together).
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._urgent.wait(), COALESCE)
                await asyncio.sleep(URGENT)

    def push(self, dirty: Dirty) -> None:
        made = self.made()
        open_seats = {pid for pid, boxes in self.players.items() if boxes}
        redo = open_seats if dirty.everything else dirty.seats & open_seats
        for pid in redo:
            messages: dict[str, bytes] = {}  # one page per language its phones speak
            for box in self.players[pid]:
                lang = box.lang or language()
                message = messages.get(lang.code)
                if message is None:
                    message = messages[lang.code] = self.player_message(pid, made, lang)
                box.put(message)
                self.sent += 1
        if dirty.counts and not dirty.everything:
            now = counts(self.session.state)
            patches: dict[str, bytes] = {}  # encoded once per language
            for pid, boxes in self.players.items():
                if pid not in redo:
                    for box in boxes:
                        if box.message is None or box.message.startswith(b"event: patch"):
                            lang = box.lang or language()
                            patch = patches.get(lang.code)
                            if patch is None:
                                patch = patches[lang.code] = _message(
                                    "patch", pages.progress(now, lang), self.version()
                                )
                            box.put(patch)  # never in place of a whole page not yet sent
                            self.sent += 1
        if self.boards and (dirty.everything or dirty.board or dirty.counts):
            message = self.board_message()
            for box in self.boards:
                box.put(message)
                self.sent += 1

    def close(self) -> None:
        self.closing = True
        self._unsubscribe()
        self._wake.set()
        for boxes in (*self.players.values(), self.boards):
            for box in boxes:
                box.ready.set()
        self._task.cancel()


async def serve(
    request: web.Request,
    feed: Feed,
    boxes: set[Outbox],
    first: Callable[[], bytes],
    *,
    attendance: tuple[Attendance, str] | None = None,
    heartbeat: float = HEARTBEAT_SECONDS,
    lang: Language | None = None,
) -> web.StreamResponse:
    """One event stream: ``first()`` at once (unless the browser already has this version),
    then whatever the feed puts in this stream's outbox, and a comment every ``heartbeat``
    seconds so that a phone gone without a word is found out."""
    response = await open_stream(request)
    if request.method == "HEAD":  # headers only: a body here would corrupt the connection
        return response
    box = Outbox(lang)
    boxes.add(box)
    if attendance is not None:
        attendance[0].opened(attendance[1])
    try:
        await response.write(b"retry: 2000\n\n")
        if last_event_id(request) != feed.version():
            await response.write(first())
        while not feed.closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(box.ready.wait(), heartbeat)
            message = box.take()
            if feed.closing:
                break
            await response.write(message if message is not None else b": still here\n\n")
    except ConnectionError:  # the phone went away; it reconnects by itself
        pass
    finally:  # also when the server stops and cancels the stream
        boxes.discard(box)
        if attendance is not None:
            attendance[0].closed(attendance[1])
    return response
