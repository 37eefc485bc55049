"""The warm-up board's sound button tells the truth: in a browser that lets a page make sound
only after a gesture, it says "click to allow" until the browser's audio runs, and a click
then unlocks the sound rather than turning it off (real headless Chromium, a real click)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session.session import Session
from companion.web.dilemma.server import start_dilemma_server
from tests.chromium import CHROMIUM, Chromium
from tests.dilemma_helpers import scenario

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

LABEL = "document.getElementById('sound').textContent"


async def test_the_sound_button_says_click_to_allow_and_a_click_unlocks(tmp_path: Path) -> None:
    browser = Chromium()  # headless, it lets a page make sound only after a gesture
    await browser.start()
    session = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    server = await start_dilemma_server(session, "127.0.0.1", 0)
    try:
        board = await browser.open(server.board_url)
        await board.wait_for("document.body.dataset.live")
        assert await board.js(LABEL) == "Sound: on, click to allow (m)"
        box = await board.js(
            "(r => [r.left + r.width / 2, r.top + r.height / 2])"
            "(document.getElementById('sound').getBoundingClientRect())"
        )
        for kind in ("mousePressed", "mouseReleased"):
            await board.send(
                "Input.dispatchMouseEvent",
                type=kind,
                x=box[0],
                y=box[1],
                button="left",
                clickCount=1,
            )
        await board.wait_for(f"{LABEL} === 'Sound: on (m)'")
        assert await board.js("document.getElementById('sound').getAttribute('aria-pressed')") == (
            "true"
        )
        assert await board.js("localStorage.getItem('dilemma-board-sound')") is None
        for kind in ("keyDown", "keyUp"):  # now m turns it off
            await board.send("Input.dispatchKeyEvent", type=kind, key="m", text="m", code="KeyM")
        await board.wait_for(f"{LABEL} === 'Sound: off (m)'")
    finally:
        await server.stop()
        session.close()
        await browser.stop()
