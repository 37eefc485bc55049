"""The phones and the board while the game's laptop is down, in real headless Chromium: the
phone server stopped under open pages (the laptop's server killed), or a proxy in front of it
gone silent (a laptop asleep: a request is neither answered nor refused).

What must hold: a tap meanwhile is said, beside the buttons tapped, not to be confirmed because
the game's laptop did not answer (refused or lost, a phone cannot tell), and no "Saved" stays
beside it; the server back on the
same port, the tap is sent by itself and shown saved, the session holding it; a tap the game
moved on from meanwhile is plainly shown as not sent, and never sent; the board says it lost
the laptop, stops its countdown and its count of phones, and comes back by itself.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import board_url, seat_url, seats_of
from companion.session.session import Session
from companion.web.common.server import PhoneServer
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import start_dilemma_server
from companion.web.prison.server import start_phone_server
from tests import stage_helpers as stage
from tests.chromium import CHROMIUM, Chromium, Page
from tests.conftest import ROSTER
from tests.dilemma_helpers import scenario
from tests.web.common.test_bad_network import Freezer
from tests.web.dilemma.conftest import ROOM_OF_PHONES

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

NOT_ANSWERING = "Not confirmed: the game's laptop did not answer."
MOVED_ON = "Not sent: the game's laptop did not answer, and the game has moved on since."
BESIDE = "(document.getElementById('beside') || {}).textContent || ''"
SAVED = "(document.getElementById('saved') || {}).textContent"
PHONES = "getComputedStyle(document.getElementById('phones')).visibility"  # the board's count
# The note sits right after the group of buttons tapped, on screen once they are.
BESIDE_THE_BUTTONS = (
    "(g => !!g && g.nextElementSibling === document.getElementById('beside')"
    " && document.getElementById('beside').getBoundingClientRect().height > 0)"
)


@contextlib.asynccontextmanager
async def prison(folder: Path) -> AsyncIterator[tuple[Session[Any], PhoneServer]]:
    session = create_prison_session(folder, "down", "classic", "Wendy", ROSTER)
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        yield session, server
    finally:
        await server.stop()
        session.close()


async def uncovered(page: Page) -> Page:
    await page.wait_for("document.body.dataset.ready === '1' && document.body.dataset.live")
    if await page.js("!document.getElementById('cover').hidden"):
        await page.click("#cover")
    return page


async def seat_page(chromium: Chromium, base: str, session: Session[Any], name: str) -> Page:
    seat = next(s for s in seats_of(session) if s.name == name)
    return await uncovered(await chromium.open(seat_url(base, seat)))


async def test_a_tap_while_the_server_is_down_is_sent_once_it_is_back(
    chromium: Chromium, tmp_path: Path
) -> None:
    """REST saved; the server stopped; WORK tapped: beside the buttons the page says the
    laptop is not answering, and "Saved: you REST tonight." is not on screen. The server
    started again on its port: WORK is sent by itself, and saved."""
    async with prison(tmp_path) as (session, server):
        port = server.port
        ada = await seat_page(chromium, server.base_url, session, "Ada")
        await ada.click("button[data-value=rest]")
        await ada.wait_for(f"{SAVED} === 'Saved: you REST tonight.'")
        await server.stop()
        await ada.click("button[data-value=work]")
        await ada.wait_for(f"({BESIDE}).includes({NOT_ANSWERING!r})", timeout=5)
        assert await ada.js(f"{BESIDE_THE_BUTTONS}(document.querySelector('.choices'))")
        assert await ada.js("document.querySelector('button.pending').dataset.value") == "work"
        text = await ada.text()
        assert "Saved" not in text, text
        assert session.state.day.choices["Ada"] == "rest"
        await ada.wait_for("document.body.dataset.lost === '1'", timeout=8)
        assert "laptop is not answering" in await ada.js(
            "document.getElementById('offline').textContent"
        )

        server = await start_phone_server(session, "127.0.0.1", port)
        await ada.wait_for(f"{SAVED} === 'Saved: you WORK tonight.'", timeout=10)
        await ada.wait_for("!document.getElementById('beside')")
        await ada.wait_for("document.getElementById('status').textContent.includes('WORK')")
        assert session.state.day.choices["Ada"] == "work"
        assert await ada.js("document.querySelector('button.chosen').dataset.value") == "work"
        await ada.wait_for("!document.body.dataset.lost")
        await ada.wait_for("document.getElementById('offline').hidden")


async def test_a_tap_the_game_moved_on_from_is_shown_not_sent(
    chromium: Chromium, tmp_path: Path
) -> None:
    """WORK tapped with the server down; the game master closes planning meanwhile (the
    console has the session): the server back, the page says plainly that WORK was not sent,
    and it never is."""
    async with prison(tmp_path) as (session, server):
        port = server.port
        ada = await seat_page(chromium, server.base_url, session, "Ada")
        await server.stop()
        await ada.click("button[data-value=work]")
        await ada.wait_for(f"({BESIDE}).includes({NOT_ANSWERING!r})", timeout=5)
        session.submit({"do": "close_planning"})
        server = await start_phone_server(session, "127.0.0.1", port)
        await ada.wait_for(
            f"document.getElementById('status').textContent.includes({MOVED_ON!r})", timeout=10
        )
        assert await ada.js("document.querySelector('button[data-value=work]')") is None
        await asyncio.sleep(1)
        assert "Ada" not in session.state.day.choices
        assert "Saved" not in await ada.text()


@contextlib.asynccontextmanager
async def refusing(page: Page, error: str) -> AsyncIterator[None]:
    """Meanwhile every POST of the page is answered 409 with ``error`` in the browser, as a
    server that refuses it would (the server never sees it)."""
    paused = page.listen("Fetch.requestPaused")
    await page.send("Fetch.enable", patterns=[{"urlPattern": "*/api/*", "requestStage": "Request"}])

    async def answer() -> None:
        while True:
            event = await paused.get()
            if event["request"]["method"] != "POST":
                await page.send("Fetch.continueRequest", requestId=event["requestId"])
                continue
            await page.send(
                "Fetch.fulfillRequest",
                requestId=event["requestId"],
                responseCode=409,
                responseHeaders=[{"name": "Content-Type", "value": "application/json"}],
                body=base64.b64encode(json.dumps({"error": error}).encode()).decode(),
            )

    task = asyncio.create_task(answer())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_a_kept_tap_refused_once_back_is_shown_not_sent(
    chromium: Chromium, tmp_path: Path
) -> None:
    """WORK kept while the server is down; back, its second sending is refused: the page says
    beside the buttons that it was not sent, and why, and no "Saved" stands there."""
    async with prison(tmp_path) as (session, server):
        port = server.port
        ada = await seat_page(chromium, server.base_url, session, "Ada")
        await server.stop()
        await ada.click("button[data-value=work]")
        await ada.wait_for(f"({BESIDE}).includes({NOT_ANSWERING!r})", timeout=5)
        async with refusing(ada, "The game master has paused the phones."):
            server = await start_phone_server(session, "127.0.0.1", port)
            refused = "Not sent when the game's laptop answered again: The game master has"
            await ada.wait_for(f"({BESIDE}).includes({refused!r})", timeout=10)
            assert await ada.js(f"{BESIDE_THE_BUTTONS}(document.querySelector('.choices'))")
            assert await ada.js("document.querySelector('button.pending')") is None
            assert "Saved" not in await ada.text()
            assert "Ada" not in session.state.day.choices


async def test_a_tap_while_the_laptop_sleeps_is_sent_when_it_wakes(
    chromium: Chromium, tmp_path: Path
) -> None:
    """A laptop asleep answers nothing: the POST waits its 1.5 s (the page's
    data-answer-within, 8 s when not told), then the page says the laptop is not answering,
    beside the buttons. The laptop awake, the tap is sent by itself."""
    async with prison(tmp_path) as (session, server):
        proxy = Freezer(server.port)
        await proxy.start()
        try:
            ada = await seat_page(chromium, f"http://127.0.0.1:{proxy.port}", session, "Ada")
            await ada.js("document.body.dataset.answerWithin = '1.5'; 1")
            proxy.flowing.clear()
            await ada.click("button[data-value=work]")
            await ada.wait_for(f"({BESIDE}).includes({NOT_ANSWERING!r})", timeout=5)
            assert await ada.js(f"{BESIDE_THE_BUTTONS}(document.querySelector('.choices'))")
            assert "Saved" not in await ada.text()
            proxy.flowing.set()
            await ada.wait_for(f"{SAVED} === 'Saved: you WORK tonight.'", timeout=10)
            # the tap sent again, or the first one let through late by the laptop waking: said
            await ada.wait_for(
                f"!document.getElementById('beside') || ({BESIDE}).includes('got there after all')"
            )
            assert session.state.day.choices["Ada"] == "work"
        finally:
            await proxy.stop()


async def test_the_warm_up_sends_a_tap_once_the_server_is_back(
    chromium: Chromium, tmp_path: Path
) -> None:
    session = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    joins = JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES)
    server = await start_dilemma_server(session, "127.0.0.1", 0, joins=joins)
    port = server.port
    try:
        page = await chromium.open(server.join_url)
        await page.wait_for("document.getElementById('name')")
        await page.js(
            "document.getElementById('name').value = 'Ada';"
            "document.querySelector('form button[type=submit]').click(); true"
        )
        await page.wait_for("location.pathname.startsWith('/d/') && document.body.dataset.live")
        session.submit({"do": "join", "pid": "pbob", "name": "Bob"})
        session.submit({"do": "start_round", "seed": 7})
        await page.wait_for("document.querySelector('button[data-choice=silent]')")
        await server.stop()
        await page.click("button[data-choice=betray]")
        await page.wait_for(f"({BESIDE}).includes({NOT_ANSWERING!r})", timeout=5)
        assert await page.js(f"{BESIDE_THE_BUTTONS}(document.querySelector('.choices'))")
        assert "Saved" not in await page.text()
        server = await start_dilemma_server(session, "127.0.0.1", port, joins=joins)
        await page.wait_for(f"({SAVED} || '').includes('Saved: you BETRAY.')", timeout=10)
        await page.wait_for("!document.getElementById('beside')")
        pid = next(p.pid for p in session.state.players if p.name == "Ada")
        assert session.state.current.choices[pid] == "betray"
    finally:
        await server.stop()
        session.close()


async def test_the_board_says_it_lost_the_laptop(chromium: Chromium, tmp_path: Path) -> None:
    """A planning clock running on the board; the server stopped: within a few seconds the
    board says it lost the game's laptop, its clock stands still and its count of phones is
    hidden. The server back: the board says nothing of it any more, and counts again."""
    async with prison(tmp_path) as (session, server):
        port = server.port
        stage.limit_planning(session, 300)
        board = await chromium.open(board_url(server.base_url))
        await board.wait_for("document.body.dataset.live && document.querySelector('.clock')")
        assert await board.js("document.getElementById('lost').hidden")
        await server.stop()
        await board.wait_for("!document.getElementById('lost').hidden", timeout=8)
        assert "Lost the game's laptop" in await board.text()
        assert await board.js(PHONES) == "hidden"
        shown = await board.js("document.querySelector('.clock').textContent")
        await asyncio.sleep(1.5)
        assert await board.js("document.querySelector('.clock').textContent") == shown

        server = await start_phone_server(session, "127.0.0.1", port)
        await board.wait_for("document.getElementById('lost').hidden", timeout=10)
        await board.wait_for("document.getElementById('offline').hidden")
        assert await board.js(PHONES) == "visible"
        shown = await board.js("document.querySelector('.clock').textContent")
        await board.wait_for(f"document.querySelector('.clock').textContent !== {shown!r}", 3)
