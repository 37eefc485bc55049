"""The dilemma warm-up's phone server: its own aiohttp app beside the prison break's.

- ``/join-room``: the one room QR code opens this; a player types their name and is sent to
  their own page ``/d/TOKEN`` (also remembered in a cookie: scanning again brings them back);
- ``/d/TOKEN``: whom I face, SILENT or BETRAY, my sentences and the leaderboard, live;
- ``/board``: the room's view for a projector, with the join code, live;
- ``/api/...``: the same as JSON, server-sent events, and ``POST /api/d/TOKEN/choice``;
- ``/gm/SECRET``: on the night's server, the game master's phone
  (:mod:`companion.web.dilemma.game_master`).

It is built on :mod:`companion.web.common`: the live updates (the fan-out), the guard against
guessed links (``Limiter``), the JSON body checks, the security headers and the address
detection. Every page is built from a view of :mod:`companion.rules.dilemma.views`, never from
the state.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field

from aiohttp import web

from companion.language import N_, Language, language, negotiate
from companion.rules.core.game import Refused
from companion.rules.core.roster import MAX_NAME
from companion.rules.dilemma.commands import Choice, Choose, Join
from companion.rules.dilemma.finale import finale_view
from companion.rules.dilemma.views import BoardView, PlayerView, board, player
from companion.session.dilemma import DilemmaSession
from companion.session.dilemma.seats import forget, new_pid, new_seat, origins, pid_for
from companion.session.links import DEFAULT_PORT
from companion.session.store import StoreError
from companion.session.wifi import wifi_of
from companion.web.common.context import (
    Limiter,
    Presence,
    Problem,
    count_wrong,
    json_answer,
    log_version,
    read_field,
    read_form,
)
from companion.web.common.desk import Desk
from companion.web.common.fanout import serve
from companion.web.common.game_master import serve_page
from companion.web.common.group_commit import GroupCommit, submit_together
from companion.web.common.guard import PAGE_FIELD, PageTokens
from companion.web.common.language import (
    current,
    language_middleware,
    page_language,
    phone_language,
)
from companion.web.common.limits import Limits
from companion.web.common.rendering import PRIVATE_HEADERS, html, qr_svg
from companion.web.common.server import (
    PhoneServer,
    error_middleware,
    listen,
    phone_app,
    static_dir,
)
from companion.web.dilemma import game_master, pages
from companion.web.dilemma.feed import Feed
from companion.web.dilemma.joins import LIFTED_KEY, JoinLimiter, present_from
from companion.web.dilemma.round_timer import counting

COOKIE = "dilemma_seat"
CHOICES: tuple[Choice, ...] = ("silent", "betray")
COOKIE_SECONDS = 12 * 3600
NOT_FOUND = N_("There is nothing here; scan the room's QR code again to join or come back.")
TOO_MANY = N_(
    "Too many wrong links came from this device; wait a minute, then scan the code again."
)
TOO_MANY_JOINS = N_(
    "Too many players joined from this device just now; wait a minute, or ask the game master."
)
SAVED = {"silent": N_("Saved: you stay SILENT."), "betray": N_("Saved: you BETRAY.")}
TAB = "X-Tab"  # a page's own name for itself, on its stream's address and on its posts
_TAB = re.compile(r"[a-z0-9]{1,16}")


def tab_of(text: str | None) -> str | None:
    """A page's tab as it named itself, if it is one (a few letters and digits); else none."""
    return text if text is not None and _TAB.fullmatch(text) else None


