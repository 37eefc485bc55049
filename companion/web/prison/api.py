"""The JSON API the pages use (tests and tools may too).

- ``GET /api/p/TOKEN``: that seat's view; ``GET /api/board``: the table view;
- ``POST /api/p/TOKEN/choice`` ``{"choice": "work" | "rest"}`` (a prisoner);
- ``POST /api/p/TOKEN/deal`` and ``/search`` ``{"prisoner": NAME}`` (the warden): a deal only
  with the prisoner the game master called in, with ``"named": [NAME, ...]``, whom that
  informant named (missing or empty: nobody); a search is held (its answer does not tell the
  result) until the game master steps through its reveal, and no other search starts meanwhile;
- ``GET /api/p/TOKEN/events`` and ``/api/board/events``: server-sent events. Each stream's
  first message is a ``view`` (``{"view": ..., "html": the live part}``), and so is every
  change of what its page shows; on a prisoner's page, a change of the choices' count alone
  (another prisoner chose) comes as a ``patch`` (``{"progress": "k of n prisoners have
  chosen tonight."}``, the same for every prisoner in a language, nothing of any seat in it);
  a change that alters nothing on a page comes as an empty patch, which moves its id on (the
  common fan-out's :func:`~companion.web.common.fanout.show` decides, from each page's key
  and texts: :func:`page_of`).

Every view is the room's (:mod:`companion.web.prison.phones`): with the stage, and without a
held search's result.

A POST is answered only after its events were committed to the session file. The choices
that reach the server's loop together are decided one after the other and committed together
(:mod:`companion.web.common.group_commit`, as the warm-up's), each answered after that commit; a
deal and a search, whose checks read the room's stage, are submitted alone. Sending the same
thing twice is harmless: what is already so when the request arrives is acknowledged
without recording anything again.
"""

from __future__ import annotations

from aiohttp import web

from companion.language import N_, Language
from companion.rules.prison.commands import Choice, Choose, Interview, PrisonCommand, Search
from companion.rules.prison.room import PrisonerRoomView, seat_game_view, with_stage
from companion.rules.prison.stage import Stage
from companion.rules.prison.state import PrisonState
from companion.rules.prison.views import TableView, choosers_only, prisoner_me, table
from companion.session.prison.seats import Seat, by_token
from companion.session.session import Change
from companion.web.common.context import (
    Problem,
    json_answer,
    read_field,
    read_field_and_list,
    submit_for_phone,
)
from companion.web.common.fanout import PACE, Fanout, Page, Push, Urgency, moves, serve, show
from companion.web.common.group_commit import submit_together
from companion.web.common.language import page_language
from companion.web.common.outbox import Outbox, dumps
from companion.web.prison import game_master
from companion.web.prison.pages import (
    kept,
    render_board_part,
    render_progress,
    render_seat_part,
)
from companion.web.prison.phones import (
    NightContext,
    SeatView,
    StreamMemory,
    night_of,
    room_version,
    seat_view,
)


def _submit(night: NightContext, command: PrisonCommand, seat: Seat) -> None:
    submit_for_phone(night.session, command, f"phone:{seat.name}")


# Who may do what, as the refusal says it to anyone else.
ONLY = {
    "choice": N_("Only a prisoner can choose work or rest; this page is %(name)s's."),
    "deal": N_("Only the warden can give a parole token; this page is %(name)s's."),
    "search": N_("Only the warden can search a cell; this page is %(name)s's."),
}
CHOICES: tuple[Choice, ...] = ("work", "rest")
SAVED = {"work": N_("Saved: you WORK tonight."), "rest": N_("Saved: you REST tonight.")}


def _seat(request: web.Request, role: str, action: str) -> tuple[NightContext, Seat]:
    night = night_of(request)
    seat = night.seat_for(request, request.match_info["token"])
    if seat.role != role:
        raise Problem(403, ONLY[action], name=seat.name)
    return night, seat


async def get_seat(request: web.Request) -> web.Response:
    night = night_of(request)
    seat = night.seat_for(request, request.match_info["token"])
    view = seat_view(night.session, seat, night.clock())
    return json_answer(view, version=room_version(night.session))


async def get_board(request: web.Request) -> web.Response:
    night = night_of(request)
    return json_answer(night.board_view(), version=room_version(night.session))


async def post_choice(request: web.Request) -> web.Response:
    night, seat = _seat(request, "prisoner", "choice")
    choice = await read_field(request, "choice", CHOICES)
    state = night.session.state
    if not (state.phase == "planning" and state.day.choices.get(seat.name) == choice):
        command = Choose(prisoner=seat.name, choice=choice)
        await submit_together(night.together, command, f"phone:{seat.name}")
    return _prisoner_answer(night, page_language(request)(SAVED[choice]), seat)


