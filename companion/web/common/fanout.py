"""Live updates for every game: one fan-out from the session's log to the open event streams.

The path of a change: the session tells the fan-out after its commit; the game says how soon
the streams must hear of it (:data:`Urgency`); the fan-out pushes, coalesced, and at each push
the game says what each audience's page (a seat's, the board's, the game master's) is now, as
a :class:`Page`: the key of its whole view, that view (made only if sent) and the texts of it
a patch may change. :func:`show`, the same for every game, compares that with what the stream's
page shows and puts the message into its :class:`~companion.web.common.outbox.Outbox`: the
whole view when the key differs, else a patch of the texts that differ, else (the log moved
on) an empty patch; a message is encoded once per push for every stream that gets the same
(:meth:`Push.event`). Each outbox keeps only the latest message, so a slow phone gets the
newest page and never a backlog.

Every message is a server-sent event (``outbox.sse``, the one encoder): ``view`` (the whole
view), ``patch`` (``{element id: text}``: a few texts of the page the stream showed, which the
page applies to what it holds) or ``gone`` (the seat no longer exists). Its id is the version
of what it shows, the number of the session's latest log row when it was made
(:func:`log_version`), so a browser that reconnects with ``Last-Event-ID`` gets the current
view at once if it missed anything, and nothing otherwise; and a page that keeps the version it
shows drops anything older that reaches it late (the pages, parts and POST answers carry the
same version: ``context.VERSION_HEADER``, ``data-version``).

Pushes are coalesced: the first change after a quiet spell is pushed at once (on the loop's
next turn); changes that follow within ``pace`` seconds of a push (``calm`` for a change the
game says may wait, such as a count) are pushed together at the end of that spell, so a burst
of POSTs costs every stream one message. The last change is never dropped: a push always
carries the log's latest row, and the game makes every view from the session as it is.
Nothing is pushed that is not committed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Mapping
from typing import Generic, Literal, NamedTuple, TypeVar, cast

from aiohttp import web

from companion.language import Language
from companion.session.presence import SeatPresence
from companion.session.session import Change, Session
from companion.web.common.context import log_version
from companion.web.common.limits import claim_stream
from companion.web.common.outbox import NO_TEXTS, Attendance, Outbox, dumps, sender, sse

HEARTBEAT_SECONDS = 15.0
# seconds: the least time between two pushes (at most 200 a second). A push is cheap when
# most streams get a patch made once (50 prisoners: ~0.6 ms of rendering and a few small
# writes): 0.02 s made the pace itself most of the fan-out's p99 (benchmarks/phones.py:
# ~28-33 ms at 0.02 against ~17-22 ms at 0.005, 50 phones; 200 phones stay well served).
PACE = 0.005

# How soon the streams must hear of a change: "urgent" within ``pace`` of the last push,
# "calm" within ``calm`` (it may wait for the changes after it), ``None``: not at all.
Urgency = Literal["urgent", "calm"] | None

M = TypeVar("M")
T = TypeVar("T")


def beat(seconds: float) -> bytes:
    """The heartbeat: an event the page sees (a comment would reach no script), telling how
    often it comes, so that a page finds a stream gone silent (two beats missed) and reopens it."""
    return sse("beat", dumps(seconds))


def moves(change: Change) -> bool:
    """Whether the streams may show anything new after ``change``: a change of the game (a
    command, an undo, a note) or a phone that came or went; no other signal."""
    return change.kind != "signal" or isinstance(change.signal, SeatPresence)


RETRY = b"retry: 2000\n\n"


class Push:
    """One push: the version every message of it carries (``moved``: whether the log grew
    since the last push, not only a phone that came or went) and what its messages share,
    made once (:meth:`memo`)."""

    __slots__ = ("moved", "version", "_made")

    def __init__(self, version: int, moved: bool) -> None:
        self.version = version
        self.moved = moved
        self._made: dict[Hashable, object] = {}

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, made once in this push for ``key`` (the view and the language)."""
        if key not in self._made:
            self._made[key] = make()
        return cast(T, self._made[key])

    def event(self, event: str, key: Hashable, data: Callable[[], str]) -> bytes:
        """The event ``event`` with the JSON text ``data()`` and this push's version as its id,
        encoded once in this push for ``key``."""
        return self.memo((event, key), lambda: sse(event, data(), self.version))


