"""Live updates: the session tells the hub that something changed; every open stream wakes,
builds its own seat's view afresh and sends it as a server-sent event: the whole view (event
``view``), or, when only a few texts of what the stream sent before changed, those texts alone
(event ``patch``: ``{element id: text}``, see :class:`Patch`).

An event's id is the number of the session's latest log row when its message was made (the
version of what it shows, :func:`log_version`), so a browser that reconnects with
``Last-Event-ID`` gets the current view at once if it missed anything, and nothing otherwise;
and a page that keeps the version it shows drops anything older that reaches it late (the
pages and parts carry the same version: ``context.VERSION_HEADER``, ``data-version``).
Presence signals (``kind == "signal"``) are not changes of the game and wake nobody; a
stream counts its seat as connected while it is open (see ``Presence``).

Wakes are coalesced: the first change after a quiet spell wakes the streams at once; changes
that follow within ``PACE`` seconds of a wake wake them together at the end of that spell, so
a burst of POSTs costs every stream one view, not one per POST. The last change is never
dropped: a wake always publishes the log's latest row, and every stream then builds its view
from the session as it is. Nothing is published that is not committed (the session tells the
hub after its commit).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from aiohttp import web

from companion.session.presence import SeatPresence
from companion.session.session import Change, Session
from companion.web.common.context import log_version
from companion.web.common.limits import claim_stream

HEARTBEAT_SECONDS = 15.0
# seconds: the least time between two wakes of the streams (at most 200 a second). A wake is
# cheap now that most streams send a patch made once (50 phones: ~0.6 ms of rendering and a
# few small writes): 0.02 s made the pace itself most of the fan-out's p99 (benchmarks/phones.py:
# ~28-33 ms at 0.02 against ~17-22 ms at 0.005, 50 phones; 200 phones stay well served).
PACE = 0.005


class Hub:
    """Wakes every waiting stream when the session's log grows."""

    def __init__(self, session: Session, pace: float = PACE) -> None:
        self.session = session
        self.loop = asyncio.get_running_loop()
        self.version = self._latest()  # the latest row the streams were woken for
        self.pulse = 0  # counts presence changes, which some streams show (the board's count)
        self.closing = False
        self.pace = pace
        self._wake = asyncio.Event()
        self._woke = -pace  # loop time of the last wake
        self._pending: asyncio.TimerHandle | None = None
        self._presence = False  # a presence change waits for the pending wake
        self._unsubscribe = session.subscribe(self._on_change)

    def _latest(self) -> int:
        return log_version(self.session)

    def _on_change(self, session: Session, change: Change) -> None:
        if change.kind == "signal" and not isinstance(change.signal, SeatPresence):
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            self._bump()
        else:  # told from another thread: hand over to the server's loop
            self.loop.call_soon_threadsafe(self._bump)

    def _bump(self) -> None:
        """Wake the streams now, or at the end of the pace if they were woken just now."""
        if self._latest() == self.version:  # a phone came or went: the log did not grow
            self._presence = True
        if self._pending is not None:  # a wake is due soon: it will see this change
            return
        due = self._woke + self.pace
        if self.closing or self.loop.time() >= due:
            self._publish()
        else:
            self._pending = self.loop.call_at(due, self._publish)

    def _publish(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self._woke = self.loop.time()
        latest = self._latest()
        if self._presence or latest == self.version:
            self.pulse += 1
        self._presence = False
        self.version = latest
        wake, self._wake = self._wake, asyncio.Event()
        wake.set()

    async def wait(self, since: int, timeout: float, pulse: int | None = None) -> int:
        """Wait until the version differs from ``since`` (or the pulse from ``pulse``), or
        the timeout; the version now."""
        if self.version == since and pulse in (None, self.pulse) and not self.closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)
        return self.version

    def close(self) -> None:
        """Wake every stream so that it ends (the server is stopping)."""
        self.closing = True
        self._unsubscribe()
        self._publish()


def last_event_id(request: web.Request) -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.query.get("last_event_id")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        return None


def sse_message(event: str, data: Any, event_id: int | None = None) -> bytes:
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return ("\n".join(lines) + "\n\n").encode()


@dataclass(frozen=True, eq=False)
class Patch:
    """What a stream sends when only some texts of its page changed since its last message:
    ``json``, the JSON text of ``{element id: new text}`` (made once and shared by every
    stream that shows the same, in the same language), sent as a ``patch`` event that the
    page applies to the part it holds. ``Patch.NONE`` changes nothing: the stream's id moves
    on to the new version (its page is as of now)."""

    json: str
    NONE: ClassVar[Patch]


Patch.NONE = Patch("{}")


class Attendance(Protocol):
    """What a stream tells about its seat: opened when it starts, closed when it ends."""

    def opened(self, seat: str) -> None: ...

    def closed(self, seat: str) -> None: ...


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


async def stream(
    request: web.Request,
    hub: Hub,
    payload: Callable[[], dict[str, Any] | str | Patch | None],
    *,
    attendance: tuple[Attendance, str] | None = None,
    heartbeat: float = HEARTBEAT_SECONDS,
) -> web.StreamResponse:
    """Serve one event stream until the client leaves, the seat is gone or the server stops.

    ``payload()`` builds the current message (``None``: the seat no longer exists), as data or
    as its JSON text already (a game may encode the part every stream shares once); when it
    returns the very object it returned last time (nothing this stream shows has changed), the
    text already encoded is sent again under the new id. A :class:`Patch` is sent as a
    ``patch`` event, and only when the game moved (never for a phone coming or going); the
    stream's first message is never a patch (``payload`` must give the whole view first).

    A comment goes out every ``heartbeat`` seconds whatever else is sent, so a phone that went
    away without a word is found out (its write fails) within that time. With ``attendance``
    (presence, seat), the seat counts as connected while this stream is open.
    """
    response = await open_stream(request)
    if request.method == "HEAD":  # headers only: a body here would corrupt the connection
        return response
    seen = last_event_id(request)
    sent: dict[str, Any] | str | Patch | None = None
    encoded = ""
    loop = asyncio.get_running_loop()
    if attendance is not None:
        attendance[0].opened(attendance[1])
    try:
        await response.write(b"retry: 2000\n\n")
        beat_due = loop.time() + heartbeat
        pulse = hub.pulse
        while not hub.closing:
            version = hub.version
            if version != seen or pulse != hub.pulse:
                moved = version != seen
                pulse = hub.pulse
                data = payload()
                shows = log_version(hub.session)  # what ``data`` was made from, as its id
                if data is None:
                    await response.write(sse_message("gone", {}))
                    break
                if isinstance(data, Patch):
                    if moved:
                        patch = f"event: patch\nid: {shows}\ndata: {data.json}\n\n"
                        await response.write(patch.encode())
                        seen = version
                    continue
                if data is not sent:
                    encoded = (
                        data
                        if isinstance(data, str)
                        else json.dumps(data, ensure_ascii=False, separators=(",", ":"))
                    )
                    sent = data
                elif not moved:  # a phone came or went, and this stream shows nothing of it
                    continue
                message = f"event: view\nid: {shows}\ndata: {encoded}\n\n"
                await response.write(message.encode())
                seen = version
            wait = beat_due - loop.time()
            if wait > 0:
                await hub.wait(seen if seen is not None else -1, wait, pulse)
            if loop.time() >= beat_due and not hub.closing:
                await response.write(b": still here\n\n")
                beat_due = loop.time() + heartbeat
    except ConnectionError:  # the phone went away; it reconnects by itself
        pass
    finally:  # also when the server stops and cancels the stream
        if attendance is not None:
            attendance[0].closed(attendance[1])
    return response
