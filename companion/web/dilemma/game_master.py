"""The warm-up's game master's phone: the game master's private page, a second console in a
hand, on the night's server (:mod:`companion.web.common.game_master`: the credential, the taps'
reading, the routes, the stream's end once the console gives the phone a new link).

- ``GET /gm/SECRET`` and ``/gm/SECRET/part``: the page and its live part
  (:mod:`~companion.web.dilemma.game_master_view`);
- ``GET /api/gm/page/SECRET/events``: its live updates, on the warm-up's one fan-out (the
  whole part at every push: a choice, a join, a phone come or gone, anything else);
- ``POST /api/gm/page/SECRET/ACTION``: a tap (:mod:`~companion.web.dilemma.game_master_taps`),
  through the desk's checks, the same commands as the console's.

The page is the phones' page (``phones.js``), in the phone's language, in the game master's
words; a wrong secret counts against the address like a guessed seat link.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from aiohttp import web

from companion.session.dilemma import DilemmaSession
from companion.web.common import game_master as common
from companion.web.common.context import Limiter, Presence, log_version
from companion.web.common.desk import Desk
from companion.web.common.fanout import Push, serve
from companion.web.common.language import page_language
from companion.web.common.outbox import Outbox
from companion.web.common.rendering import html
from companion.web.dilemma.feed import Feed
from companion.web.dilemma.game_master_taps import Taps
from companion.web.dilemma.game_master_view import render_gm_page, render_gm_part

AUDIENCE = common.AUDIENCE


class GameMasterNight(Protocol):
    """What the page reads of the server's handlers' context
    (:class:`companion.web.dilemma.server.NightContext`, which adds these routes)."""

    session: DilemmaSession
    limiter: Limiter
    presence: Presence
    desk: Desk | None
    feed: Feed | None


def deliver(night: GameMasterNight, push: Push, box: Outbox[str | None]) -> None:
    """A game master's page's stream's message (``box.memory``: the secret it was opened
    with), made again at every push; the stream ends once that secret was replaced."""

    def message() -> dict[str, Any]:
        return {"html": render_gm_part(night.session, box.lang, time.time(), night.presence)}

    common.deliver(box, push, night.desk, box.memory, message)


def add_routes(
    app: web.Application, night_of: Callable[[web.Request], GameMasterNight], too_many: str
) -> None:
    """The page's routes; ``night_of`` gives a request's night, ``too_many`` is said to an
    address over the wrong-links limit."""

    def game_master_for(request: web.Request) -> tuple[GameMasterNight, Desk, str]:
        """The night for the secret in the request's path, and the secret; 429 for a guesser,
        404 (as for any unknown path) for a wrong secret, counted like a guessed seat link."""
        night = night_of(request)
        desk, secret = common.secret_of(
            request, night.desk, night.session, night.limiter, too_many=too_many
        )
        return night, desk, secret

    async def page(request: web.Request) -> web.Response:
        night, _, secret = game_master_for(request)
        version = log_version(night.session)
        text = render_gm_page(
            night.session, secret, page_language(request), time.time(), version, night.presence
        )
        return html(text, version=version)

    async def part(request: web.Request) -> web.Response:
        night, _, _ = game_master_for(request)
        version = log_version(night.session)
        text = render_gm_part(night.session, page_language(request), time.time(), night.presence)
        return html(text, version=version)

    async def events(request: web.Request) -> web.StreamResponse:
        night, _, secret = game_master_for(request)
        feed = night.feed
        assert feed is not None

        def first(box: Outbox[str | None], push: Push) -> None:
            deliver(night, push, box)

        lang = page_language(request)
        return await serve(request, feed.fanout, AUDIENCE, lang, secret, first)

    async def tap(request: web.Request) -> web.Response:
        night, desk, _ = game_master_for(request)
        tapped = await common.read_tap(request)
        taps = Taps(night.session, desk, time.time)
        return common.answer(taps.act(tapped), page_language(request), night.session)

    common.add_routes(app, page=page, part=part, events=events, tap=tap)
