"""What the referee's page needs of the night (:class:`Referee`), kept on the application."""

from __future__ import annotations

from dataclasses import dataclass, field

from aiohttp import web

from companion.session.sucker import SuckerSession
from companion.web.common.context import Limiter
from companion.web.common.desk import Desk
from companion.web.common.fanout import Fanout


@dataclass
class Referee:
    """The session, the desk (``None``: not a night's server, so no page), the wrong-links
    limiter and the page's streams."""

    session: SuckerSession
    limiter: Limiter = field(default_factory=Limiter)
    desk: Desk | None = None
    fanout: Fanout[str] | None = None  # each stream's memory: the secret it was opened with


REFEREE: web.AppKey[Referee] = web.AppKey("referee")


def referee_of(request: web.Request) -> Referee:
    return request.app[REFEREE]
