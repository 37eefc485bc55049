"""The game master's phone, what every game's page shares: its credential, its taps, its routes.

Each game that serves the game master a private page (the prison break:
:mod:`companion.web.prison.game_master`) adds its four routes with :func:`add_routes`:

- ``GET /gm/SECRET`` and ``/gm/SECRET/part``: the page and its live part;
- ``GET /api/gm/page/SECRET/events``: its live updates, on the game's one fan-out (the whole
  part at each change), in the audience :data:`AUDIENCE`;
- ``POST /api/gm/page/SECRET/ACTION`` ``{"value": ..., "named": [...], "after": VERSION}``: a
  tap (:func:`read_tap`), done through the desk's checks (:func:`through`, on
  :meth:`Desk.change` with the strict stale check), answered by :func:`answer`.

SECRET is the game master's phone's own credential (``NAME.sqlite.phone``, held by the desk:
:mod:`companion.web.common.desk`), never the game master's key nor a seat's token. Every request
is checked by :func:`secret_of`: an address over the wrong-links limit is refused (429) before
anything is compared, and a wrong secret counts against the address like a guessed seat link
(the same limiter) and is not found (404, as any unknown path). Replacing the secret on the
console ends every stream open with the old one (:func:`deliver`, after :func:`serve_page` has
the desk push the game's streams once it is replaced).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from companion.language import Language
from companion.rules.core.game import Refused
from companion.rules.core.phrase import Phrase
from companion.session.session import Session
from companion.session.store import StoreError
from companion.web.common.context import (
    NOT_FOUND,
    Limiter,
    Problem,
    count_wrong,
    json_answer,
    log_version,
)
from companion.web.common.desk import NOT_UNDERSTOOD, Desk
from companion.web.common.fanout import Page, Push, show
from companion.web.common.outbox import Outbox, dumps

AUDIENCE = "game master"  # the game master's phones' streams, in a game's fan-out
MAX_NAMED = 64  # a tap's list of names, at most (a roster's size)
MAX_VALUE = 400  # a tap's value, at most (characters kept)
TAB = "X-Tab"  # the page's own name for itself (phones.js), on its taps


# ---- the credential ---------------------------------------------------------------------


def desk_serving(desk: Desk | None) -> Desk:
    """The desk, if this night's server serves the game master's page; else 404."""
    if desk is None or not desk.phone_page or desk.phone is None:
        raise Problem(404, NOT_FOUND)
    return desk


def secret_of(
    request: web.Request, desk: Desk | None, session: Session, limiter: Limiter,
    *, too_many: str, not_found: str = NOT_FOUND,
) -> tuple[Desk, str]:
    """The desk and the secret in the request's path, if it is the phone's secret now: 429
    (``too_many``) for an address over the limit, 404 (``not_found``, as for any unknown path)
    for a wrong secret, counted like a guessed seat link."""
    desk = desk_serving(desk)
    address = request.remote or "unknown"
    if limiter.blocked(address):
        raise Problem(429, too_many)
    secret = request.match_info["secret"]
    if not desk.phone_is(secret):
        count_wrong(session, limiter, address)
        raise Problem(404, not_found)
    return desk, secret


def serve_page(desk: Desk | None, push: Callable[[], None]) -> None:
    """Have the game's server serve the game master's page (on the night's server, where the
    desk is): ``push`` (the game's fan-out's) runs once its secret is replaced, so that the
    streams opened with the old one end (:func:`deliver`)."""
    if desk is not None:
        desk.phone_page = True
        desk.on_phone_replaced(push)


# ---- the live part ----------------------------------------------------------------------


def still_holds(desk: Desk | None, secret: str | None) -> bool:
    """Whether a page opened with ``secret`` may still be shown the game."""
    return desk is not None and secret is not None and desk.phone_is(secret)


def deliver(
    box: Outbox[Any], push: Push, desk: Desk | None, secret: str | None,
    message: Callable[[], dict[str, Any]],
) -> None:
    """Put into ``box`` (a game master's page's stream) what it shows now, ``message()`` (made
    at every push: one or two such pages, each a console), when it differs from what the
    page shows; end the stream instead once its secret was replaced."""
    if not still_holds(desk, secret):
        box.end()
        return
    made = message()
    show(push, box, Page(made, lambda: dumps(made)))


# ---- a tap ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tap:
    """One tap as the page sent it: its action, its value, the names it carries (whom an
    informant named, …), the page's version and its console (its tab)."""

    action: str
    value: str
    named: list[str]
    after: int
    console: str


async def read_tap(request: web.Request) -> Tap:
    """The tap in the request (its action from the path); 400 in one sentence for anything
    but ``{"value": str, "named": [str, ...], "after": int}``."""
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
    tab = request.headers.get(TAB, "")[:40]
    return Tap(request.match_info["action"], value[:MAX_VALUE], named, after, f"phone:{tab}")


@dataclass(frozen=True)
class Done:
    """A tap done: what the page says (a sentence in the game master's words, or a phrase);
    a parameter that is a phrase is said in the page's language too."""

    message: str | Phrase
    params: dict[str, Any]

    def said(self, lang: Language) -> str:
        if isinstance(self.message, Phrase):
            return lang.say(self.message)
        params = {
            key: lang.say(value) if isinstance(value, Phrase) else value
            for key, value in self.params.items()
        }
        return lang(self.message, **params)


def done(message: str | Phrase, **params: Any) -> Done:
    return Done(message, params)


Outcome = Done | Refused


def refused(template: str, **params: str) -> Refused:
    """A refusal of the game master's phone, said in the page's language like the rules'."""
    return Refused(template % params, template, tuple(params.items()))


def tapped(moves: Mapping[str, Callable[[Tap], Outcome]], tap: Tap) -> Outcome:
    """What the move the tap's action names does (``moves``: a game's page's buttons, each
    action listed by name), or not understood for any other action."""
    move = moves.get(tap.action)
    return Refused(NOT_UNDERSTOOD) if move is None else move(tap)


def through(
    desk: Desk, tap: Tap, change: Callable[[], Refused | Done | None], said: Done | None = None,
) -> Outcome:
    """``change`` through the desk's checks, strict (a tap made on a page older than the
    latest game master's change, this page's own included, is refused: a tap sent twice or
    replayed never acts twice): the desk's refusal, the change's own refusal (or a store's
    error, in its sentence), else what the change says it did (a :class:`Done`), or ``said``."""
    result: list[Done] = []

    def act() -> dict[str, int] | Refused:
        try:
            outcome = change()
        except StoreError as error:
            return Refused(str(error))
        if isinstance(outcome, Refused):
            return outcome
        result.append(outcome if outcome is not None else said or done(""))
        return {}

    outcome = desk.change(tap.console, tap.after, act, strict=True)
    return outcome if isinstance(outcome, Refused) else result[0]


def answer(outcome: Outcome, lang: Language, session: Session) -> web.Response:
    """A tap's answer: what it did, or the refusal in its sentence (409), with the version."""
    version = log_version(session)
    if isinstance(outcome, Refused):
        return json_answer({"error": lang.refused(outcome)}, 409, version=version)
    return json_answer({"ok": True, "message": outcome.said(lang)}, version=version)


# ---- the routes -------------------------------------------------------------------------

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def add_routes(
    app: web.Application, *, page: Handler, part: Handler, events: Handler, tap: Handler
) -> None:
    """The game master's page's routes on a game's application."""
    r = app.router
    r.add_get("/gm/{secret}", page)
    r.add_get("/gm/{secret}/part", part)
    r.add_get("/api/gm/page/{secret}/events", events)
    r.add_post("/api/gm/page/{secret}/{action}", tap)
