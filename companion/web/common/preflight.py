"""The venue preflight's test page: before the game, the game master opens it on a phone to
learn whether the players' phones will reach this laptop (``companion check-network``, and a
key on the prison break's Seats screen and in the warm-up's console).

``/check`` is a tiny page that says it reached the laptop, in the phone's language; its script
(``/static/check.js``; the policy forbids inline scripts) at once asks ``/check/reached`` with
the page's one-time token, and the laptop times the round trip from serving the page to that
request: the :class:`Probe` tells its listeners "reached from 192.168.1.23 in 40 ms" and the
page shows the same. Every phone server has these routes (:func:`add_check_routes`), so the
consoles test the very port the phones will use; :func:`start_check_server` serves them alone,
on the port the game will use, when no phone server runs.
"""

from __future__ import annotations

import ipaddress
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from aiohttp import web
from aiohttp.typedefs import Handler

from companion.web.common.language import phone_language
from companion.web.common.rendering import (
    PRIVATE_HEADERS,
    SECURITY_HEADERS,
    html,
    make_environment,
    render,
)

CHECK_PATH = "/check"
_KEEP = 256  # pages served and not yet answered, kept for their round trip


@dataclass(frozen=True)
class Reached:
    """A phone (or any client) opened the test page: its address and the round trip."""

    address: str
    ms: int


Listener = Callable[[Reached], None]


class Probe:
    """The test page's visits: the pages served (token -> when) and who reached the laptop,
    told to every listener as it happens (in the server's loop)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.reached: list[Reached] = []
        self._served: dict[str, float] = {}
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Tell ``listener`` of each visit from now on; returns what stops that."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def served(self) -> str:
        """A page is served: its one-time token, timed from now."""
        while len(self._served) >= _KEEP:
            self._served.pop(next(iter(self._served)))
        token = secrets.token_urlsafe(12)
        self._served[token] = self.clock()
        return token

    def arrived(self, token: str, address: str) -> Reached | None:
        """The page's script asked back with ``token``: the visit, or ``None`` for a token
        this probe did not serve (or already heard)."""
        start = self._served.pop(token, None)
        if start is None:
            return None
        visit = Reached(address, max(0, round((self.clock() - start) * 1000)))
        self.reached.append(visit)
        for listener in list(self._listeners):
            listener(visit)
        return visit


PROBE = web.AppKey("preflight_probe", Probe)
_ENV = make_environment("companion.web.common")


def add_check_routes(app: web.Application, probe: Probe | None = None) -> Probe:
    """Add the test page to ``app`` (a phone server's, or the check's own); returns its probe."""
    probe = probe or Probe()
    app[PROBE] = probe
    app.router.add_get(CHECK_PATH, _page)
    app.router.add_get(f"{CHECK_PATH}/reached", _reached)
    return probe


async def _page(request: web.Request) -> web.Response:
    token = request.app[PROBE].served()
    text = render(_ENV, "check.html", phone_language(request), token=token)
    return html(text)


async def _reached(request: web.Request) -> web.Response:
    visit = request.app[PROBE].arrived(request.query.get("t", ""), request.remote or "?")
    if visit is None:
        return web.json_response(
            {"error": "This test page is old; reload it."}, status=404, headers=PRIVATE_HEADERS
        )
    # here: opened on this laptop itself, which says nothing about the phones
    body = {"address": visit.address, "ms": visit.ms, "here": _loopback(visit.address)}
    return web.json_response(body, headers=PRIVATE_HEADERS)


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    response = await handler(request)
    for key, value in SECURITY_HEADERS.items():
        response.headers.setdefault(key, value)
    return response


class CheckServer:
    """The test page served alone (no phone server runs): its probe, port and address."""

    def __init__(self, runner: web.AppRunner, probe: Probe, port: int) -> None:
        self._runner = runner
        self.probe = probe
        self.port = port

    async def close(self) -> None:
        await self._runner.cleanup()


async def start_check_server(host: str, port: int) -> CheckServer:
    """Serve the test page alone on ``host:port`` in the running loop (port 0: any free one).
    Raises ``OSError`` when the port cannot be opened."""
    app = web.Application(middlewares=[_headers])
    probe = add_check_routes(app)
    static = Path(str(resources.files("companion.web.common") / "static"))
    app.router.add_static("/static", static, append_version=False)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port, reuse_address=True)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    bound = port
    server = getattr(site, "_server", None)
    if server is not None and server.sockets:
        bound = int(server.sockets[0].getsockname()[1])
    return CheckServer(runner, probe, bound)
