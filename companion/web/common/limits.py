"""Limits per client, so that nobody in the room can stop a new phone from joining.

Anyone on the venue's Wi-Fi reaches the phone server. Without limits one device could hold
every file the process may open (a thousand event streams, or requests sent one byte at a
time) until no new phone could connect. Here, at the connection level (before any HTTP is
read), :class:`Gate` counts each remote address's connections and event streams:

- an address may hold at most ``connections`` connections (:data:`CONNECTIONS_PER_ADDRESS`)
  and ``streams`` event streams (:data:`STREAMS_PER_ADDRESS`, see :func:`claim_stream`):
  enough for a household behind one router with several phones and a couple of boards. The
  laptop itself (``exempt``: 127.0.0.1 and ::1, where a local tunnel for ``--public-url`` or
  the benchmarks' simulated phones come from; nobody on the Wi-Fi does) is not capped so, but
  still counts for the reserve below;
- a request must arrive whole, its headers and its body, within ``read_seconds``
  (:data:`READ_SECONDS`) of its first byte (or of the connection's opening); a half-sent
  request, or a ``Content-Length`` never sent, is closed then;
- the process's soft limit on open files is raised to its hard limit (:func:`raise_file_limit`),
  and ``reserve`` files (:data:`RESERVE_FILES`) are kept free: when the connections reach what
  remains, a new connection from an address with fewer connections than the busiest one is
  served, and one of the busiest address's connections (a stream first) is closed instead;
- malformed HTTP (an unknown method, headers too large, a broken request line) is answered with
  one sentence (:data:`MALFORMED`) and the security headers, never with what was sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest

from companion.language import N_, Language, language
from companion.web.common.context import Problem
from companion.web.common.language import phone_language
from companion.web.common.rendering import SECURITY_HEADERS

try:
    import resource
except ImportError:  # Windows: no resource module, the system's own limits stand
    resource = None  # type: ignore[assignment]

CONNECTIONS_PER_ADDRESS = 64  # open connections one remote address may hold at once
STREAMS_PER_ADDRESS = 16  # event streams (live pages and boards) one address may hold at once
READ_SECONDS = 12.0  # a request's headers and body must arrive within this, from its first byte
IDLE_SECONDS = 75.0  # an idle keep-alive connection is closed after this
# connections the server accepts at once before it can look at them (the listen backlog)
BACKLOG = 128
# open files kept free: a burst of accepted connections not yet looked at, and 64 for the
# session file, the templates, the static files and the console
RESERVE_FILES = BACKLOG + 64

MALFORMED = N_("That request is not one this server understands; scan the QR code again.")
TOO_MANY_STREAMS = N_(
    "Too many live pages are open on this device; close some of them, then reload this one."
)


@dataclass(frozen=True)
class Limits:
    """The limits a phone server keeps (see the module's description)."""

    connections: int = CONNECTIONS_PER_ADDRESS
    streams: int = STREAMS_PER_ADDRESS
    read_seconds: float = READ_SECONDS
    idle_seconds: float = IDLE_SECONDS
    reserve: int = RESERVE_FILES
    exempt: frozenset[str] = frozenset({"127.0.0.1", "::1"})


def raise_file_limit() -> int | None:
    """Raise this process's soft limit on open files to its hard limit; the soft limit now
    (``None`` where the system has no such limit to read, as on Windows)."""
    if resource is None:
        return None
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
            with contextlib.suppress(ValueError, OSError):  # macOS caps it below "unlimited"
                resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ValueError, OSError):
        return None
    return None if soft == resource.RLIM_INFINITY else int(soft)


def open_files() -> int | None:
    """How many files this process has open now (``None`` where the system does not say)."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            return len(os.listdir(folder))
    return None


class Gate:
    """Every open connection of a phone server, by remote address."""

    def __init__(self, limits: Limits, budget: int | None = None) -> None:
        self.limits = limits
        self.budget = budget  # the most connections at once (None: no file limit known)
        self._by_address: dict[str, set[GuardedHandler]] = {}
        self.total = 0

    @classmethod
    def for_this_process(cls, limits: Limits) -> Gate:
        """A gate whose budget is what the process's file limit (raised) leaves, less the
        files open now and the reserve."""
        soft = raise_file_limit()
        if soft is None:
            return cls(limits)
        held = open_files() or 32
        return cls(limits, max(8, soft - held - limits.reserve))

    def connections(self, address: str) -> int:
        return len(self._by_address.get(address, ()))

    def streams(self, address: str) -> int:
        return sum(1 for c in self._by_address.get(address, ()) if c.streaming)

    def admit(self, handler: GuardedHandler) -> bool:
        """Whether a new connection is served; if so it is counted (see :meth:`leave`)."""
        address = handler.address
        mine = self.connections(address)
        if mine >= self.limits.connections and address not in self.limits.exempt:
            return False
        if self.budget is not None and self.total >= self.budget:
            busiest = max(self._by_address, key=self.connections, default=None)
            if busiest is None or self.connections(busiest) <= mine:
                return False
            victims = self._by_address[busiest]
            victim = next((c for c in victims if c.streaming), None) or next(iter(victims))
            victim.shed()
        self._by_address.setdefault(address, set()).add(handler)
        self.total += 1
        return True

    def leave(self, handler: GuardedHandler) -> None:
        held = self._by_address.get(handler.address)
        if held is not None and handler in held:
            held.discard(handler)
            self.total -= 1
            if not held:
                del self._by_address[handler.address]


def _sentence_language(request: BaseRequest) -> Language:
    """The phone's language for a request the server could not read (English if unknown)."""
    try:
        return phone_language(request)
    except Exception:  # noqa: BLE001 - a broken request's headers may be anything
        return language()


