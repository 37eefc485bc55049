"""The board for crowds, in real headless Chromium: rooms of 2, 16, 30, 300 and 1,000 players,
at 1920x1080 and 1280x720, in English and German, in every phase (people joining, a round
open, a round revealed, the end). No panel is cut or holds more than it shows (the check of
``test_board_fits``), and the board's new parts for a crowd show: the count and a bar while
choosing, the room's totals and "find your result on your phone" at the reveal, no list of
pairs past 24 players (``SMALL_ROOM``). The rooms are built through the session's API, not
by 1,000 phones.

The smallest text is measured and printed for each case (``-s``): every visible text of the
board, in every phase and at both sizes, is at least 2.5 % of the screen's height.

``COMPANION_SHOTS=DIR`` keeps a screenshot of each board for a human to look at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.rules.dilemma.views import SMALL_ROOM
from companion.session.session import Session
from companion.web.dilemma.server import start_dilemma_server
from tests.chromium import CHROMIUM, Chromium
from tests.dilemma_helpers import scenario
from tests.web.dilemma.test_board_fits import SIZES, cut_at

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

SHOTS = os.environ.get("COMPANION_SHOTS")
ROOMS = [2, 16, 30, 300, 1000]
# The smallest font size, in px, among the visible texts of the board, and the texts under
# 2.5 % of the window's height (each kind once: its tag, id and classes, then its words).
SMALLEST = """(() => {
  let least = Infinity;
  const low = new Map();
  for (const node of document.body.querySelectorAll('*')) {
    const own = [...node.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const r = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    if (!own || r.width === 0 || r.height === 0 || r.bottom > innerHeight) continue;
    if (style.visibility === 'hidden' || style.opacity === '0') continue;
    const size = parseFloat(style.fontSize);
    least = Math.min(least, size);
    if (size < 0.025 * innerHeight) {
      const kind = node.tagName.toLowerCase() + (node.id ? '#' + node.id : '')
        + (typeof node.className === 'string' && node.className.trim()
           ? '.' + node.className.trim().split(/\\s+/).join('.') : '');
      if (!low.has(kind)) low.set(kind, kind + ': ' + node.textContent.trim().slice(0, 30));
    }
  }
  return least === Infinity ? null : [least, [...low.values()]];
})"""


def room(folder: Path, lang: str, players: int) -> Session:
    rules = scenario(rounds=2)
    rules["max_players"] = max(players, 2)
    s = Session.create(folder / f"{lang}-{players}.sqlite", "dilemma", {"rules": rules})
    s.set("lang", lang)
    for i in range(players):
        s.submit({"do": "join", "pid": f"p{i}", "name": f"Studentin {i + 1}"})
    return s


def play_half(s: Session, n: int) -> None:
    """Round ``n``: half the players choose (a mix); the rest wait for the close."""
    waiting = s.state.waiting()
    for k, pid in enumerate(waiting[: max(1, len(waiting) // 2)]):
        s.submit({"do": "choose", "pid": pid, "choice": "betray" if (k + n) % 3 else "silent"})


async def measure(chromium: Chromium, session: Session, phase: str, case: str,
                  found: dict[str, list[str]],
                  smallest: dict[str, tuple[float, list[str]] | None]) -> None:
    server = await start_dilemma_server(session, "127.0.0.1", 0)
    try:
        page = await chromium.open(server.board_url)
        await page.wait_for(
            f"document.body.dataset.live && document.querySelector('.phase-{phase}')"
        )
        for width, height in SIZES:
            key = f"{case}, {phase}, {width}x{height}"
            found[key] = await cut_at(page, width, height)
            least = await page.js(f"({SMALLEST})()")
            smallest[key] = None if least is None else (least[0] / height, least[1])
            players = len(session.state.present())
            if players > SMALL_ROOM:
                assert not await page.js("!!document.getElementById('pairs')"), key
                if phase == "revealed":
                    assert await page.js("!!document.getElementById('totals')"), key
                    assert not await page.js("!!document.getElementById('last-round')"), key
            if SHOTS:
                await page.screenshot(Path(SHOTS) / f"crowd-{case.replace(', ', '-')}-{phase}-"
                                      f"{width}.png")
    finally:
        await server.stop()


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_board_holds_every_room_from_2_to_1000(
    chromium: Chromium, tmp_path: Path, lang: str
) -> None:
    found: dict[str, list[str]] = {}
    smallest: dict[str, tuple[float, list[str]] | None] = {}
    for players in ROOMS:
        case = f"{lang}, {players} players"
        s = room(tmp_path, lang, players)
        try:
            await measure(chromium, s, "lobby", case, found, smallest)
            s.submit({"do": "start_round", "seed": 1})
            play_half(s, 1)
            await measure(chromium, s, "choosing", case, found, smallest)
            s.submit({"do": "close_round", "timed_out": True})
            await measure(chromium, s, "revealed", case, found, smallest)
            s.submit({"do": "start_round", "seed": 2})
            play_half(s, 2)
            s.submit({"do": "close_round", "timed_out": True})
            await measure(chromium, s, "over", case, found, smallest)
        finally:
            s.close()
    for key, least in smallest.items():
        said = least and f"{round(100 * least[0], 2)} % (under 2.5 %: {least[1]})"
        print(f"{key}: smallest text {said}")
    assert found == {key: [] for key in found}
    low = {key: least[1] for key, least in smallest.items() if least and least[1]}
    assert low == {}
