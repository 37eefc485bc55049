"""The prison's board opened on a phone (390×844, in real headless Chromium), scrolled to its
end: the sound pill and its hint never cover a chip of the roster (fixed at the bottom, they
covered its last row of shiv chips)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import board_url
from companion.web.prison.server import start_phone_server
from tests.chromium import CHROMIUM, Chromium

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

# Every rectangle of a chip that one of the pill and its hint, shown, overlaps.
COVERED = """(() => {
  const box = e => e.getBoundingClientRect();
  const over = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  const pills = ['sound', 'sound-hint'].map(id => document.getElementById(id))
    .filter(e => e && !e.hidden).map(box);
  return [...document.querySelectorAll('#roster li')].filter(li =>
    pills.some(p => over(p, box(li)))).map(li => li.textContent);
})()"""


async def test_the_sound_pill_covers_no_chip_at_a_phones_size(tmp_path: Path) -> None:
    names = ["Ada", "Maximiliana Fitzgerald", "Cy", "Dee", "Eve", "Flo"]
    session = create_prison_session(tmp_path, "phone", "balanced-6", "Wendy", names)
    server = await start_phone_server(session, "127.0.0.1", 0)
    browser = Chromium()
    await browser.start()
    try:
        page = await browser.open("about:blank")
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            width=390, height=844, deviceScaleFactor=1, mobile=True,
        )
        await page.send("Page.navigate", url=board_url(server.base_url))
        await page.wait_for("document.querySelectorAll('#roster li').length === 6")
        await page.wait_for("!document.getElementById('sound-hint').hidden")  # both shown
        await page.js("window.scrollTo(0, document.body.scrollHeight); 1")  # to the end
        assert await page.js(COVERED) == []
        await page.js("window.scrollBy(0, -60); 1")  # and a little way back up
        assert await page.js(COVERED) == []
        await page.js("document.getElementById('sound').click(); 1")  # sound allowed: the pill
        await page.wait_for("document.getElementById('sound-hint').hidden")
        await page.js("window.scrollTo(0, document.body.scrollHeight); 1")
        assert await page.js(COVERED) == []
    finally:
        await browser.stop()
        await server.stop()
        session.close()