def _prisoner_answer(night: NightContext, message: str, seat: Seat) -> web.Response:
    """A prisoner's POST answer as :func:`_answer` says, the view's table being the JSON text
    every prisoner's stream shares (:class:`SharedTable`: made here once for the new state,
    and used again by the push that follows)."""
    room = night.session.room.game
    _, shared_json = night.shared.of(room)
    me, stage = prisoner_me(room, seat.name), night.stage_view()
    text = (
        '{"ok":true,"message":' + dumps(message) + ',"view":{' + shared_json + ',"me":'
        + dumps(me) + ',"stage":' + dumps(stage) + "}}"
    )
    return json_answer(text, version=room_version(night.session), encoded=True)


def _answer(night: NightContext, message: str, view: SeatView) -> web.Response:
    """A POST's answer: what it did, the seat's view now and (``X-View-Version``) the version
    of that view, which is at least the row the command appended: a page that shows less
    fetches its part, one that shows more (the answer came late) drops it."""
    return json_answer(
        {"ok": True, "message": message, "view": view}, version=room_version(night.session)
    )


def not_in_with_you(name: str, stage: Stage) -> Problem | None:
    """Why the warden may not deal with ``name`` now (``None``: she may)."""
    if stage.interview is None:
        return Problem(
            409, N_("Nobody is in with you now; the game master calls each prisoner in.")
        )
    if stage.interview.prisoner != name:
        return Problem(
            409, N_("%(name)s is not in with you; the game master calls each prisoner in."),
            name=name,
        )
    return None


async def post_deal(request: web.Request) -> web.Response:
    night, seat = _seat(request, "warden", "deal")
    name, named = await read_field_and_list(request, "prisoner", "named")
    state = night.session.state
    done = (name, True) in state.day.interviews
    if not done:  # sent twice (the answer was lost): acknowledged, not refused
        refusal = not_in_with_you(name, night.session.room.stage)
        if refusal is not None:
            raise refusal
        _submit(night, Interview(prisoner=name, deal=True, named=named), seat)
    _ = page_language(request)
    message = _("Done: %(name)s received today's parole token.", name=name)
    view = seat_view(night.session, seat, night.clock())
    return _answer(night, message, view)


HELD = N_(
    "The game master is still revealing the last search to the room; search again once "
    "the room has seen it."
)


HELD_DONE = N_("Today's search is made; the game master is revealing it to the room.")


async def post_search(request: web.Request) -> web.Response:
    night, seat = _seat(request, "warden", "search")
    name = await read_field(request, "prisoner", None)
    state = night.session.state
    if all(prisoner != name for prisoner, _ in state.day.searches):
        if night.session.room.held is not None:
            raise Problem(409, HELD if state.searches_left() else HELD_DONE)
        _submit(night, Search(prisoner=name), seat)
    _ = page_language(request)
    message = _("Searched %(name)s's cell; the game master now reveals it to the room.", name=name)
    view = seat_view(night.session, seat, night.clock())
    return _answer(night, message, view)


def _ticking(stage: Stage) -> bool:
    """Whether a countdown is running (a view made now differs from one made a second ago)."""
    return any(c is not None and not c.paused for c in (stage.clock("interview"), stage.planning))


def progress_texts(table_view: TableView, lang: Language) -> dict[str, str]:
    """The texts a change of the counts alone changes on a prisoner's page, by element id."""
    return {"progress": render_progress(table_view, lang)}


# prisoners' whole messages, by exactly what they are made of (the language, the seat, the JSON
# of the table, their own part and the stage)
_WHOLE: dict[tuple[object, ...], str] = {}


def prisoner_page(
    night: NightContext, box: Outbox[StreamMemory], seat: Seat, room: PrisonState,
    stage: Stage, chose: frozenset[str] | None = None,
) -> Page:
    """A prisoner's page: its whole view and part (JSON text: the table every prisoner shares
    is encoded once, :class:`SharedTable`) made of the table but its counts, the prisoner's
    own part and the stage; its counts' line a text a patch may change (the same for every
    prisoner in a language). A countdown on the page goes on ticking on the phone from the
    time left it was sent with, so a running clock alone changes nothing.

    ``chose``: who alone chose since the last push, if that is all that changed (the push's
    :func:`choosers_only`); a stream that push served, of any other prisoner, then has at most
    the counts to hear, told without making its key again to compare."""
    lang = box.lang
    shared, shared_json = night.shared.of(room)
    texts = night.shared.counts_texts(lang.code, lambda: progress_texts(shared, lang))
    if chose is not None and box.memory.at == night.pushes - 1 and seat.name not in chose:
        return Page(box.key, _never, texts)
    me = prisoner_me(room, seat.name)

    def whole() -> str:
        now = night.stage_view()
        me_json, now_json = dumps(me), dumps(now)

        def make() -> str:
            view = PrisonerRoomView(**shared, me=me, stage=now)
            html = render_seat_part(view, seat, lang)
            return (
                '{"view":{' + shared_json + ',"me":' + me_json + ',"stage":' + now_json
                + '},"html":' + dumps(html) + "}"
            )

        # made from these alone: the same again (a prisoner taking a choice back) is not
        # rendered again
        return kept(_WHOLE, (lang.code, seat, shared_json, me_json, now_json), make)

    return Page((night.shared.look, me, stage), whole, texts, share=(seat.token, lang.code))


