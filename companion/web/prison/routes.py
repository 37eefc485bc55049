"""The prison break's HTML pages as the server answers them: a seat's page and its live part,
the board's, the join form (a typed seat code) and the error page, each in the request's
language (:mod:`companion.web.prison.pages` renders them)."""

from __future__ import annotations

from aiohttp import web

from companion.language import N_
from companion.web.common.context import Problem, read_form
from companion.web.common.language import current, page_language
from companion.web.common.rendering import PRIVATE_HEADERS, html
from companion.web.prison.pages import (
    render_board_page,
    render_board_part,
    render_join,
    render_problem,
    render_seat_page,
    render_seat_part,
)
from companion.web.prison.phones import night_of, room_version

UNKNOWN_CODE = N_(
    "That seat code is not known; check the 8 letters and digits on your card and try again."
)


# Every page and live part tells the version of the state it shows (the log's latest row as it
# was rendered; see companion.web.common.fanout): a phone drops what is older than it shows.


async def seat_page(request: web.Request) -> web.Response:
    night = night_of(request)
    seat = night.seat_for(request, request.match_info["token"])
    version = room_version(night.session)
    page = render_seat_page(night.seat_view(seat), seat, page_language(request), version)
    return html(page, version=version)


async def seat_part(request: web.Request) -> web.Response:
    night = night_of(request)
    seat = night.seat_for(request, request.match_info["token"])
    version = room_version(night.session)
    part = render_seat_part(night.seat_view(seat), seat, page_language(request))
    return html(part, version=version)


async def board_page(request: web.Request) -> web.Response:
    night = night_of(request)
    view, lang, version = night.board_view(), page_language(request), room_version(night.session)
    page = render_board_page(view, night.base_url, lang, version, night.wifi_name())
    return html(page, private=False, version=version)


async def board_part(request: web.Request) -> web.Response:
    night = night_of(request)
    view, lang, version = night.board_view(), page_language(request), room_version(night.session)
    part = render_board_part(view, night.base_url, lang, night.wifi_name())
    return html(part, private=False, version=version)


async def join_page(request: web.Request) -> web.Response:
    return html(render_join(lang=page_language(request)), private=False)


async def join_submit(request: web.Request) -> web.Response:
    night = night_of(request)
    lang = page_language(request)
    form = await read_form(request)
    code = str(form.get("code", ""))[:40]
    try:
        seat = night.seat_for_code(request, code)
    except Problem as paused:  # on the join form, where the code is typed again
        page = render_join(paused.text(lang), code, lang)
        return html(page, status=paused.status, private=False)
    if seat is None:
        return html(render_join(lang(UNKNOWN_CODE), code, lang), status=404, private=False)
    raise web.HTTPSeeOther(f"/p/{seat.token}", headers=PRIVATE_HEADERS)


async def home(request: web.Request) -> web.Response:
    raise web.HTTPFound("/join")


def problem_page(problem: Problem) -> web.Response:
    """An error page in the request's language (the sentence comes translated)."""
    page = render_problem(problem.message, current())
    return html(page, status=problem.status, private=False)

