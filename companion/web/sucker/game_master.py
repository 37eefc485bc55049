"""The referee's page: So Long Sucker's game master's phone, a second referee's console.

Its routes, credential and taps are the common page's (:mod:`companion.web.common.game_master`):
``/gm/SECRET``, its live part and stream, and ``POST /api/gm/page/SECRET/ACTION``:

- ``move`` ``{"value": COMMAND}``: a move (the JSON of the command a button carries, one of
  the rules' :func:`~companion.rules.sucker.engine.legal_moves` when the page was drawn),
  parsed by the rules' command parser and submitted as the desk submits an attached
  console's, so refused in the rules' sentences when the table has moved on;
- ``undo`` ``{"value": SEQ}``: undo the move the page named (refused if another became the
  last since).

Every tap goes through the desk's strict check (a tap from a page older than the latest game
master's change is refused: one sent twice or replayed never acts twice). What a move did is
said as the console's log says it.
"""

from __future__ import annotations

import json

from aiohttp import web

from companion.language import N_
from companion.rules.core.game import MalformedCommand, Refused
from companion.rules.core.phrase import Listed, Phrase
from companion.rules.sucker.views import event_phrase
from companion.web.common import game_master as common
from companion.web.common.context import log_version
from companion.web.common.desk import NOT_UNDERSTOOD, Desk
from companion.web.common.fanout import Push, serve
from companion.web.common.language import page_language
from companion.web.common.outbox import Outbox
from companion.web.common.rendering import html
from companion.web.sucker.game_master_view import render_gm_page, render_gm_part
from companion.web.sucker.referee import Referee, referee_of

TOO_MANY = N_(
    "Too many wrong links came from this device; wait a minute, then scan the game master's "
    "code on the laptop again."
)
UNDONE = N_("Undone; the history keeps it as a correction.")
UNDONE_OVER = N_(
    "Undone: the game is on again; the history keeps the end of the game as a correction."
)


def game_master_for(request: web.Request) -> tuple[Referee, Desk, str]:
    """The page's referee and desk for the secret in the request's path; 429 for a guesser,
    404 (as for any unknown path) for a wrong secret, counted like a guessed link."""
    referee = referee_of(request)
    desk, secret = common.secret_of(
        request, referee.desk, referee.session, referee.limiter, too_many=TOO_MANY
    )
    return referee, desk, secret


async def page(request: web.Request) -> web.Response:
    referee, _, secret = game_master_for(request)
    version = log_version(referee.session)
    text = render_gm_page(referee.session, secret, page_language(request), version)
    return html(text, version=version)


async def part(request: web.Request) -> web.Response:
    referee, _, _ = game_master_for(request)
    version = log_version(referee.session)
    return html(render_gm_part(referee.session, page_language(request)), version=version)


def _deliver(referee: Referee, push: Push, box: Outbox[str]) -> None:
    common.deliver(box, push, referee.desk, box.memory,
                   lambda: {"html": render_gm_part(referee.session, box.lang)})


def publish(referee: Referee, push: Push) -> None:
    """Put into every page's stream what it shows now (one or two pages: each made anew)."""
    assert referee.fanout is not None
    for box in list(referee.fanout.audiences.get(common.AUDIENCE, ())):
        _deliver(referee, push, box)


async def events(request: web.Request) -> web.StreamResponse:
    referee, _, secret = game_master_for(request)
    assert referee.fanout is not None

    def first(box: Outbox[str], push: Push) -> None:
        _deliver(referee, push, box)

    lang = page_language(request)
    return await serve(request, referee.fanout, common.AUDIENCE, lang, secret, first)


def _move(referee: Referee, desk: Desk, tap: common.Tap) -> common.Outcome:
    session = referee.session
    try:
        data = json.loads(tap.value)
        command = session.parse(data if isinstance(data, dict) else {})
    except (ValueError, MalformedCommand):
        return Refused(NOT_UNDERSTOOD)

    def change() -> Refused | common.Done:
        outcome = session.submit(command, by="gm")
        if isinstance(outcome, Refused):
            return outcome
        lines = [p for p in map(event_phrase, outcome.events) if p is not None]
        # the console's log's lines for it, one after another (a phrase that is its lines)
        return common.done(Phrase("%(lines)s", (("lines", Listed(tuple(lines), "sentences")),)))

    return common.through(desk, tap, change)


def _undo(referee: Referee, desk: Desk, tap: common.Tap) -> common.Outcome:
    session = referee.session
    only = int(tap.value) if tap.value.isdigit() else None
    was_over = session.state.over

    def change() -> Refused | common.Done:
        outcome = session.undo(by="gm", only=only)
        if isinstance(outcome, Refused):
            return outcome
        return common.done(UNDONE_OVER if was_over and not session.state.over else UNDONE)

    return common.through(desk, tap, change)


async def tap(request: web.Request) -> web.Response:
    referee, desk, _ = game_master_for(request)
    tapped = await common.read_tap(request)
    if tapped.action == "move":
        outcome = _move(referee, desk, tapped)
    elif tapped.action == "undo":
        outcome = _undo(referee, desk, tapped)
    else:
        outcome = Refused(NOT_UNDERSTOOD)
    return common.answer(outcome, page_language(request), referee.session)


def add_routes(app: web.Application) -> None:
    common.add_routes(app, page=page, part=part, events=events, tap=tap)