class Page(NamedTuple):
    """What one stream's page is now, as its game makes it at a push (see :func:`show`).

    ``key``: what its whole view is made of, its texts aside (compared with ``==``: an equal
    key, the same whole view; ``None``: never the same, such as a view whose countdown runs
    and is sent with the seconds left as of now); ``whole()``: that view's JSON text, made
    only when it is sent; ``texts``: the texts of it a patch may change, ``{element id:
    text}``; ``share``: the key under which the whole view is encoded once in the push for
    every stream that shows the same (``None``: its own)."""

    key: object
    whole: Callable[[], str]
    texts: Mapping[str, str] = NO_TEXTS
    share: Hashable | None = None


def show(push: Push, box: Outbox[M], page: Page | None) -> None:
    """Put into ``box`` what its page needs to show ``page`` (``None``: its seat is gone): the
    whole view when its key differs from the one the page shows; else a patch of the texts
    that differ (with a patch that waits unsent, of all the texts that differ from the page's
    before it, since the new one replaces it); else, when the log moved on, an empty patch,
    which moves the page's version on; else nothing. This is the one place where any game's
    stream is told what changed."""
    if page is None:
        box.end()
        return
    version = push.version
    if page.key is None or page.key != box.key:
        box.key, box.texts = page.key, page.texts
        if page.share is None:
            message = sse("view", page.whole(), version)
        else:
            message = push.event("view", page.share, page.whole)
        box.view(message, version)
        return
    base = box.base if box.patch_waits() else box.texts
    if page.texts is base:
        changed: tuple[tuple[str, str], ...] = ()
    else:
        changed = tuple((k, v) for k, v in page.texts.items() if base.get(k) != v)
    if not changed and version == box.shows and not box.patch_waits():
        return  # nothing new for this page
    box.base, box.texts = base, page.texts
    box.patch(push.event("patch", changed, lambda: dumps(dict(changed))), version)


