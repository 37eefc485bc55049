"""The phone server: an aiohttp application that runs inside any asyncio loop (the console's,
or its own for ``companion serve``).

There is no access log: links carry secret tokens, and nothing secret is written to logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from companion.session.links import DEFAULT_PORT
from companion.session.store import StoreError
from companion.web.common.address import base_url
from companion.web.common.context import NOT_FOUND, PHONES, Limiter, Phones, Presence, Problem
from companion.web.common.events import Hub
from companion.web.prison import api, pages

_log = logging.getLogger("companion.web")
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_STATUS_WORDS = {
    400: "The request is not understood; reload the page and try again.",
    405: "That action is not possible at this address; reload the page.",
    413: "The request is larger than 4 KiB; send less.",
}


def error_middleware(page: Callable[[int, str], web.StreamResponse]) -> Any:
    """Every error as one sentence: JSON ``{"error": ...}`` under ``/api/``, else ``page``
    (status, sentence). An unexpected failure is logged by route and type only, never by
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
        return answer(request, 500, "Something went wrong on the laptop; try again.")

    @web.middleware
    async def errors(request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            response: web.StreamResponse = await handler(request)
        except Problem as problem:
            response = answer(request, problem.status, problem.message)
        except web.HTTPNotFound:
            response = answer(request, 404, NOT_FOUND)
        except web.HTTPException as error:
            if error.status < 400:
                raise
            message = _STATUS_WORDS.get(error.status, "That did not work; reload the page.")
            response = answer(request, error.status, message)
        except StoreError as error:
            response = answer(request, 503, str(error))
        except OSError as error:
            if not request.path.startswith("/static/"):
                response = failed(request, error)
            else:  # a file name the system refuses (too long)
                response = answer(request, 404, NOT_FOUND)
        except Exception as error:  # noqa: BLE001 - one sentence for the phone
            response = failed(request, error)
        if not response.prepared:
            for key, value in SECURITY_HEADERS.items():
                response.headers.setdefault(key, value)
        return response

    return errors


_errors = error_middleware(lambda status, message: pages.problem_page(Problem(status, message)))


def _static_dir() -> Path:
    return Path(str(resources.files("companion.web.common") / "static"))


def phone_app(session: Any, holder: Any, errors: Any) -> web.Application:
    """An application with the error middleware, the static files, and the session's event
    hub on ``holder.hub`` while it runs."""
    app = web.Application(middlewares=[errors], client_max_size=api.MAX_BODY)

    async def on_startup(app: web.Application) -> None:
        holder.hub = Hub(session)

    async def on_shutdown(app: web.Application) -> None:
        if holder.hub is not None:
            holder.hub.close()

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.router.add_static("/static", _static_dir(), append_version=False)
    return app


def build_app(
    session: Any,
    *,
    base: str | None = None,
    limiter: Limiter | None = None,
    presence_every: float = 5.0,
) -> web.Application:
    """The phone application for a session; ``base`` is the links' base URL (for hints)."""
    phones = Phones(session, limiter or Limiter(), Presence(session, presence_every), base)
    app = phone_app(session, phones, _errors)
    app[PHONES] = phones
    r = app.router
    r.add_get("/", pages.home)
    r.add_get("/join", pages.join_page)
    r.add_post("/join", pages.join_submit)
    r.add_get("/board", pages.board_page)
    r.add_get("/board/part", pages.board_part)
    r.add_get("/p/{token}", pages.seat_page)
    r.add_get("/p/{token}/part", pages.seat_part)
    r.add_get("/api/board", api.get_board)
    r.add_get("/api/board/events", api.board_events)
    r.add_get("/api/p/{token}", api.get_seat)
    r.add_get("/api/p/{token}/events", api.seat_events)
    r.add_post("/api/p/{token}/choice", api.post_choice)
    r.add_post("/api/p/{token}/deal", api.post_deal)
    r.add_post("/api/p/{token}/search", api.post_search)
    return app


class PhoneServer:
    """A running phone server; ``base_url`` is what the links are built on."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, base: str) -> None:
        self._runner = runner
        self.host = host
        self.port = port
        self.base_url = base

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await self._runner.cleanup()


async def listen(
    session: Any, app: web.Application, host: str, port: int, public_url: str | None
) -> tuple[web.AppRunner, int, str]:
    """Serve ``app`` on ``host:port`` inside the running loop (port 0: any free port).

    Returns the runner, the port it bound and the base its links use: ``public_url`` if given
    (it is pinned in the session), else a pinned one, else this laptop's address.
    ``served_url`` in the session records where it listened. Raises ``OSError`` when the port
    cannot be used.
    """
    asyncio.get_running_loop()
    if public_url:
        public_url = public_url.rstrip("/")
        session.store.set_meta("public_url", public_url)
    pinned = public_url or session.meta().get("public_url")
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0, handle_signals=False)
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
    served = base_url(host, bound)
    session.store.set_meta("served_url", served)
    base = str(pinned).rstrip("/") if pinned else served
    return runner, bound, base


async def start_phone_server(
    session: Any,
    host: str = "0.0.0.0",
    port: int = DEFAULT_PORT,
    public_url: str | None = None,
    *,
    limiter: Limiter | None = None,
) -> PhoneServer:
    """Listen for phones on ``host:port`` inside the running loop (port 0: any free port).

    The links use ``public_url`` if given (it is pinned in the session), else a pinned one,
    else this laptop's address. ``served_url`` in the session records where it listened.
    Raises ``OSError`` when the port cannot be used.
    """
    app = build_app(session, limiter=limiter)
    runner, bound, base = await listen(session, app, host, port, public_url)
    app[PHONES].base_url = base
    return PhoneServer(runner, host, bound, base)