@dataclass
class NightContext:
    """What every handler of the warm-up's server shares (the session, the limits, the
    phones' presence, the live pages, the desk): its handlers' context."""

    session: DilemmaSession
    limiter: Limiter
    presence: Presence
    base_url: str | None = None
    joins: JoinLimiter = field(default_factory=JoinLimiter)  # joins per device address
    feed: Feed | None = None  # the live pages, while the server runs
    page_tokens: PageTokens = field(default_factory=PageTokens)  # the join form's own token
    desk: Desk | None = None  # the game master's desk, on the night's server
    together: GroupCommit = field(init=False)  # the phones' choices, committed in groups

    def __post_init__(self) -> None:
        self.together = GroupCommit(self.session)

    def pid_for(self, request: web.Request, token: str) -> str:
        address = request.remote or "unknown"
        if self.limiter.blocked(address):
            raise Problem(429, TOO_MANY)
        pid = pid_for(self.session, token)  # by the token's digest: one look-up
        if pid is None:
            count_wrong(self.session, self.limiter, address)
            raise Problem(404, NOT_FOUND)
        return pid

    def join_url(self) -> str:
        return f"{(self.base_url or '').rstrip('/')}/join-room"

    def board_view(self) -> BoardView:
        return board(self.session.state)

    def player_view(self, pid: str) -> PlayerView:
        return player(self.session.state, pid)

    def page_view(self, pid: str) -> PlayerView:
        """What a phone's page shows: its view, around the room's part the feed made once for
        every phone (in the lobby the part's leaderboard lacks the latest joiners; no page
        shows a leaderboard before round 1)."""
        return self.feed.view(pid) if self.feed is not None else self.player_view(pid)

    def join_view(self) -> BoardView:
        """What the join page shows of the room (its phase, its doors, who joined)."""
        return self.feed.room_view() if self.feed is not None else self.board_view()

    def phones(self) -> pages.PhonesConnected:
        """How many of the players still in have a phone connected now, and how many there are."""
        present = [p.pid for p in self.session.state.players if p.present]
        return pages.PhonesConnected(self.presence.count(present), len(present))

    def board_language(self) -> Language:
        """The board speaks the session's language (as the poster); a phone its own."""
        return language(negotiate([str(self.session.settings.get("lang") or "")]))

    def board_part(self, timer: pages.Timer | None = None) -> str:
        wifi = wifi_of(self.session)
        view = self.feed.board_view() if self.feed is not None else self.board_view()
        finale = finale_view(self.session.state, self.session.room.finale)
        return pages.render_board_part(
            view, self.join_url(), self.phones(), self.board_language(), timer,
            wifi.name if wifi is not None else None, finale,
        )

    def timer(self) -> pages.Timer | None:
        return self.feed.made().timer() if self.feed is not None else None

    def start_feed(self) -> Feed:
        """The live pages (in the running loop, as the server starts)."""
        self.feed = Feed(self.session, self.board_part)
        self.feed.game_master = lambda push, box: game_master.deliver(self, push, box)
        return self.feed


NIGHT = web.AppKey("dilemma_night", NightContext)


def night_of(request: web.Request) -> NightContext:
    return request.app[NIGHT]


# ---- errors -----------------------------------------------------------------------------

_errors = error_middleware(
    lambda status, message: html(
        pages.render_problem(message, current()), status=status, private=False
    )
)


# ---- joining ----------------------------------------------------------------------------


def clean_name(text: str) -> str:
    """What a player typed, as a name: runs of spaces become one, ends trimmed."""
    return " ".join(text.split())


async def home(request: web.Request) -> web.Response:
    raise web.HTTPFound("/join-room")


async def join_page(request: web.Request) -> web.Response:
    night = night_of(request)
    token = request.cookies.get(COOKIE)
    if token is None:
        return _join_form(request, night.join_view(), page_language(request))
    # A seat cookie is a link like /d/TOKEN: guessed ones are counted and limited the same.
    try:
        pid = night.pid_for(request, token)
    except Problem as wrong:
        if wrong.status != 404:
            raise
        response = _join_form(request, night.join_view(), page_language(request))
        response.del_cookie(COOKIE)  # a seat this room does not have: not asked again
        return response
    view = night.player_view(pid)
    if view["me"] is not None and view["me"]["present"]:
        raise web.HTTPSeeOther(f"/d/{token}", headers=PRIVATE_HEADERS)
    return _join_form(request, night.join_view(), page_language(request))


def _join_form(
    request: web.Request,
    view: BoardView,
    lang: Language,
    said: str | None = None,
    name: str = "",
    status: int = 200,
) -> web.Response:
    """The join form, with the page's token (its cookie and its hidden field)."""
    tokens = night_of(request).page_tokens
    token = tokens.for_page(request)
    page = pages.render_join(view, lang, said, name[:MAX_NAME], page=token)  # as the box holds
    response = html(page, status=status)
    tokens.keep(request, response, token)
    return response


# The join form may be larger than any other request: a pasted name of thousands of letters
# (each up to 12 bytes as a form sends it) is read, so that its own sentence says its length.
JOIN_FORM_BODY = 64 * 1024