class Fanout(Generic[M]):
    """A session's open streams by audience, and the pushes to them; see the module's
    docstring. ``urgency(change)``: how soon the streams must hear of a change;
    ``publish(push)``: put into the streams what each of them shows now. A change after a
    quiet spell (``calm`` since the last push) is pushed at once; else an urgent one within
    ``pace`` of the last push, and not before ``gather`` after it (so that the changes of one
    burst go out together), a calm one ``calm`` after the last push. ``version(session)``:
    the version every message carries (default: the log's, :func:`log_version`)."""

    def __init__(
        self,
        session: Session,
        urgency: Callable[[Change], Urgency],
        publish: Callable[[Push], None],
        *,
        pace: float = PACE,
        calm: float = PACE,
        gather: float = 0.0,
        version: Callable[[Session], int] = log_version,
    ) -> None:
        self.session = session
        self._version = version
        self.loop = asyncio.get_running_loop()
        self.audiences: dict[Hashable, set[Outbox[M]]] = {}
        self.streams = 0  # how many streams are open (of every audience)
        self.closing = False
        self.pace = pace
        self.calm = calm
        self.gather = gather
        self._urgency = urgency
        self._publish = publish
        self._pushed_at = -max(pace, calm)  # loop time of the last push
        self._pushed = self.version()  # the version the last push carried
        self._pending: asyncio.TimerHandle | None = None
        self._due = 0.0
        self._unsubscribe = session.subscribe(self._on_change)

    def version(self) -> int:
        """The version of the state now (every message's id: what its page shows)."""
        return self._version(self.session)

    def boxes(self) -> list[Outbox[M]]:
        """Every open stream's outbox."""
        return [box for boxes in self.audiences.values() for box in boxes]

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
        how = self._urgency(change)
        if how is None or self.closing:
            return
        now = self.loop.time()
        if now >= self._pushed_at + self.calm:  # quiet since the last push: at once
            due = now
        elif how == "urgent":  # soon, with what follows within ``gather``
            due = max(self._pushed_at + self.pace, now + self.gather)
        else:
            due = self._pushed_at + self.calm
        if self._pending is not None:
            if self._due <= due:  # a push is due sooner: it will carry this change
                return
            self._pending.cancel()
        self._due = due
        self._pending = self.loop.call_at(due, self.push)

    def push(self) -> None:
        """Put into every stream what it shows now (at once; a change is pushed by itself)."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self.closing:
            return
        self._pushed_at = self.loop.time()
        version = self.version()
        push = Push(version, version != self._pushed)
        self._pushed = version
        self._publish(push)

    # ---- streams ------------------------------------------------------------------------------

    def open(self, audience: Hashable, lang: Language, memory: M, shows: int | None) -> Outbox[M]:
        box = Outbox(audience, lang, memory, shows)
        self.audiences.setdefault(audience, set()).add(box)
        self.streams += 1
        return box

    def shut(self, box: Outbox[M]) -> None:
        boxes = self.audiences.get(box.audience)
        if boxes is not None and box in boxes:
            boxes.discard(box)
            self.streams -= 1
            if not boxes:
                del self.audiences[box.audience]

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self.closing = True
        self._unsubscribe()
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        for box in self.boxes():
            box.ready.set()


def last_event_id(request: web.Request) -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.query.get("last_event_id")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        return None


async def open_stream(request: web.Request) -> web.StreamResponse:
    """An event stream's response, its headers sent (never cached, never buffered by a
    proxy); for ``HEAD`` nothing more may be written to it. Counted as one of its address's
    streams while it lasts (refused in one sentence past the limit: :func:`claim_stream`)."""
    claim_stream(request)
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache, no-store",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    return response


async def serve(
    request: web.Request,
    fanout: Fanout[M],
    audience: Hashable,
    lang: Language,
    memory: M,
    first: Callable[[Outbox[M], Push], None],
    *,
    attendance: tuple[Attendance, str] | None = None,
    heartbeat: float | None = None,
    direct: bool = False,
) -> web.StreamResponse:
    """Serve one event stream of ``audience`` until the client leaves, its seat is gone or
    the server stops: ``first(box, push)`` puts the whole view in its outbox at once (unless
    the browser already shows this version), then it sends whatever the pushes put there.

    ``direct``: a push writes its message to the connection itself when nothing waits in the
    outbox and the connection's buffer is empty (a phone keeping up), instead of waking the
    stream's task to write it (a task woken per stream at every push was a third of a
    fan-out's own time); a phone that falls behind is written to by its task as before, the
    latest message only.

    A ``beat`` event goes out every ``heartbeat`` seconds (:data:`HEARTBEAT_SECONDS` when not
    given) whatever else is sent, so a phone that went away without a word is found out (its
    write fails) within that time, and a page whose stream went silent finds out too. With
    ``attendance`` (presence, seat), the seat counts as connected while this stream is open.
    """
    response = await open_stream(request)
    if request.method == "HEAD":  # headers only: a body here would corrupt the connection
        return response
    loop = asyncio.get_running_loop()
    seen = last_event_id(request)
    every = HEARTBEAT_SECONDS if heartbeat is None else heartbeat
    box = fanout.open(audience, lang, memory, seen)
    box.attend(attendance)
    # The heartbeat is one timer per beat that wakes the stream as a message would (not a
    # timeout per wait: ``asyncio.wait_for`` makes a task at each wait, one per stream at
    # every push).
    due = [False]

    def ring() -> None:
        due[0] = True
        box.ready.set()

    timer = loop.call_at(loop.time() + every, ring)
    try:
        await response.write(RETRY)  # with the headers: from now on the body alone
        if direct:
            box.send = sender(request)
        version = fanout.version()
        if seen != version:  # a whole view: what a push put meanwhile is no older
            first(box, Push(version, True))
        while not fanout.closing:
            if not box.ready.is_set():
                await box.ready.wait()
            if fanout.closing:
                break
            ended, message = box.ended, box.take()
            if message:
                await response.write(message)
            if ended:
                break
            if due[0]:
                due[0] = False
                await response.write(beat(every))
                timer = loop.call_at(loop.time() + every, ring)
    except ConnectionError:  # the phone went away; it reconnects by itself
        pass
    finally:  # also when the server stops and cancels the stream
        timer.cancel()
        fanout.shut(box)
        box.leave()
    return response
