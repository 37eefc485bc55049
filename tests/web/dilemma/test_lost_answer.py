"""A tap whose answer is lost on the way back (the laptop took the choice; the connection was
cut before its answer reached the phone), in real headless Chromium: the page says beside the
buttons that the tap could not be confirmed, never that it was not sent, and once the game's
part comes it says the tap got there, with the card's "Saved" line showing what the game holds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from companion.session.dilemma.seats import new_seat
from companion.session.session import Session
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import start_dilemma_server
from tests.chromium import CHROMIUM, Chromium
from tests.dilemma_helpers import scenario
from tests.web.dilemma.conftest import ROOM_OF_PHONES

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

BESIDE = "(document.getElementById('beside') || {}).textContent || ''"


async def test_a_tap_whose_answer_is_lost_is_said_unconfirmed_then_held(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "lost.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    joins = JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES)
    server = await start_dilemma_server(session, "127.0.0.1", 0, joins=joins)
    browser = Chromium()
    await browser.start()
    try:
        seats = {}
        for name in ("Ada", "Ben"):
            pid, token = new_seat(session, "127.0.0.1")
            session.submit({"do": "join", "pid": pid, "name": name}, by="phone:join")
            seats[name] = (pid, token)
        session.submit({"do": "start_round", "seed": 3})
        page = await browser.open(f"{server.base_url}/d/{seats['Ada'][1]}")
        await page.wait_for("document.body.dataset.live && document.getElementById('facing')")
        # The choice reaches the laptop; its answer is cut on the way back.
        await page.send(
            "Fetch.enable", patterns=[{"urlPattern": "*/choice", "requestStage": "Response"}]
        )
        paused = page.listen("Fetch.requestPaused")
        await page.click("button[data-choice=betray]")
        answer = await asyncio.wait_for(paused.get(), 15)
        assert session.state.open_round() is not None
        choice = session.state.open_round().choices[seats["Ada"][0]]  # type: ignore[union-attr]
        assert choice == "betray"  # the game holds it
        await page.send("Fetch.failRequest", requestId=answer["requestId"], errorReason="Failed")
        await page.send("Fetch.disable")
        await page.wait_for(f"{BESIDE}.includes('Not confirmed')")
        said = await page.js(f"{BESIDE} + ' ' + document.getElementById('status').textContent")
        assert "Not sent" not in said
        # The page then shows what the game holds, and says the tap got there after all.
        pressed = "document.querySelector('button[data-choice=betray]').ariaPressed === 'true'"
        saved = "document.getElementById('saved').textContent.includes('Saved: you BETRAY.')"
        await page.wait_for(f"{BESIDE}.includes('got there after all') && {pressed} && {saved}", 20)
        # No second choice row: the tap was not sent again.
        commands = [r.body["command"]["do"] for r in session.rows if r.kind == "command"]
        assert commands.count("choose") == 1
    finally:
        await browser.stop()
        await server.stop()
        session.close()
