"""The venue's Wi-Fi password never reaches a phone: every page, live part, API answer and first
event of a stream of both games' servers is read with the session keeping a Wi-Fi, and none
carries the password (raw or escaped) or the code's text; the board shows the network's name and
the code's image, ``/wifi.svg``, which only exists while the session keeps one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.session.prison.seats import seats_of
from companion.session.session import Session
from companion.session.wifi import Wifi, escape, forget_wifi, keep_wifi
from companion.web.common.context import Limiter
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import build_dilemma_app
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.dilemma_helpers import scenario
from tests.web.forms import post_join

NAME = "Hall <b>"  # shown on the board as text, never as markup
PASSWORD = "Zq9;sec,ret:P\\w"
WIFI = Wifi(NAME, PASSWORD)
SECRETS = (PASSWORD, escape(PASSWORD), "WIFI:", "Zq9")


def _clean(body: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in body, (where, secret)


async def _first_event(client: TestClient, path: str) -> str:
    response = await client.get(path)
    assert response.status == 200, path
    try:
        chunk = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 10)
    finally:
        response.close()
    return chunk.decode()


@pytest.fixture
async def prison(tmp_path: Path) -> AsyncIterator[tuple[TestClient, Session]]:
    session = demo_session(tmp_path, "w")
    keep_wifi(session, WIFI)
    server = TestServer(build_app(session, base="http://192.0.2.7:8765"), host="127.0.0.1")
    try:
        async with TestClient(server) as client:
            yield client, session
    finally:
        session.close()


async def test_no_prison_phone_page_carries_the_password(
    prison: tuple[TestClient, Session],
) -> None:
    client, session = prison
    for path in ("/", "/join", "/check"):
        response = await client.get(path)
        _clean(await response.text(), path)
    for seat in seats_of(session):
        for path in (f"/p/{seat.token}", f"/p/{seat.token}/part", f"/api/p/{seat.token}"):
            response = await client.get(path)
            assert response.status == 200, path
            _clean(await response.text(), path)
        _clean(await _first_event(client, f"/api/p/{seat.token}/events"), "seat events")
    response = await client.post("/join", data={"code": seats_of(session)[1].code})
    _clean(await response.text(), "join with a code")


async def test_the_prison_board_shows_the_name_and_the_code_image(
    prison: tuple[TestClient, Session],
) -> None:
    client, session = prison
    for path in ("/board", "/board/part", "/api/board"):
        response = await client.get(path)
        body = await response.text()
        _clean(body, path)
        if path != "/api/board":  # the view's JSON has no Wi-Fi: the page shows it
            assert "/wifi.svg" in body and "Hall &lt;b&gt;" in body, path
    _clean(await _first_event(client, "/api/board/events"), "board events")
    code = await client.get("/wifi.svg")
    assert code.status == 200 and code.content_type == "image/svg+xml"
    assert "no-store" in code.headers["Cache-Control"]
    forget_wifi(session)
    assert (await client.get("/wifi.svg")).status == 404
    assert "/wifi.svg" not in await (await client.get("/board/part")).text()


async def test_no_warm_up_phone_page_carries_the_password(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    keep_wifi(session, WIFI)
    app = build_dilemma_app(session, base="http://192.0.2.7:8765", limiter=Limiter(5, 60.0),
                            joins=JoinLimiter(100, 100))
    try:
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:
            for path in ("/", "/join-room", "/check"):
                _clean(await (await client.get(path)).text(), path)
            joined = await post_join(client, "/join-room", {"name": "Ada"},
                                       allow_redirects=False)
            token = joined.headers["Location"].rsplit("/", 1)[1]
            for path in (f"/d/{token}", f"/d/{token}/part", f"/api/d/{token}"):
                response = await client.get(path)
                assert response.status == 200, path
                _clean(await response.text(), path)
            _clean(await _first_event(client, f"/api/d/{token}/events"), "player events")
            for path in ("/board", "/board/part", "/api/board"):
                _clean(await (await client.get(path)).text(), path)
            board = await (await client.get("/board")).text()
            assert "/wifi.svg" in board and "Hall &lt;b&gt;" in board
            _clean(await _first_event(client, "/api/board/events"), "board events")
            assert (await client.get("/wifi.svg")).status == 200
    finally:
        session.close()