class GuardedHandler(RequestHandler):
    """aiohttp's connection handler, counted by a :class:`Gate`, with a deadline for reading
    each request, and malformed HTTP answered in one sentence."""

    def __init__(self, manager: web.Server, *, gate: Gate, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self.gate = gate
        self.address = ""
        self.streaming = False
        self._admitted = False
        self._deadline: asyncio.TimerHandle | None = None
        self._armed_at_count = 0
        self._head_started = False  # bytes of a request whose headers are not whole yet
        self._payload: Any = None  # the latest request's body as it arrives

    # ---- counting ---------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
        if not self.gate.admit(self):
            cast(asyncio.Transport, transport).abort()  # before any HTTP is read
            return
        self._admitted = True
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: BaseException | None) -> None:
        self._disarm()
        if self._admitted:
            self._admitted = False
            self.gate.leave(self)
        super().connection_lost(exc)

    def shed(self) -> None:
        """Close this connection now (its address holds the most when files run low)."""
        self.gate.leave(self)
        self._admitted = False
        if self.transport is not None:
            self.transport.abort()

    # ---- the deadline for reading a request -------------------------------------------

    def _arm(self) -> None:
        self._disarm()
        self._armed_at_count = self._request_count
        self._deadline = self._loop.call_later(self.gate.limits.read_seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self.transport is None:
            return
        if self._request_count == self._armed_at_count and not self._request_in_progress:
            if self._request_count == 0 or self._head_started:
                self.transport.abort()  # its headers never came whole
            return  # an idle keep-alive connection: aiohttp's own idle timeout closes it
        if self._payload is not None and not self._payload.is_eof():
            self.transport.abort()  # its body never came whole

    def data_received(self, data: bytes) -> None:
        before = self._request_count
        super().data_received(data)
        if self._request_count > before:  # a request's headers came whole
            self._head_started = False
            if self._messages:
                self._payload = self._messages[-1][1]
        elif self._deadline is None and (self._payload is None or self._payload.is_eof()):
            self._head_started = True  # the first bytes of the next request
            self._arm()
        else:
            self._head_started = self._payload is None or self._payload.is_eof()

    # ---- malformed HTTP, and which requests are streams -------------------------------

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """One sentence for a request aiohttp could not read or answer, never an echo."""

        if request.writer.output_size > 0:
            raise ConnectionError("Response is sent already")
        code = status if 400 <= status < 500 else 400 if status < 500 else status
        text = _sentence_language(request)(MALFORMED)
        response = web.Response(
            status=code,
            text=text,
            content_type="text/plain",
            headers={**SECURITY_HEADERS, "Cache-Control": "no-store"},
        )
        response.force_close()
        return response

    async def _handle_request(
        self,
        request: BaseRequest,
        start_time: float | None,
        request_handler: Callable[[BaseRequest], Awaitable[web.StreamResponse]],
    ) -> tuple[web.StreamResponse, bool]:
        try:
            return await super()._handle_request(request, start_time, request_handler)
        finally:
            self.streaming = False
            if self._payload is not None and self._payload.is_eof():
                self._payload = None
            self._head_started = False
            if self._deadline is None and not self._force_close:
                self._arm()  # the next request (if any) must come whole in time too


class GuardedServer(web.Server):
    """aiohttp's server, its connections made by :class:`GuardedHandler` for a gate."""

    def __init__(self, *args: Any, gate: Gate, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = gate

    def __call__(self) -> RequestHandler:
        return GuardedHandler(self, loop=self._loop, gate=self.gate, **self._kwargs)


class GuardedRunner(web.AppRunner):
    """An application runner whose connections pass through a :class:`Gate`."""

    def __init__(self, app: web.Application, gate: Gate, **kwargs: Any) -> None:
        super().__init__(app, keepalive_timeout=gate.limits.idle_seconds, **kwargs)
        self.gate = gate

    async def _make_server(self) -> web.Server:
        plain = await super()._make_server()
        return GuardedServer(
            plain.request_handler,
            request_factory=plain.request_factory,
            handler_cancellation=plain.handler_cancellation,
            gate=self.gate,
            **plain._kwargs,
        )


def claim_stream(request: web.Request) -> None:
    """Count ``request`` as an event stream of its address until it ends; refused (429, one
    sentence) when the address already holds as many as it may."""
    handler = request.protocol
    if not isinstance(handler, GuardedHandler):
        return  # a test's own server: no gate
    gate = handler.gate
    if handler.address not in gate.limits.exempt and (
        gate.streams(handler.address) >= gate.limits.streams
    ):
        raise Problem(429, TOO_MANY_STREAMS)
    handler.streaming = True