async def join_submit(request: web.Request) -> web.Response:
    night = night_of(request)
    form = await read_form(request.clone(client_max_size=JOIN_FORM_BODY))
    name = clean_name(str(form.get("name", "")))  # judged whole: its length is said truly
    view = night.join_view()
    lang = page_language(request)
    address = request.remote or "unknown"
    try:  # the form of the room's own page, not another site's (nor a stale one)
        night.page_tokens.check(request, form.get(PAGE_FIELD))
    except Problem as stale:
        return _join_form(request, view, lang, stale.text(lang), name, stale.status)
    lifted = night.session.settings.get(LIFTED_KEY) == "lifted"  # a proxy: one address for all
    if not view["doors_closed"] and not lifted:  # (closed doors: the rules' refusal says so)
        present = set(night.session.state.present())
        seats = ((pid, origin.address) for pid, origin in origins(night.session).items())
        allowed = night.joins.allows(address, present_from(address, seats, present))
        night.joins.tried(address)  # taken or refused, every try counts
        if not allowed:
            return _join_form(request, view, lang, lang(TOO_MANY_JOINS), name, 429)
    join = Join(pid=new_pid(), name=name)
    refused = night.session.history.try_command(join)  # first: a refused join writes nothing
    if isinstance(refused, Refused):
        return _join_form(request, view, lang, lang.refused(refused), name, 409)
    _, token = new_seat(night.session, address, pid=join.pid)
    try:
        night.session.submit(join, by="phone:join")
    except StoreError as error:
        with contextlib.suppress(StoreError):  # a token for nobody at worst
            forget(night.session, token)
        raise Problem(503, str(error)) from None
    response = web.HTTPSeeOther(f"/d/{token}", headers=PRIVATE_HEADERS)
    response.set_cookie(COOKIE, token, max_age=COOKIE_SECONDS, httponly=True, samesite="Lax")
    raise response


# ---- a player's page --------------------------------------------------------------------

# Every page, live part and answer tells the version of the state it shows (the log's latest
# row; see companion.web.common.fanout): a phone drops what is older than what it shows.


async def player_page(request: web.Request) -> web.Response:
    night = night_of(request)
    token = request.match_info["token"]
    view = night.page_view(night.pid_for(request, token))
    version = log_version(night.session)
    page = pages.render_player_page(view, token, page_language(request), night.timer(), version)
    return html(page, version=version)


async def player_part(request: web.Request) -> web.Response:
    night = night_of(request)
    pid = night.pid_for(request, request.match_info["token"])
    lang = page_language(request)
    version = log_version(night.session)
    if night.feed is not None:  # the shared part is made once per change for every phone
        return html(night.feed.part(pid, lang), version=version)
    return html(pages.render_player_part(night.player_view(pid), lang), version=version)


async def player_json(request: web.Request) -> web.Response:
    night = night_of(request)
    view = night.player_view(night.pid_for(request, request.match_info["token"]))
    return json_answer(view, version=log_version(night.session))


async def post_choice(request: web.Request) -> web.Response:
    night = night_of(request)
    pid = night.pid_for(request, request.match_info["token"])
    choice = await read_field(request, "choice", CHOICES)
    # committed with the choices that reach the loop with it, answered after that commit
    await submit_together(night.together, Choose(pid=pid, choice=choice), "phone")
    # The answer carries the page as of now (at least the row the choice appended), made once:
    # the stream of the page that posted (its tab) then gets only the counts after it.
    lang = page_language(request)
    answer: dict[str, object] = {"ok": True, "message": lang(SAVED[choice]), "choice": choice}
    version = log_version(night.session)
    if night.feed is not None:
        answer["html"] = night.feed.answer_part(pid, lang, tab_of(request.headers.get(TAB)))
    return json_answer(answer, version=version)


async def player_events(request: web.Request) -> web.StreamResponse:
    night = night_of(request)
    seat = night.pid_for(request, request.match_info["token"])
    feed = night.feed
    assert feed is not None
    lang = page_language(request)  # the phone's, for as long as the stream is open
    first = feed.first_page(seat)
    tab = tab_of(request.query.get("tab"))
    return await serve(
        request, feed.fanout, seat, lang, tab, first, attendance=(night.presence, seat)
    )


