"""End to end: six phones in real headless Chromium join the dilemma by name and play two
rounds; the board follows live. Chromium is driven by tests/chromium.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.session.session import Session
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import start_dilemma_server
from tests.chromium import CHROMIUM, Chromium, Page
from tests.dilemma_helpers import scenario
from tests.web.dilemma.conftest import ROOM_OF_PHONES

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

NAMES = ["Ada", "Ben", "Cleo", "Dev", "Emi", "Finn"]
SHOTS = os.environ.get("COMPANION_SHOTS")
# Whether the element the selector finds lies wholly inside the window, and is not cut off
IN_VIEW = (
    "(s => { const e = document.querySelector(s); if (!e) return false;"
    " const r = e.getBoundingClientRect();"
    " return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight"
    " && r.right <= innerWidth && e.scrollHeight <= e.clientHeight + 1; })"
)  # a folder to keep screenshots in, for a human


async def shot(page: Page, name: str) -> None:
    if SHOTS:
        await page.screenshot(Path(SHOTS) / f"{name}.png")


async def join(chromium: Chromium, url: str, name: str) -> Page:
    page = await chromium.open(url)
    await page.wait_for("document.getElementById('name')")
    await page.js(
        f"document.getElementById('name').value = {json.dumps(name)};"
        "document.querySelector('form button[type=submit]').click(); true"
    )
    await page.wait_for("location.pathname.startsWith('/d/') && document.body.dataset.live")
    return page


async def play_round(
    session: Session, phones: dict[str, Page], board: Page, number: int, plan: dict[str, str]
) -> dict[str, str]:
    """Start a round (the game master), let every phone choose; whom each one faced."""
    session.submit({"do": "start_round", "seed": 100 + number})
    facing: dict[str, str] = {}
    for name, page in phones.items():
        await page.wait_for(f"document.body.innerText.includes('Round {number} of 2')")
        await page.wait_for("document.getElementById('facing')")
        facing[name] = await page.js("document.getElementById('facing').textContent")
    assert all(facing[facing[n]] == n for n in NAMES), facing
    await board.wait_for("document.getElementById('pairs')")
    if SHOTS and number == 1:
        await shot(phones["Ada"], "phone-facing")
    names = list(phones)
    for i, name in enumerate(names):
        page = phones[name]
        await page.click(f"button[data-choice={plan[name]}]")
        words = "stay SILENT" if plan[name] == "silent" else "BETRAY"
        if i < len(names) - 1:
            await page.wait_for(
                f"(document.getElementById('saved')||{{}}).textContent.includes('{words}')"
            )
            await board.wait_for(
                f"document.getElementById('chosen').textContent.includes('{i + 1} of 6')"
            )
            text = await board.text()
            assert "stayed SILENT" not in text and "BETRAYED" not in text
            if number == 1 and i == 0:
                await shot(page, "phone-chosen")
                await shot(board, "board-choosing")
    for name, page in phones.items():
        await page.wait_for("document.getElementById('my-result')")
        mine = await page.js("document.getElementById('my-result').innerText")
        theirs = "stayed SILENT" if plan[facing[name]] == "silent" else "BETRAYED"
        assert f"{facing[name]} {theirs}" in mine, mine
    return facing


async def test_six_phones_two_rounds(chromium: Chromium, tmp_path: Path) -> None:
    session = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    joins = JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES)  # six phones, all from 127.0.0.1
    server = await start_dilemma_server(session, "127.0.0.1", 0, joins=joins)
    try:
        board = await chromium.open(server.board_url)
        await board.send(  # a projector's smallest screen
            "Emulation.setDeviceMetricsOverride",
            width=1280,
            height=720,
            deviceScaleFactor=1,
            mobile=False,
        )
        await board.wait_for("document.body.dataset.live")
        phones = {name: await join(chromium, server.join_url, name) for name in NAMES}
        await board.wait_for("document.body.innerText.includes('6 players')")
        # every phone's page holds its event stream open: each counts as connected
        await board.wait_for("document.body.innerText.includes('6 of 6 phones connected')")
        assert await board.js(f"{IN_VIEW}('.join-panel .qr')")
        await shot(phones["Ada"], "phone-joined")
        await shot(board, "board-lobby")

        # a phone that joins with a name already taken is told so, and nothing changes
        late = await chromium.open(server.join_url)
        await late.wait_for("document.getElementById('name')")
        await late.js(
            "document.getElementById('name').value='ada';"
            "document.querySelector('form button[type=submit]').click(); true"
        )
        await late.wait_for("document.getElementById('message')")
        assert "already taken" in await late.text()
        assert len(session.state.players) == 6

        plan1 = dict(
            zip(NAMES, ["betray", "silent", "silent", "silent", "betray", "betray"], strict=True)
        )
        first = await play_round(session, phones, board, 1, plan1)
        await board.wait_for("document.getElementById('last-round')")
        board_text = await board.text()
        assert "Round 1: the sentences" in board_text and "Leaderboard" in board_text
        assert await board.js("!!document.querySelector('.join-panel.qr-small')")
        assert await board.js("document.body.dataset.chimes") == "1"  # the reveal's cue
        # m mutes the cue, remembered in this browser after a reload
        await board.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'm'})); 1")
        assert await board.js("document.getElementById('sound').textContent") == "Sound: off (m)"
        await board.send("Page.reload")
        await board.wait_for("document.body.dataset.live && document.getElementById('last-round')")
        assert await board.js("localStorage.getItem('dilemma-board-sound')") == "off"
        assert await board.js("document.getElementById('sound').getAttribute('aria-pressed')") == (
            "false"
        )
        for part in ("#leaderboard", "#last-round", ".join-panel .qr", "#join-address"):
            assert await board.js(f"{IN_VIEW}('{part}')"), f"{part} is off the 1280x720 board"
        await shot(phones["Ada"], "phone-revealed")

        # a phone that reloads, or scans the room code again, comes back to its own page
        ben = phones["Ben"]
        own = await ben.js("location.pathname")
        await ben.send("Page.reload")
        await ben.wait_for("document.body.dataset.live && document.getElementById('my-result')")
        await ben.send("Page.navigate", url=server.join_url)
        await ben.wait_for(f"location.pathname === '{own}' && document.body.dataset.live")

        plan2 = dict.fromkeys(NAMES, "silent")
        plan2["Cleo"] = "betray"
        second = await play_round(session, phones, board, 2, plan2)
        assert all(first[n] != second[n] for n in NAMES), "an opponent met twice"

        await board.wait_for("document.getElementById('explanation')")
        assert await board.js("document.body.dataset.chimes || 'none'") == "none"  # muted
        board_text = await board.text()
        assert "Final leaderboard" in board_text and "betraying shortens" in board_text
        assert await board.js("document.querySelectorAll('.bar-row').length") == 2
        for part in ("#leaderboard", "#debrief", "#cooperation", "#explanation"):
            assert await board.js(f"{IN_VIEW}('{part}')"), f"{part} is off the 1280x720 board"
        # the last round (seen at its reveal) gives way to the debrief beside the leaderboard
        assert await board.js("!!document.getElementById('last-round')")
        ada = phones["Ada"]
        await ada.wait_for("document.getElementById('explanation')")
        await shot(ada, "phone-final")
        await shot(board, "board-final")

        state = session.state
        assert state.phase == "over"
        months = state.months()
        by_name = {p.name: months[p.pid] for p in state.players}
        expected: dict[str, int] = {}
        s = scenario()["sentences"]
        table = {
            ("silent", "silent"): s["both_silent"],
            ("betray", "betray"): s["both_betray"],
            ("betray", "silent"): s["betrayer"],
            ("silent", "betray"): s["betrayed"],
        }
        for plan, facing in ((plan1, first), (plan2, second)):
            for n in NAMES:
                expected[n] = expected.get(n, 0) + table[(plan[n], plan[facing[n]])]
        assert by_name == expected
    finally:
        await server.stop()
        session.close()
