"""One event stream's messages and its outbox (what :mod:`companion.web.common.fanout` pushes
into, and each stream's task sends).

Every message is a server-sent event (:func:`sse`, the one encoder): ``view`` (the whole
view), ``patch`` (``{element id: text}``: a few texts of the page the stream showed) or
``gone`` (the seat no longer exists); which one a stream is sent, for every game, is decided by
:func:`companion.web.common.fanout.show` from what the outbox keeps of its page. An
:class:`Outbox` keeps only the latest message, so a slow phone gets the newest page and never a
backlog; a stream served ``direct`` is written to at once while its phone keeps up
(:func:`sender`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Hashable, Mapping
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar

from aiohttp import HttpVersion11, web

from companion.language import Language

M = TypeVar("M")


def dumps(data: Any) -> str:
    """``data`` as compact JSON text (what an event's ``data`` line holds)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def sse(event: str, data: str, version: int | None = None) -> bytes:
    """One server-sent event: ``event`` with the JSON text ``data``, its id ``version``."""
    head = f"event: {event}\n" if version is None else f"event: {event}\nid: {version}\n"
    return (head + "data: " + data + "\n\n").encode()


GONE = sse("gone", "{}")

UNSEEN = object()  # the key of a stream that was sent no whole view yet (equal to no page's)
NO_TEXTS: Mapping[str, str] = MappingProxyType({})


class Outbox(Generic[M]):
    """One open stream's next message, latest only: a whole view replaces whatever waits
    unsent; a patch replaces an unsent patch (``fanout.show`` makes it say all that the one it
    replaces said) and follows an unsent view, never in place of it. ``shows``: the version of
    what the stream sent last (its page shows that); ``key``, ``texts``: what its page shows
    (see ``fanout.show``). ``memory``: what the game keeps of the stream besides (its seat,
    its page's tab)."""

    __slots__ = (
        "attendance", "audience", "base", "ended", "key", "lang", "memory", "ready", "send",
        "shows", "texts", "_patch", "_view",
    )

    def __init__(self, audience: Hashable, lang: Language, memory: M, shows: int | None) -> None:
        self.audience = audience
        self.lang = lang
        self.memory = memory
        self.shows = shows
        self.ended = False
        self.attendance: tuple[Attendance, str] | None = None
        self.ready = asyncio.Event()
        # ``send(message)``: writes a message at once if its connection takes it without
        # waiting (else False); set by a stream served ``direct`` (see :func:`serve`)
        self.send: Callable[[bytes], bool] | None = None
        self._view: bytes | None = None
        self._patch: bytes | None = None
        # What the page shows once what waits is sent (kept by ``fanout.show``): the key of
        # its whole view (``UNSEEN``: none yet) and its texts a patch may change; ``base``,
        # its texts before the patch that waits (a patch in its place says all it changed).
        self.key: object = UNSEEN
        self.texts: Mapping[str, str] = NO_TEXTS
        self.base: Mapping[str, str] = NO_TEXTS

    def _sent(self, message: bytes) -> bool:
        """Whether ``message`` went out at once: nothing waits before it, and the connection
        took it (the stream's task is not woken for it)."""
        return (
            self.send is not None and self._view is None and self._patch is None
            and not self.ready.is_set() and self.send(message)
        )

    def view(self, message: bytes, version: int) -> None:
        self.shows = version
        if not self._sent(message):
            self._view, self._patch = message, None
            self.ready.set()

    def patch(self, message: bytes, version: int) -> None:
        self.shows = version
        if not self._sent(message):
            self._patch = message
            self.ready.set()

    def patch_waits(self) -> bool:
        """Whether a patch waits unsent (a new one replaces it)."""
        return self._patch is not None

    def end(self, message: bytes = GONE) -> None:
        """The last message: the stream ends once it is sent (its seat no longer counts as
        connected from now on, so that the views made after it in the same push know)."""
        self._view, self._patch, self.ended = message, None, True
        self.ready.set()
        self.leave()

    def attend(self, attendance: tuple[Attendance, str] | None) -> None:
        """Count the seat of ``attendance`` (presence, seat) as connected until :meth:`leave`."""
        self.attendance = attendance
        if attendance is not None:
            attendance[0].opened(attendance[1])

    def leave(self) -> None:
        if self.attendance is not None:
            presence, seat = self.attendance
            self.attendance = None
            presence.closed(seat)

    def take(self) -> bytes:
        """What waits, whole views and patches in order (empty: nothing)."""
        message = (self._view or b"") + (self._patch or b"")
        self._view = self._patch = None
        self.ready.clear()
        return message


class Attendance(Protocol):
    """What a stream tells about its seat: opened when it starts, closed when it ends."""

    def opened(self, seat: str) -> None: ...

    def closed(self, seat: str) -> None: ...


def sender(request: web.Request) -> Callable[[bytes], bool]:
    """What writes a message to ``request``'s connection at once when its buffer is empty
    (framed as a chunk, as aiohttp frames a body of unknown length over HTTP/1.1)."""
    transport = request.transport
    framed = request.version >= HttpVersion11

    def send(message: bytes) -> bool:
        if transport is None or transport.is_closing() or transport.get_write_buffer_size():
            return False
        transport.write(b"%x\r\n%b\r\n" % (len(message), message) if framed else message)
        return True

    return send
