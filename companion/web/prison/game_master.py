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
The page is the phones' page (``phones.js``: versions, the laptop not answering, the screen
kept awake, a second tap to confirm), in the phone's language, in the game master's words.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from companion.language import Language
from companion.rules.core.game import Refused
from companion.session.prison.interviews import interview_seconds
from companion.web.common.context import NOT_FOUND, Problem, count_wrong, json_answer, log_version
from companion.web.common.desk import NOT_UNDERSTOOD, Desk
from companion.web.common.fanout import Push, serve
from companion.web.common.language import page_language
from companion.web.common.outbox import Outbox, dumps, sse
from companion.web.common.rendering import html
from companion.web.prison.game_master_taps import Tap, Taps
from companion.web.prison.game_master_view import render_gm_page, render_gm_part
from companion.web.prison.phones import TOO_MANY, Phones, Watch, phones_of

AUDIENCE = "game master"  # the game master's phones' streams, in the fan-out
MAX_NAMED = 64  # whom an informant may name, at most (a roster's size)


def _desk(phones: Phones) -> Desk:
    desk = phones.desk
    if desk is None or not desk.phone_page or desk.phone is None:
        raise Problem(404, NOT_FOUND)
    return desk


def game_master_for(request: web.Request) -> tuple[Phones, Desk, str]:
    """The page's session and desk for the secret in the request's path; 429 for a guesser,
    404 (as for any unknown path) for a wrong secret, counted like a guessed seat link."""
    phones = phones_of(request)
    desk = _desk(phones)
    address = request.remote or "unknown"
    if phones.limiter.blocked(address):
        raise Problem(429, TOO_MANY)
    secret = request.match_info["secret"]
    if not desk.phone_is(secret):
        count_wrong(phones.session, phones.limiter, address)
        raise Problem(404, NOT_FOUND)
    return phones, desk, secret


def _part(phones: Phones, desk: Desk, lang: Language) -> str:
    return render_gm_part(phones.session, lang, phones.clock(), phones.presence)


async def page(request: web.Request) -> web.Response:
    phones, _, secret = game_master_for(request)
    version = log_version(phones.session)
    text = render_gm_page(
        phones.session, secret, page_language(request), phones.clock(), version,
        phones.presence,
    )
    return html(text, version=version)


async def part(request: web.Request) -> web.Response:
    phones, desk, _ = game_master_for(request)
    version = log_version(phones.session)
    return html(_part(phones, desk, page_language(request)), version=version)


def message_of(
    phones: Phones, desk: Desk | None, box: Outbox[Watch]
) -> dict[str, Any] | None:
    """What a game master's phone's stream shows now (``None``: its secret was replaced, so
    the stream ends). Made again at every push: one or two such pages, each a console."""
    watch = box.memory
    if desk is None or watch.gm is None or not desk.phone_is(watch.gm):
        return None
    return {"html": _part(phones, desk, box.lang)}


def deliver(phones: Phones, desk: Desk | None, push: Push, box: Outbox[Watch]) -> None:
    data = message_of(phones, desk, box)
    if data is None:
        box.end()
        return
    box.view(sse("view", dumps(data), push.version), push.version)


async def events(request: web.Request) -> web.StreamResponse:
    phones, desk, secret = game_master_for(request)
    assert phones.fanout is not None

    def first(box: Outbox[Watch], push: Push) -> None:
        deliver(phones, desk, push, box)

    lang = page_language(request)
    return await serve(request, phones.fanout, AUDIENCE, lang, Watch(None, gm=secret), first)


async def _tap_of(request: web.Request) -> Tap:
    try:
        data = await request.json()
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise Problem(400, NOT_UNDERSTOOD)
    value, named, after = data.get("value", ""), data.get("named") or [], data.get("after")
    if (
        not isinstance(value, str) or not isinstance(named, list) or len(named) > MAX_NAMED
        or not all(isinstance(n, str) for n in named)
        or isinstance(after, bool) or not isinstance(after, int)
    ):
        raise Problem(400, NOT_UNDERSTOOD)
    tab = request.headers.get("X-Tab", "")[:40]
    return Tap(request.match_info["action"], value[:400], named, after, f"phone:{tab}")


async def tap(request: web.Request) -> web.Response:
    phones, desk, _ = game_master_for(request)
    tapped = await _tap_of(request)
    lang = page_language(request)
    taps = Taps(phones.session, desk, phones.clock, lambda: interview_seconds(phones.session))
    outcome = taps.act(tapped)
    version = log_version(phones.session)
    if isinstance(outcome, Refused):
        return json_answer({"error": lang.refused(outcome)}, 409, version=version)
    return json_answer({"ok": True, "message": outcome.said(lang)}, version=version)


def add_routes(app: web.Application) -> None:
    r = app.router
    r.add_get("/gm/{secret}", page)
    r.add_get("/gm/{secret}/part", part)
    r.add_get("/api/gm/page/{secret}/events", events)
    r.add_post("/api/gm/page/{secret}/{action}", tap)
