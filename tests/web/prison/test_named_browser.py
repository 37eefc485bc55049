"""In real headless Chromium: the warden ticks whom the informant named, the page is redrawn
(the game master pauses the countdown) with the boxes still ticked, and the deal's second tap
sends them along."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.rules.prison.stage import Pause
from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import seat_url, seats_of
from companion.web.prison.server import start_phone_server
from tests import stage_helpers as stage
from tests.chromium import CHROMIUM, Chromium

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]
ROSTER = ["Ada", "Ben", "Cy", "Eve <b>"]


async def test_the_warden_ticks_names_and_deals(chromium: Chromium, tmp_path: Path) -> None:
    session = create_prison_session(tmp_path, "named", "classic", "Wendy", ROSTER)
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        wendy = next(s for s in seats_of(session) if s.name == "Wendy")
        session.submit({"do": "close_planning"})
        stage.call_in(session, "Cy", 90)
        page = await chromium.open(seat_url(server.base_url, wendy))
        await page.wait_for("document.body.dataset.ready === '1'")
        await page.click("#cover")
        await page.wait_for("document.querySelectorAll('input[name=named]').length === 3")
        await page.click("input[name=named][value='Eve <b>']")
        await page.click("input[name=named][value=Ada]")
        version = await page.js("document.body.dataset.version")
        session.stage(Pause(time.time(), "interview"))  # a new part comes to the page
        await page.wait_for(f"document.body.dataset.version !== {version!r}")
        ticked = await page.js(
            "Array.from(document.querySelectorAll('input[name=named]:checked'))"
            ".map(b => b.value).join('|')"
        )
        assert ticked == "Ada|Eve <b>"  # still ticked after the new part, in listed order
        await page.screenshot(tmp_path / "warden.png")  # to look at
        await page.click("button.deal[data-value=Cy]")  # the first tap asks to confirm
        await page.click("button.deal[data-value=Cy]")
        await page.wait_for("document.getElementById('deals-left').textContent === '0'")
        assert session.state.day.named == (("Cy", ("Ada", "Eve <b>")),)
    finally:
        await server.stop()
        session.close()
