"""The warm-up board's room code can be scanned by a late joiner in every phase it is shown
(the lobby, a round open, a round revealed), at 1920x1080 and 1280x720, in every language,
with the longest house label there is (the house player having played every strategy), the
doors closed and the venue's Wi-Fi code beside it: zbarimg reads the room's address from a
screenshot of real headless Chromium, the code lies whole inside the window and its column,
and the sound button covers neither the code nor the address written beside it.

``COMPANION_SHOTS=DIR`` keeps the screenshots for a human to look at.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.rules.dilemma.strategies import NAMES as STRATEGIES
from companion.session.session import Session
from companion.web.dilemma.server import start_dilemma_server
from tests.chromium import CHROMIUM, Chromium, Page
from tests.dilemma_helpers import scenario

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
    pytest.mark.skipif(shutil.which("zbarimg") is None, reason="needs zbar-tools"),
]

SHOTS = os.environ.get("COMPANION_SHOTS")
PUBLIC = "http://192.168.100.123:8765"  # as long as a venue's address gets
ROOM = f"{PUBLIC}/join-room"
NAMES = ["Annemarie", "Bartholomäus", "Cy", "Dee", "Eve", "Flo", "Gunhild", "Hans-Peter", "Ida",
         "Jo", "Konstantin", "Lea", "Maximiliane", "Nils", "Ole", "Pia", "Quirin", "Rosa",
         "Sebastian", "Tanja", "Ulf", "Vera", "Wolfgang"]  # odd: the house player plays
SIZES = [(1920, 1080), (1280, 720)]
# What keeps the code from being scanned: the code or the address cut by the window or its
# column, or under the sound button.
HIDDEN = """(() => {
  const inside = (r, b) => r.top >= b.top - 1 && r.left >= b.left - 1
    && r.bottom <= b.bottom + 1 && r.right <= b.right + 1;
  const meet = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  const view = {top: 0, left: 0, bottom: innerHeight, right: innerWidth};
  const sound = document.getElementById('sound').getBoundingClientRect();
  const found = [];
  for (const e of document.querySelectorAll('#join-panel > .qr, #join-address')) {
    const r = e.getBoundingClientRect();
    const column = e.closest('.stage-main, .stage-side').getBoundingClientRect();
    const name = e.id || e.className;
    if (r.height === 0 || !inside(r, view) || !inside(r, column)
        || e.scrollWidth > e.clientWidth + 1) found.push(name + ' is cut');
    if (meet(r, sound)) found.push(name + ' is under the sound button');
  }
  return found;
})()"""


def scanned(path: Path) -> list[str]:
    out = subprocess.run(
        ["zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", str(path)],
        capture_output=True, text=True,
    ).stdout
    return out.split()


async def hidden_at(page: Page, width: int, height: int, shot: Path) -> tuple[list[str], bool]:
    await page.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                    deviceScaleFactor=1, mobile=False)
    await page.js("document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(r)))")
    found = list(await page.js(HIDDEN))
    await page.screenshot(shot)
    return found, ROOM in scanned(shot)


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es"])
async def test_the_room_code_scans_in_every_phase(
    chromium: Chromium, tmp_path: Path, lang: str
) -> None:
    session = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=9)})
    session.set("lang", lang)
    session.set("wifi", {"name": "Venue-Guest-5GHz", "password": "secret"})
    for i, name in enumerate(NAMES):
        session.submit({"do": "join", "pid": f"p{i}", "name": name})
    server = await start_dilemma_server(session, "127.0.0.1", 0, public_url=PUBLIC)
    shots = Path(SHOTS) if SHOTS else tmp_path
    problems: dict[str, list[str]] = {}
    try:
        page = await chromium.open(f"http://127.0.0.1:{server.port}/board")
        await page.wait_for("document.body.dataset.live")

        async def look(phase: str, ready: str) -> None:
            await page.wait_for(ready)
            for width, height in SIZES:
                case = f"{lang} {phase} {width}x{height}"
                found, read = await hidden_at(page, width, height,
                                              shots / f"board-qr-{lang}-{phase}-{width}.png")
                problems[case] = found + ([] if read else ["the code does not scan"])

        await look("lobby", "document.querySelector('.phase-lobby')")
        # the house player plays every strategy, one a round: its label is the longest
        for n, strategy in enumerate(STRATEGIES):
            session.submit({"do": "set_house", "strategy": strategy})
            session.submit({"do": "start_round", "seed": n})
            for k, pid in enumerate(session.state.waiting()):
                session.submit({"do": "choose", "pid": pid,
                                "choice": "betray" if k % 2 else "silent"})
            session.submit({"do": "close_round"})
        session.submit({"do": "close_doors"})
        await look("revealed", f"document.querySelector('[data-revealed=\"{len(STRATEGIES)}\"]')")
        assert await page.js("!!document.getElementById('house-row')")
        session.submit({"do": "start_round", "seed": 99})
        await look("choosing", "document.querySelector('.phase-choosing')")
    finally:
        await server.stop()
        session.close()
    assert problems == {case: [] for case in problems}
