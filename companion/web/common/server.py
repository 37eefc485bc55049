"""What every game's phone server is built on: an aiohttp application with the one-sentence
error pages, the security headers, the static files and the game's live updates (its
:class:`~companion.web.common.fanout.Fanout`), listening inside any asyncio loop (the
console's, or its own for ``companion serve``).

There is no access log: links carry secret tokens, and nothing secret is written to logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Protocol

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from companion.language import N_
from companion.session.session import Session
from companion.session.store import StoreError
from companion.session.wifi import wifi_of
from companion.web.common.address import base_url
from companion.web.common.context import MAX_BODY, NOT_FOUND, Problem
from companion.web.common.desk import Desk, add_desk
from companion.web.common.favicon import favicon
from companion.web.common.guard import host_middleware, origin_middleware
from companion.web.common.language import current, warm_languages
from companion.web.common.limits import BACKLOG, Gate, GuardedRunner, Limits
from companion.web.common.preflight import PROBE, Probe, add_check_routes
from companion.web.common.rendering import PRIVATE_HEADERS, SECURITY_HEADERS, qr_svg

_log = logging.getLogger("companion.web")
_STATUS_WORDS = {
    400: N_("The request is not understood; reload the page and try again."),
    405: N_("That action is not possible at this address; reload the page."),
    413: N_("The request is larger than %(size)s KiB; send less."),
}


class Live(Protocol):
    """A game's live updates while its server runs (its fan-out): closed as it stops."""

    def close(self) -> None: ...


