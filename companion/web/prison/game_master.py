"""The game master's phone: the game master's private page, a second console in a hand.

- ``GET /gm/SECRET`` and ``/gm/SECRET/part``: the page and its live part
  (:mod:`~companion.web.prison.game_master_view`);
- ``GET /api/gm/page/SECRET/events``: its live updates, on the phones' one fan-out (the whole
  part at each change of the game or the stage);
- ``POST /api/gm/page/SECRET/ACTION`` ``{"value": ..., "named": [...], "after": VERSION}``:
  a tap (:mod:`~companion.web.prison.game_master_taps`), through the desk's checks.

SECRET is the game master's phone's own credential (``NAME.sqlite.phone``, held by the desk:
:mod:`companion.web.common.desk`), never the game master's key nor a seat's token; the console
shows it as a QR code on a screen of its own, and replacing it there ends every page open with
the old one (its stream is told it is gone, and the page, loaded again, is not found). A wrong
secret counts against the address like a guessed seat link (the same limiter), a player's
token opens nothing here, and a tap from another site's page is refused by the origin guard.
What is not the prison's own (the secret's check, the tap's reading, the routes, the stream's
end) is :mod:`companion.web.common.game_master`'s. The page is the phones' page
(``phones.js``: versions, the laptop not answering, the screen kept awake, a second tap to
confirm), in the phone's language, in the game master's words.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from companion.language import Language
from companion.session.prison.interviews import interview_seconds
from companion.web.common import game_master as common
from companion.web.common.context import log_version
from companion.web.common.desk import Desk
from companion.web.common.fanout import Push, serve
from companion.web.common.language import page_language
from companion.web.common.outbox import Outbox
from companion.web.common.rendering import html
from companion.web.prison.game_master_taps import Taps
from companion.web.prison.game_master_view import render_gm_page, render_gm_part
from companion.web.prison.phones import TOO_MANY, NightContext, StreamMemory, night_of

AUDIENCE = common.AUDIENCE  # the game master's phones' streams, in the fan-out


def game_master_for(request: web.Request) -> tuple[NightContext, Desk, str]:
    """The page's session and desk for the secret in the request's path; 429 for a guesser,
    404 (as for any unknown path) for a wrong secret, counted like a guessed seat link."""
    night = night_of(request)
    desk, secret = common.secret_of(
        request, night.desk, night.session, night.limiter, too_many=TOO_MANY
    )
    return night, desk, secret


def _part(night: NightContext, lang: Language) -> str:
    return render_gm_part(night.session, lang, night.clock(), night.presence)


async def page(request: web.Request) -> web.Response:
    night, _, secret = game_master_for(request)
    version = log_version(night.session)
    text = render_gm_page(
        night.session, secret, page_language(request), night.clock(), version,
        night.presence,
    )
    return html(text, version=version)


async def part(request: web.Request) -> web.Response:
    night, _, _ = game_master_for(request)
    version = log_version(night.session)
    return html(_part(night, page_language(request)), version=version)


def message_of(night: NightContext, box: Outbox[StreamMemory]) -> dict[str, Any]:
    """What a game master's phone's stream shows now."""
    return {"html": _part(night, box.lang)}


def deliver(night: NightContext, desk: Desk | None, push: Push, box: Outbox[StreamMemory]) -> None:
    """A game master's page's stream's message, made again at every push (one or two such
    pages, each a console); the stream ends once its secret was replaced."""
    common.deliver(box, push, desk, box.memory.gm, lambda: message_of(night, box))


async def events(request: web.Request) -> web.StreamResponse:
    night, desk, secret = game_master_for(request)
    assert night.fanout is not None

    def first(box: Outbox[StreamMemory], push: Push) -> None:
        deliver(night, desk, push, box)

    lang = page_language(request)
    return await serve(request, night.fanout, AUDIENCE, lang, StreamMemory(None, gm=secret), first)


async def tap(request: web.Request) -> web.Response:
    night, desk, _ = game_master_for(request)
    tapped = await common.read_tap(request)
    taps = Taps(night.session, desk, night.clock, lambda: interview_seconds(night.session))
    return common.answer(taps.act(tapped), page_language(request), night.session)


def add_routes(app: web.Application) -> None:
    common.add_routes(app, page=page, part=part, events=events, tap=tap)
