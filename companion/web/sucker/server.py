"""So Long Sucker's night's server: the game master's desk (every console attaches to it) and
the game master's phone's page (:mod:`companion.web.sucker.game_master`), on the common server
of :mod:`companion.web.common` (its Host and origin guards, its error pages, its test page).

The players of this game have no phones, so nothing else is served: no board, no join page,
no seat's page. The page's live updates are one fan-out from the session's log to its streams.
"""

from __future__ import annotations

from aiohttp import web

from companion.session.session import Change
from companion.session.sucker import SuckerSession
from companion.web.common import game_master as common
from companion.web.common.context import Limiter
from companion.web.common.desk import Desk
from companion.web.common.fanout import PACE, Fanout, Urgency, moves
from companion.web.common.language import current, language_middleware, phone_language
from companion.web.common.limits import Limits
from companion.web.common.rendering import html
from companion.web.common.server import (
    PhoneServer,
    error_middleware,
    listen,
    phone_app,
    static_dir,
)
from companion.web.sucker import game_master
from companion.web.sucker.game_master import publish
from companion.web.sucker.game_master_view import render_problem
from companion.web.sucker.referee import REFEREE, Referee


def _problem_page(status: int, message: str) -> web.StreamResponse:
    return html(render_problem(message, current()), status=status, private=False)


_errors = error_middleware(_problem_page)


def _urgency(change: Change) -> Urgency:
    return "urgent" if moves(change) else None


def start_fanout(referee: Referee) -> Fanout[str]:
    """The page's live updates (in the running loop, as the server starts)."""
    referee.fanout = Fanout(
        referee.session, _urgency, lambda push: publish(referee, push), pace=0.0, calm=PACE
    )
    return referee.fanout


def build_app(referee: Referee) -> web.Application:
    """The application: the common one with the referee's page, in the phone's language."""
    app = phone_app(
        referee.session, lambda: start_fanout(referee), _errors,
        static_dir("companion.web.sucker"),
    )
    app[REFEREE] = referee
    # outside the error middleware, so that its pages and sentences are in the same language
    app.middlewares.insert(0, language_middleware(phone_language))
    game_master.add_routes(app)
    return app


def _push(referee: Referee) -> None:
    if referee.fanout is not None:
        referee.fanout.push()


async def start_sucker_server(
    session: SuckerSession, host: str, port: int, desk: Desk, *, limits: Limits | None = None,
    limiter: Limiter | None = None,
) -> PhoneServer:
    """Listen on ``host:port`` inside the running loop (port 0: any free port): the desk and
    the game master's phone's page. Raises ``OSError`` when the port cannot be used."""
    referee = Referee(session, limiter or Limiter(), desk)
    app = build_app(referee)
    common.serve_page(desk, lambda: _push(referee))
    runner, bound, base = await listen(session, app, host, port, None, limits, desk)
    return PhoneServer(runner, host, bound, base)
