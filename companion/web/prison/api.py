"""The JSON API the pages use (tests and tools may too).

- ``GET /api/p/TOKEN``: that seat's view; ``GET /api/board``: the table view;
- ``POST /api/p/TOKEN/choice`` ``{"choice": "work" | "rest"}`` (a prisoner);
- ``POST /api/p/TOKEN/deal`` and ``/search`` ``{"prisoner": NAME}`` (the warden);
- ``GET /api/p/TOKEN/events`` and ``/api/board/events``: server-sent events.

A POST is answered only after ``Session.submit`` returned, that is after its events were
committed to the session file. Sending the same thing twice is harmless: what is already so
is acknowledged without recording anything again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aiohttp import web

from companion.session.seats import Seat
from companion.web.common.context import Problem, json_answer, read_field, submit_for_phone
from companion.web.common.events import stream
from companion.web.prison.pages import render_board_part, render_seat_part
from companion.web.prison.phones import Phones, board_view, phones_of, seat_view


def _submit(phones: Phones, command: dict[str, Any], seat: Seat) -> None:
    submit_for_phone(phones.session, command, f"phone:{seat.name}")


def _seat(request: web.Request, role: str, doing: str) -> tuple[Phones, Seat]:
    phones = phones_of(request)
    seat = phones.seat_for(request, request.match_info["token"])
    if seat.role != role:
        who = "the warden" if role == "warden" else "a prisoner"
        raise Problem(403, f"Only {who} can {doing}; this page is {seat.name}'s.")
    return phones, seat


async def get_seat(request: web.Request) -> web.Response:
    phones = phones_of(request)
    seat = phones.seat_for(request, request.match_info["token"])
    return json_answer(seat_view(phones.session.state, seat))


async def get_board(request: web.Request) -> web.Response:
    return json_answer(board_view(phones_of(request).session.state))


async def post_choice(request: web.Request) -> web.Response:
    phones, seat = _seat(request, "prisoner", "choose work or rest")
    choice = await read_field(request, "choice", ("work", "rest"))
    view: Mapping[str, Any] = seat_view(phones.session.state, seat)
    if not (view["phase"] == "planning" and view["me"]["choice"] == choice):
        _submit(phones, {"do": "choose", "prisoner": seat.name, "choice": choice}, seat)
        view = seat_view(phones.session.state, seat)
    message = f"Saved: you {choice.upper()} tonight."
    return json_answer({"ok": True, "message": message, "view": view})


async def post_deal(request: web.Request) -> web.Response:
    phones, seat = _seat(request, "warden", "give a parole token")
    name = await read_field(request, "prisoner", None)
    view: Mapping[str, Any] = seat_view(phones.session.state, seat)
    done = {"day": view["day"], "prisoner": name} in view["deal_history"]
    if not done:
        _submit(phones, {"do": "interview", "prisoner": name, "deal": True}, seat)
        view = seat_view(phones.session.state, seat)
    message = f"Done: {name} received today's parole token."
    return json_answer({"ok": True, "message": message, "view": view})


async def post_search(request: web.Request) -> web.Response:
    phones, seat = _seat(request, "warden", "search a cell")
    name = await read_field(request, "prisoner", None)
    view = seat_view(phones.session.state, seat)
    if all(s["prisoner"] != name for s in view["today"]["searches"]):
        _submit(phones, {"do": "search", "prisoner": name}, seat)
        view = seat_view(phones.session.state, seat)
    found = [s for s in view["today"]["searches"] if s["prisoner"] == name]
    caught = bool(found and found[0]["caught"])
    how = "was caught working" if caught else "was safe, not working"
    message = f"Searched {name}'s cell: {name} {how}."
    return json_answer({"ok": True, "message": message, "view": view})


async def seat_events(request: web.Request) -> web.StreamResponse:
    phones = phones_of(request)
    token = request.match_info["token"]
    seat = phones.seat_for(request, token)
    assert phones.hub is not None
    last: dict[str, Any] = {}

    def payload() -> dict[str, Any] | None:
        current = phones.find_seat(token)
        if current is None:
            return None
        view = seat_view(phones.session.state, current)
        if last.get("view") != view:  # render only what changed for this seat
            last.update(view=view, data={"view": view, "html": render_seat_part(view, current)})
        data: dict[str, Any] = last["data"]
        return data  # the same object when nothing changed: nothing is rendered again

    return await stream(request, phones.hub, payload, attendance=(phones.presence, seat.name))


async def board_events(request: web.Request) -> web.StreamResponse:
    phones = phones_of(request)
    assert phones.hub is not None

    last: dict[str, Any] = {}

    def payload() -> dict[str, Any]:
        view = board_view(phones.session.state)
        if last.get("view") != view:
            html = render_board_part(view, phones.base_url)
            last.update(view=view, data={"view": view, "html": html})
        data: dict[str, Any] = last["data"]
        return data

    return await stream(request, phones.hub, payload)
