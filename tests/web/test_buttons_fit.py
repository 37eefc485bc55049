"""Every button on the phones fits its text, in every language, on a 360 and a 390 px wide
phone: a prisoner's page and the warden's (planning, then the interviews) and a warm-up
player's (choosing), in real headless Chromium. A button whose text runs past its edge (the
Spanish DESCANSAR, say) is named with its language, page and width, and so is a choice's
big button whose word breaks over two lines (the French SE / TAIRE).

``COMPANION_SHOTS=DIR`` keeps a screenshot of each page for a human to look at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.language import available
from companion.session.dilemma.seats import new_seat
from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import seat_url, seats_of
from companion.session.session import Session
from companion.web.dilemma.server import start_dilemma_server
from companion.web.prison.server import start_phone_server
from tests.chromium import CHROMIUM, Chromium, Page
from tests.conftest import ROSTER
from tests.dilemma_helpers import scenario

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

SHOTS = os.environ.get("COMPANION_SHOTS")
WIDTHS = (360, 390)
# The buttons shown whose text is wider than the button (or cut by the window).
OVERFLOWING = """(() => {
  const found = [];
  for (const b of document.querySelectorAll('button, .button, a.big')) {
    const r = b.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(b).visibility === 'hidden') continue;
    const text = document.createRange();
    text.selectNodeContents(b);
    const t = text.getBoundingClientRect();
    const label = (b.textContent || '').trim().replace(/\\s+/g, ' ');
    if (b.scrollWidth > b.clientWidth + 1 || t.left < r.left - 1 || t.right > r.right + 1)
      found.push(label + ' runs past its button');
    else if (r.left < -1 || r.right > innerWidth + 1) found.push(label + ' is cut by the window');
    else if (b.matches('.choices .big')) {
      const lines = new Set([...text.getClientRects()].map(line => Math.round(line.top)));
      if (lines.size > 1) found.push(label + ' breaks over ' + lines.size + ' lines');
    }
  }
  return found;
})()"""
LANGS = available()


async def overflowing(page: Page, width: int) -> list[str]:
    await page.send("Emulation.setDeviceMetricsOverride", width=width, height=800,
                    deviceScaleFactor=2, mobile=True)
    await page.js("document.fonts.ready.then(() => true)")
    return list(await page.js(OVERFLOWING))


async def measure(page: Page, case: str, found: dict[str, list[str]]) -> None:
    """The page under its cover (itself one big button), then uncovered."""
    for side in ("covered", "shown"):
        if side == "shown" and await page.js("!!document.getElementById('cover')"):
            await page.click("#cover")
            await page.wait_for("document.getElementById('cover').hidden")
        for width in WIDTHS:
            found[f"{case}, {side}, {width} px"] = await overflowing(page, width)
            if SHOTS:
                name = f"buttons-{case}-{side}-{width}".replace(", ", "-").replace(" ", "-")
                await page.screenshot(Path(SHOTS) / f"{name}.png")


async def test_the_prison_phones_buttons_fit_in_every_language(
    chromium: Chromium, tmp_path: Path
) -> None:
    session = create_prison_session(tmp_path, "fits", "classic", "Wendy", ROSTER)
    server = await start_phone_server(session, "127.0.0.1", 0)
    found: dict[str, list[str]] = {}
    try:
        seats = {seat.name: seat for seat in seats_of(session)}
        for phase in ("planning", "interviews"):
            if phase == "interviews":
                session.submit({"do": "close_planning"})
            for lang in LANGS:
                for name, role in ((ROSTER[0], "prisoner"), ("Wendy", "warden")):
                    page = await chromium.open(
                        f"{seat_url(server.base_url, seats[name])}?lang={lang}"
                    )
                    await page.wait_for("document.body.dataset.live")
                    await measure(page, f"{lang}, {role}, {phase}", found)
                    await page.close()
    finally:
        await server.stop()
        session.close()
    assert {case: said for case, said in found.items() if said} == {}


async def test_the_warm_up_phones_buttons_fit_in_every_language(
    chromium: Chromium, tmp_path: Path
) -> None:
    session = Session.create(tmp_path / "fits.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    tokens = []
    for name in ("Ann", "Bob", "Cy", "Dee"):
        pid, token = new_seat(session)
        session.submit({"do": "join", "pid": pid, "name": name})
        tokens.append(token)
    server = await start_dilemma_server(session, "127.0.0.1", 0)
    found: dict[str, list[str]] = {}
    try:
        for phase in ("lobby", "choosing"):
            if phase == "choosing":
                session.submit({"do": "start_round", "seed": 1})
            for lang in LANGS:
                page = await chromium.open(f"{server.base_url}/d/{tokens[0]}?lang={lang}")
                await page.wait_for("document.body.dataset.live")
                await measure(page, f"{lang}, warm-up player, {phase}", found)
                await page.close()
    finally:
        await server.stop()
        session.close()
    assert {case: said for case, said in found.items() if said} == {}
