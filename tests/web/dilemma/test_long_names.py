"""A 40-letter name with no break in it, on a phone 360 px wide: it wraps, and no column of the
warm-up's pages (whom you face, the sentences, the leaderboard) leaves the screen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.session.session import Session
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import start_dilemma_server
from tests.chromium import CHROMIUM, Chromium
from tests.dilemma_helpers import scenario
from tests.web.dilemma.conftest import ROOM_OF_PHONES

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

LONG = "W" * 40
# Every element showing (part of) the name, and every leaderboard cell, lies inside the window.
OUTSIDE = (
    "(() => { const out = [];"
    " for (const e of document.querySelectorAll('main *, .page *')) {"
    "  const r = e.getBoundingClientRect(); if (!r.width) continue;"
    "  const named = e.textContent.includes('WWWWWWWWWW');"
    "  if ((named || e.closest('table')) && r.right > innerWidth + 1)"
    "   out.push(e.tagName + ' ' + Math.round(r.right)); }"
    " if (document.documentElement.scrollWidth > innerWidth) out.push('page '"
    "  + document.documentElement.scrollWidth);"
    " return out; })()"
)


async def test_a_long_unbroken_name_wraps_on_every_phone(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario(rounds=3)})
    joins = JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES)
    server = await start_dilemma_server(session, "127.0.0.1", 0, joins=joins)
    browser = Chromium("--window-size=360,740")
    await browser.start()
    try:
        pages = {}
        for name in (LONG, "Ada", "Ben"):
            page = await browser.open(server.join_url)
            await page.wait_for("document.getElementById('name')")
            await page.js(
                f"document.getElementById('name').value = {json.dumps(name)};"
                "document.querySelector('form button[type=submit]').click(); true"
            )
            await page.wait_for("location.pathname.startsWith('/d/')")
            pages[name] = page
        session.submit({"do": "start_round", "seed": 3})
        for p in session.state.players:
            session.submit({"do": "choose", "pid": p.pid, "choice": "betray"})
        for name, page in pages.items():
            await page.wait_for("document.getElementById('leaderboard')")
            await page.wait_for(f"document.body.innerText.includes({json.dumps(LONG)})")
            assert await page.js(OUTSIDE) == [], name
            width = await page.js("innerWidth")
            assert width <= 500  # a phone's width, not a desktop's
    finally:
        await browser.stop()
        await server.stop()
        session.close()