def _never() -> str:
    raise AssertionError("a page whose key is the one it shows is never sent whole")


def _seat_of(night: NightContext, watch: StreamMemory, token: str) -> Seat | None:
    """A stream's seat, looked up again only when the seats changed (a reissue)."""
    seats = night.seats()
    if seats is not watch.looked_up[0]:
        watch.looked_up = (seats, by_token(seats, token))
    return watch.looked_up[1]


def page_of(
    night: NightContext, push: Push, box: Outbox[StreamMemory], room: PrisonState, stage: Stage,
    chose: frozenset[str] | None = None,
) -> Page | None:
    """What ``box``'s stream shows now (``None``: its seat no longer exists); while a countdown
    runs, a board's and a warden's view always anew, with the seconds left as of now."""
    watch, lang = box.memory, box.lang
    if watch.token is None:  # the board: its view made once per push and language

        def board() -> str:
            view = night.board_view()
            part = render_board_part(view, night.base_url, lang, night.wifi_name())
            return dumps({"view": view, "html": part})

        key = push.memo("board", lambda: (table(room), stage, night.phones_count()))
        return Page(None if _ticking(stage) else key, board, share=("board", lang.code))
    current = _seat_of(night, watch, watch.token)
    if current is None:
        return None
    if current.role == "prisoner":
        return prisoner_page(night, box, current, room, stage, chose)
    game = seat_game_view(night.session.room.warden_game, current.role, current.name)

    def whole() -> str:  # the game view above, with the stage as of now
        view = with_stage(game, night.stage_view())
        return dumps({"view": view, "html": render_seat_part(view, current, lang)})

    return Page(None if _ticking(stage) else (game, stage), whole, share=(current.token, lang.code))


def publish(night: NightContext, push: Push) -> None:
    """Every open stream's message for this push (the room's game and stage read once): the
    seats' first, so that the board's count of phones knows of the pages a reissue closed."""
    if night.fanout is not None:
        room, stage = night.session.room.game, night.session.room.stage
        last, night.pushed = night.pushed, (room, stage)
        chose = choosers_only(last[0], room) if last is not None and last[1] == stage else None
        warden_only = night.warden_only(last)
        night.pushes += 1
        audiences = night.fanout.audiences
        for token, boxes in list(audiences.items()):  # the seats first: the board counts them
            if token is not None and token != game_master.AUDIENCE:
                for box in list(boxes):
                    if warden_only and not night.is_wardens(box.memory):
                        continue
                    show(push, box, page_of(night, push, box, room, stage, chose))
                    box.memory.at = night.pushes
        if not warden_only:  # else a record held from the room: only the warden's pages hear it
            for box in list(audiences.get(None, ())):
                show(push, box, page_of(night, push, box, room, stage))
        for box in list(audiences.get(game_master.AUDIENCE, ())):
            game_master.deliver(night, night.desk, push, box)


def urgency(change: Change) -> Urgency:
    """How soon the prison's streams hear of ``change``: a move of the game (a command, an
    undo, a note) at once, on the loop's next turn, even right after another push (the group
    commit already gathers the choices that arrive together into one change of the room); a
    phone that came or went with the changes around it (the board's count of phones), so that
    a room of phones arriving costs a push per ``PACE``, not one each."""
    if change.kind != "signal":
        return "urgent"
    return "calm" if moves(change) else None


def start_fanout(night: NightContext) -> Fanout[StreamMemory]:
    """The live updates of the phones' pages (in the running loop, as the server starts)."""
    night.fanout = Fanout(
        night.session, urgency, lambda push: publish(night, push), pace=0.0, calm=PACE,
        version=room_version,
    )
    return night.fanout


async def _serve(
    request: web.Request, night: NightContext, watch: StreamMemory, seat: Seat | None
) -> web.StreamResponse:
    assert night.fanout is not None

    def first(box: Outbox[StreamMemory], push: Push) -> None:
        room = night.session.room
        show(push, box, page_of(night, push, box, room.game, room.stage))

    lang: Language = page_language(request)  # the phone's, for as long as the stream is open
    attendance = (night.presence, seat.name) if seat is not None else None
    return await serve(
        request, night.fanout, watch.token, lang, watch, first, attendance=attendance,
        direct=True,
    )


async def seat_events(request: web.Request) -> web.StreamResponse:
    night = night_of(request)
    token = request.match_info["token"]
    seat = night.seat_for(request, token)
    return await _serve(request, night, StreamMemory(token), seat)


async def board_events(request: web.Request) -> web.StreamResponse:
    night = night_of(request)
    return await _serve(request, night, StreamMemory(None), None)
