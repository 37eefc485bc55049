"""The prison break's phone server: each seat's private page, the board and the join form,
with their JSON API and live updates, on the common server of :mod:`companion.web.common`."""

from __future__ import annotations

from aiohttp import web

from companion.language import Language, language, negotiate
from companion.session.links import DEFAULT_PORT
from companion.session.prison import PrisonSession
from companion.session.prison.seats import seats_of
from companion.web.common.context import Limiter, Presence, Problem
from companion.web.common.desk import Desk
from companion.web.common.game_master import serve_page
from companion.web.common.language import language_middleware, phone_language
from companion.web.common.limits import Limits
from companion.web.common.server import (
    PhoneServer,
    error_middleware,
    listen,
    phone_app,
    static_dir,
)
from companion.web.prison import api, game_master, pages, routes
from companion.web.prison.phones import NIGHT, NightContext

_errors = error_middleware(lambda status, message: routes.problem_page(Problem(status, message)))


def build_app(
    session: PrisonSession,
    *,
    base: str | None = None,
    limiter: Limiter | None = None,
) -> web.Application:
    """The phone application for a session; ``base`` is the links' base URL (for hints). The
    seats are made now if the session has none yet, so that no phone's request writes."""
    seats_of(session)
    night = NightContext(session, limiter or Limiter(), Presence(session), base)
    app = phone_app(
        session, lambda: api.start_fanout(night), _errors, static_dir("companion.web.prison")
    )
    app[NIGHT] = night

    def pick(request: web.Request) -> Language:
        """The board speaks the session's language (as its printouts); a phone its own."""
        if request.path.startswith(("/board", "/api/board")):
            return language(negotiate([str(session.settings.get("lang") or "")]))
        return phone_language(request)

    # outside the error middleware, so that its pages and sentences are in the same language
    app.middlewares.insert(0, language_middleware(pick))
    r = app.router
    r.add_get("/", routes.home)
    r.add_get("/join", routes.join_page)
    r.add_post("/join", routes.join_submit)
    r.add_get("/board", routes.board_page)
    r.add_get("/board/part", routes.board_part)
    r.add_get("/p/{token}", routes.seat_page)
    r.add_get("/p/{token}/part", routes.seat_part)
    r.add_get("/api/board", api.get_board)
    r.add_get("/api/board/events", api.board_events)
    r.add_get("/api/p/{token}", api.get_seat)
    r.add_get("/api/p/{token}/events", api.seat_events)
    r.add_post("/api/p/{token}/choice", api.post_choice)
    r.add_post("/api/p/{token}/deal", api.post_deal)
    r.add_post("/api/p/{token}/search", api.post_search)
    game_master.add_routes(app)
    return app


async def start_phone_server(
    session: PrisonSession,
    host: str = "0.0.0.0",
    port: int = DEFAULT_PORT,
    public_url: str | None = None,
    *,
    limiter: Limiter | None = None,
    limits: Limits | None = None,
    desk: Desk | None = None,
) -> PhoneServer:
    """Listen for phones on ``host:port`` inside the running loop (port 0: any free port).

    The links use ``public_url`` if given (it is pinned in the session), else a pinned one,
    else this laptop's address. ``served_url`` in the session records where it listened.
    Raises ``OSError`` when the port cannot be used.
    """
    app = build_app(session, limiter=limiter)
    night = app[NIGHT]
    if desk is not None:  # the night's server: the game master's phone has its page
        night.desk = desk
        serve_page(desk, lambda: night.fanout.push() if night.fanout else None)
    pages.warm_up(night)
    runner, bound, base = await listen(session, app, host, port, public_url, limits, desk)
    app[NIGHT].base_url = base
    return PhoneServer(runner, host, bound, base)
