"""Both boards opened on a phone (the join page links the prison board; anyone may type
/board) at 390×844 in real headless Chromium: one column at a readable size, nothing wider
than the screen, the code large enough to scan and its address whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import board_url
from companion.session.session import Session
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import start_dilemma_server
from companion.web.prison.server import start_phone_server
from tests.chromium import CHROMIUM, Chromium, Page
from tests.conftest import ROSTER
from tests.dilemma_helpers import scenario
from tests.web.dilemma.conftest import ROOM_OF_PHONES

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

# what a phone's reader needs: [page width, widest element's right edge, body font size in px,
# the code's width, whether the address shows whole, the first panel's height]
MEASURE = """(function () {
  var right = 0;
  document.querySelectorAll('body *').forEach(function (e) {
    var r = e.getBoundingClientRect(); if (r.width) right = Math.max(right, r.right);
  });
  var qr = document.querySelector('.qr');
  var address = document.querySelector('.address');
  var panel = document.querySelector('.screen > .stage') || document.querySelector('.stage .panel');
  return [innerWidth, Math.round(right), parseFloat(getComputedStyle(document.body).fontSize),
    qr ? qr.getBoundingClientRect().width : 0,
    !!address && address.scrollWidth <= address.clientWidth + 1
      && address.getBoundingClientRect().right <= innerWidth,
    panel ? panel.getBoundingClientRect().height : 0];
})()"""


async def readable(page: Page) -> None:
    await page.send(
        "Emulation.setDeviceMetricsOverride",
        width=390,
        height=844,
        deviceScaleFactor=1,
        mobile=True,
    )
    await page.wait_for("document.body.dataset.live && document.querySelector('.qr')")
    width, right, font, qr, address, panel = await page.js(MEASURE)
    assert width == 390
    assert right <= width + 1, "something is wider than the phone's screen"
    assert font >= 15, f"type of {font} px is too small to read on a phone"
    assert qr >= 180, f"a code {qr} px wide is hard to scan"
    assert address, "the address is cut off"
    assert 0 < panel < 700, f"a panel {panel} px tall fills the screen with nothing"


async def test_the_prison_board_on_a_phone(chromium: Chromium, tmp_path: Path) -> None:
    session = create_prison_session(tmp_path, "board", "classic", "Wendy", ROSTER)
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        await readable(await chromium.open(board_url(server.base_url)))
    finally:
        await server.stop()
        session.close()


async def test_the_warm_up_board_on_a_phone(chromium: Chromium, tmp_path: Path) -> None:
    session = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i, name in enumerate(["Ann", "Bob", "Cleo"]):
        session.submit({"do": "join", "pid": f"p{i}", "name": name})
    joins = JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES)
    server = await start_dilemma_server(session, "127.0.0.1", 0, joins=joins)
    try:
        page = await chromium.open(server.board_url)
        await readable(page)  # the lobby: the code large
        session.submit({"do": "start_round", "seed": 3})
        await page.wait_for("document.getElementById('pairs')")
        await readable(page)  # a round open: the code small, beside the panels
    finally:
        await server.stop()
        session.close()