# ---- the board --------------------------------------------------------------------------


async def board_page(request: web.Request) -> web.Response:
    night = night_of(request)
    lang, version = night.board_language(), log_version(night.session)
    page = pages.render_board_page(night.board_part(night.timer()), lang, version)
    return html(page, private=False, version=version)


async def board_part(request: web.Request) -> web.Response:
    night = night_of(request)
    version = log_version(night.session)
    return html(night.board_part(night.timer()), private=False, version=version)


async def board_json(request: web.Request) -> web.Response:
    night = night_of(request)
    connected, players = night.phones()
    view = {**night.board_view(), "phones": {"connected": connected, "of": players}}
    return json_answer(view, version=log_version(night.session))


async def board_events(request: web.Request) -> web.StreamResponse:
    night = night_of(request)
    feed = night.feed
    assert feed is not None
    return await serve(
        request, feed.fanout, None, night.board_language(), None, feed.first_page(None)
    )


async def join_qr(request: web.Request) -> web.Response:
    svg = qr_svg(night_of(request).join_url())
    return web.Response(
        text=svg, content_type="image/svg+xml", headers={"Cache-Control": "no-cache"}
    )


# ---- the application --------------------------------------------------------------------


def build_dilemma_app(
    session: DilemmaSession,
    *,
    base: str | None = None,
    limiter: Limiter | None = None,
    joins: JoinLimiter | None = None,
) -> web.Application:
    """The dilemma's phone application for a session; ``base`` is the room link's base URL,
    ``joins`` how many may join from one device address (:mod:`companion.web.dilemma.joins`)."""
    night = NightContext(
        session, limiter or Limiter(), Presence(session), base, joins or JoinLimiter()
    )
    app = phone_app(session, night.start_feed, _errors, static_dir("companion.web.dilemma"))
    app[NIGHT] = night

    def pick(request: web.Request) -> Language:
        """The board speaks the session's language (as the poster); a phone its own."""
        if request.path.startswith(("/board", "/api/board")):
            return night.board_language()
        return phone_language(request)

    # outside the error middleware, so that its pages and sentences are in the same language
    app.middlewares.insert(0, language_middleware(pick))

    r = app.router
    r.add_get("/", home)
    r.add_get("/join-room", join_page)
    r.add_post("/join-room", join_submit)
    r.add_get("/join-room.svg", join_qr)
    r.add_get("/d/{token}", player_page)
    r.add_get("/d/{token}/part", player_part)
    r.add_get("/api/d/{token}", player_json)
    r.add_get("/api/d/{token}/events", player_events)
    r.add_post("/api/d/{token}/choice", post_choice)
    r.add_get("/board", board_page)
    r.add_get("/board/part", board_part)
    r.add_get("/api/board", board_json)
    r.add_get("/api/board/events", board_events)
    game_master.add_routes(app, night_of, TOO_MANY)
    return app


class DilemmaServer(PhoneServer):
    """A running dilemma server; ``base_url`` is what the room link is built on."""

    @property
    def join_url(self) -> str:
        return f"{self.base_url}/join-room"

    @property
    def board_url(self) -> str:
        return f"{self.base_url}/board"


async def start_dilemma_server(
    session: DilemmaSession,
    host: str = "0.0.0.0",
    port: int = DEFAULT_PORT,
    public_url: str | None = None,
    *,
    limiter: Limiter | None = None,
    joins: JoinLimiter | None = None,
    limits: Limits | None = None,
    desk: Desk | None = None,
) -> DilemmaServer:
    """Listen for phones on ``host:port`` inside the running loop (port 0: any free port).

    The room link uses ``public_url`` if given (pinned in the session), else a pinned one,
    else this laptop's address. Raises ``OSError`` when the port cannot be used.
    """
    app = build_dilemma_app(session, limiter=limiter, joins=joins)
    night = app[NIGHT]
    if desk is not None:  # the night's server: the game master's phone has its page
        night.desk = desk
        serve_page(desk, lambda: night.feed.secret_replaced() if night.feed else None)
        app.cleanup_ctx.append(counting(session))  # it closes each round at zero
    runner, bound, base = await listen(session, app, host, port, public_url, limits, desk)
    app[NIGHT].base_url = base
    return DilemmaServer(runner, host, bound, base)
