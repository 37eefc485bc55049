"""The board at 1920x1080 in real headless Chromium: a 33-character name's chip keeps its
"1 shiv", the strike-through of a prisoner who is out never hides their "caught" or "shived",
the smallest text is at least 2.5 % of the screen's height (27 px), and until the browser
allows sound a hint tells the game master to click the board once."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import board_url
from companion.web.prison.server import start_phone_server
from tests import stage_helpers as stage
from tests.chromium import CHROMIUM, Chromium

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

LONG = "Maximiliana Fitzgerald-Okonkwo Jr"  # 33 characters
# Each chip's parts: [text, its right edge, the chip's right edge, its font size in px].
CHIPS = """[...document.querySelectorAll('#roster li')].map(li => {
  const r = li.getBoundingClientRect();
  return [...li.children].map(c => [c.className, c.textContent,
    c.getBoundingClientRect().right, r.right, parseFloat(getComputedStyle(c).fontSize),
    getComputedStyle(c).textDecorationLine]);
})"""


async def test_the_boards_chips_and_its_sound_hint_at_1080p(
    chromium: Chromium, tmp_path: Path
) -> None:
    assert len(LONG) == 33
    session = create_prison_session(tmp_path, "chips", "classic", "Wendy",
                                    ["Ada", LONG, "Cy", "Dee"])
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        session.submit({"do": "close_planning"})
        session.submit({"do": "interview", "prisoner": "Cy", "deal": True})
        session.submit({"do": "search", "prisoner": "Dee"})
        stage.step_reveal(session, to_end=True)
        done = session.submit({"do": "accuse", "accuser": "Ada", "accused": "Cy"})
        assert not hasattr(done, "reason"), done
        assert session.state.prisoners["Cy"].status == "shived"
        board = await chromium.open(board_url(server.base_url))
        await board.send("Emulation.setDeviceMetricsOverride", width=1920, height=1080,
                         deviceScaleFactor=1, mobile=False)
        await board.wait_for("document.body.dataset.ready === '1'")
        await board.wait_for("document.querySelector('#roster li.shived')")
        chips = await board.js(CHIPS)
        parts = {cls: (text, right, edge, size, line) for chip in chips
                 for cls, text, right, edge, size, line in chip if cls != "name"}
        by_text = {text: (right, edge, size, line) for text, right, edge, size, line
                   in parts.values()}
        long_chip = next(chip for chip in chips if chip[0][1] == LONG)
        assert [part[1] for part in long_chip[1:]] == ["1 shiv"], long_chip  # kept, whole
        for part in long_chip:  # nothing of the chip is cut off at its right edge
            assert part[2] <= part[3] + 0.5, part
        assert "shived" in by_text and by_text["shived"][3] == "none"  # not struck through
        smallest = min(size for chip in chips for *_, size, _line in chip)
        assert smallest >= 27, chips
        label = await board.js("document.getElementById('sound').textContent")
        hint = "document.getElementById('sound-hint').hidden"
        if label.startswith("Sound on: click"):
            assert await board.js(hint) is False
            assert await board.js("document.getElementById('sound-hint').textContent") == \
                "Click the board once to allow its sounds."
            for kind in ("mousePressed", "mouseReleased"):
                await board.send("Input.dispatchMouseEvent", type=kind, x=400, y=300,
                                 button="left", clickCount=1)
            await board.wait_for(f"{hint} === true")
        else:  # this browser allows sound at once: no hint to give
            assert await board.js(hint) is True
    finally:
        await server.stop()
        session.close()


TWINS = ["Alexandra Christensen-Whitfield", "Alexandra Christensen-Whitmore"]
# Each name's box within its chip, and whether any of its text is hidden.
NAMES = """[...document.querySelectorAll('#roster li .name')].map(n => {
  const r = n.getBoundingClientRect(), li = n.parentElement.getBoundingClientRect();
  return [n.textContent, r.right <= li.right + 0.5, n.scrollWidth <= n.clientWidth + 1,
          getComputedStyle(n).textOverflow];
})"""
# The caption under the board's QR code, whether it and the code are on the screen, and the
# code's side in pixels.
QR_LABEL = """(() => {
  const label = document.getElementById('qr-label'), qr = document.querySelector('.qr svg');
  const l = label.getBoundingClientRect(), q = qr.getBoundingClientRect();
  return [label.textContent, l.top >= q.bottom - 1, l.bottom <= innerHeight, q.top >= 0,
          l.height > 0, Math.min(q.width, q.height)];
})()"""


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
async def test_long_names_that_begin_alike_stay_apart_and_the_qr_says_what_it_is_for(
    chromium: Chromium, tmp_path: Path, size: tuple[int, int]
) -> None:
    """Two long names that begin alike are shown whole; the big QR code says what it is for
    and stays large enough to scan; the sound hint is said once."""
    session = create_prison_session(tmp_path, "twins", "classic", "Wendy", [*TWINS, "Cy", "Dee"])
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        board = await chromium.open(board_url(server.base_url))
        width, height = size
        await board.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                         deviceScaleFactor=1, mobile=False)
        await board.wait_for("document.body.dataset.ready === '1'")
        names = await board.js(NAMES)
        assert [n[0] for n in names] == [*TWINS, "Cy", "Dee"]
        for name, inside, whole, overflow in names:  # every letter of every name is shown
            assert inside and whole and overflow != "ellipsis", name
        label, below, inside, top, seen, side = await board.js(QR_LABEL)
        assert label == ("Card will not scan? Scan this code, or open the address below, then "
                         "type your seat code. Lost your card? Ask the game master.")
        assert f"{server.base_url}/join" in await board.text()
        assert below and inside and top and seen
        assert side >= 0.3 * height, side  # a code a phone reads from across the room
        hint = "document.getElementById('sound-hint').hidden"
        if not await board.js(hint):  # said once: gone once the game moves on
            session.submit({"do": "close_planning"})
            await board.wait_for("document.querySelector('[data-stamp]').dataset.stamp === "
                                 "'1:interviews'")
            await board.wait_for(f"{hint} === true")
            label = await board.js("document.getElementById('sound').textContent")
            assert label.startswith("Sound on: click")  # the button still says it
    finally:
        await server.stop()
        session.close()