def error_middleware(page: Callable[[int, str], web.StreamResponse]) -> Middleware:
    """Every error as one sentence, in the request's language (:func:`current`): JSON
    ``{"error": ...}`` under ``/api/``, else ``page`` (status, sentence); the status is the same
    in every language. An unexpected failure is logged by route and type only, never by
    path (links carry tokens)."""

    def answer(request: web.Request, status: int, message: str) -> web.StreamResponse:
        if request.path.startswith("/api/"):
            return web.json_response({"error": message}, status=status)
        return page(status, message)

    def failed(request: web.Request, error: Exception) -> web.StreamResponse:
        route = request.match_info.route.resource
        where = route.canonical if route is not None else "?"
        _log.error(
            "The phone server failed on %s %s: %s", request.method, where, type(error).__name__
        )
        return answer(
            request, 500, current()(N_("Something went wrong on the laptop; try again."))
        )

    @web.middleware
    async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response: web.StreamResponse = await handler(request)
        except Problem as problem:
            response = answer(request, problem.status, problem.text(current()))
        except web.HTTPNotFound:
            response = answer(request, 404, current()(NOT_FOUND))
        except web.HTTPException as error:
            if error.status < 400:  # a redirect: with the headers of every other answer
                for key, value in SECURITY_HEADERS.items():
                    error.headers.setdefault(key, value)
                raise
            message = _STATUS_WORDS.get(error.status, N_("That did not work; reload the page."))
            response = answer(request, error.status, current()(message, size=MAX_BODY // 1024))
        except StoreError as error:
            response = answer(request, 503, str(error))
        except ConnectionError:  # the phone went away mid-answer: nobody to tell, nothing to log
            raise
        except OSError as error:
            if not request.path.startswith("/static/"):
                response = failed(request, error)
            else:  # a file name the system refuses (too long)
                response = answer(request, 404, current()(NOT_FOUND))
        except Exception as error:  # noqa: BLE001 - one sentence for the phone
            response = failed(request, error)
        if not response.prepared:
            for key, value in SECURITY_HEADERS.items():
                response.headers.setdefault(key, value)
        return response

    return errors


def static_dir(package: str) -> Path:
    """The ``static`` folder of a package of this face."""
    return Path(str(resources.files(package) / "static"))


def phone_app(
    session: Session, live: Callable[[], Live], errors: Middleware, static: Path | None = None
) -> web.Application:
    """An application with the error middleware, the refusal of a name that is not the
    laptop's and of writes from other sites'
    pages (inside it, so refused in one sentence), the static files under ``/static`` (the
    game's own folder ``static``, then the common one), ``/favicon.ico``, the venue's Wi-Fi
    as a QR code for the board (``/wifi.svg``, while the session keeps one), the venue
    preflight's test page
    (``/check``, :mod:`~companion.web.common.preflight`), and the game's live updates:
    ``live()`` starts them in the running loop as the server starts; closed as it stops."""

    def public_url() -> str | None:
        pinned = session.settings.get("public_url")
        return str(pinned) if pinned else None

    app = web.Application(
        middlewares=[errors, host_middleware(public_url), origin_middleware(public_url)],
        client_max_size=MAX_BODY,
    )

    started: list[Live] = []

    async def on_startup(app: web.Application) -> None:
        started.append(live())

    async def on_shutdown(app: web.Application) -> None:
        while started:
            started.pop().close()

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    for path in sorted(static.iterdir()) if static is not None else []:
        app.router.add_get(f"/static/{path.name}", _file(path))
    app.router.add_static("/static", static_dir("companion.web.common"), append_version=False)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_get("/wifi.svg", _wifi_code(session))
    add_check_routes(app)  # the venue preflight's test page, on the phones' very port
    return app


def _wifi_code(session: Session) -> Handler:
    """The board's "join the Wi-Fi" code, read from the session at each request (never
    cached): only this image carries the password, never a page's text."""

    async def send(request: web.Request) -> web.StreamResponse:
        wifi = wifi_of(session)
        if wifi is None:
            raise web.HTTPNotFound()
        svg = qr_svg(wifi.payload(), scalable=True)
        return web.Response(text=svg, content_type="image/svg+xml", headers=PRIVATE_HEADERS)

    return send


def _file(path: Path) -> Handler:
    async def send(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(path)

    return send


_frozen: list[bool] = []


def _freeze_once() -> None:
    """What the server holds at its start (modules, templates, the log's states) left out of
    the collector's full passes, once a process: benchmarks/phones.py's fan-out p99 at 50
    phones is about 16 ms with it, 27 ms without."""
    if not _frozen:
        _frozen.append(True)
        gc.collect()
        gc.freeze()


class PhoneServer:
    """A running phone server; ``base_url`` is what the links are built on."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, base: str) -> None:
        self._runner = runner
        self.host = host
        self.port = port
        self.base_url = base

    @property
    def probe(self) -> Probe:
        """The visits to its venue preflight's test page (``/check``)."""
        return self._runner.app[PROBE]

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await self._runner.cleanup()


async def listen(
    session: Session,
    app: web.Application,
    host: str,
    port: int,
    public_url: str | None,
    limits: Limits | None = None,
    desk: Desk | None = None,
) -> tuple[web.AppRunner, int, str]:
    """Serve ``app`` on ``host:port`` inside the running loop (port 0: any free port), each
    remote address within ``limits`` (:mod:`companion.web.common.limits`; the process's file
    limit raised to its hard limit).

    Returns the runner, the port it bound and the base its links use: ``public_url`` if given
    (it is pinned in the session), else a pinned one, else this laptop's address.
    ``served_url`` and ``served_on`` (host and port) in the session record where it listened.
    With ``desk``, the game master's desk is served too (the night's server).
    Raises ``OSError`` when the port cannot be used.
    """
    asyncio.get_running_loop()
    if desk is not None:
        add_desk(app, desk)
        desk.listen_to(app)
    warm_languages()  # before the first phone, not while it waits
    _freeze_once()
    if public_url:
        public_url = public_url.rstrip("/")
        session.set("public_url", public_url)
    pinned = public_url or session.settings.get("public_url")
    gate = Gate.for_this_process(limits or Limits())
    runner = GuardedRunner(
        app, gate, access_log=None, shutdown_timeout=2.0, handle_signals=False
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port, reuse_address=True, backlog=BACKLOG)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    bound = port
    server = getattr(site, "_server", None)
    if server is not None and server.sockets:
        bound = int(server.sockets[0].getsockname()[1])
    served = base_url(host, bound)
    session.set("served_url", served)
    session.set("served_on", {"host": host, "port": bound})
    base = str(pinned).rstrip("/") if pinned else served
    return runner, bound, base
