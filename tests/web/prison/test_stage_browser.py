"""The room's stage in real headless Chromium: a search's result reaches the board and the
prisoners' pages only as the game master steps through its reveal (whether the console or the
warden's phone searched), the warden deals only with the prisoner called in, the countdowns,
and the board's count of phones connected.

A page's DOM is read after its script ran (``document.documentElement.outerHTML``), once the
page has shown the session's row that matters (``body.dataset.version``): a page that simply
had not caught up yet cannot pass for one that holds nothing back.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import board_url, seat_url, seats_of
from companion.session.session import Session
from companion.web.common.server import PhoneServer
from companion.web.prison.server import start_phone_server
from tests import stage_helpers as stage
from tests.chromium import CHROMIUM, Chromium, Page
from tests.conftest import ROSTER

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

# The text of a page's live part, shown or still under its cover.
LIVE = "document.getElementById('live').textContent"
# What would tell a search's result: any of these in a page or an answer.
OUTCOME = (
    "CAUGHT",
    "SAFE",
    '"caught": true',
    '"status": "caught"',
    'class="caught',
    "caught working",
    "worked",
    '"workers": ["',
    "Nights of work: 1",
)


@contextlib.asynccontextmanager
async def served(folder: Path) -> AsyncIterator[tuple[Session[Any], PhoneServer]]:
    """Warden Wendy and four prisoners, two searches a day, served on 127.0.0.1."""
    session = create_prison_session(
        folder, "stage", "classic", "Wendy", ROSTER, rules_overrides={"searches_per_day": 2}
    )
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        yield session, server
    finally:
        await server.stop()
        session.close()


async def dom_at(page: Page, session: Session[Any]) -> str:
    """The page's DOM once it shows the session's latest row (its script ran)."""
    seq = session.rows[-1].seq
    await page.wait_for(f"+(document.body.dataset.version || -1) >= {seq}")
    return str(await page.js("document.documentElement.outerHTML"))


async def board_json(server: PhoneServer) -> str:
    async with aiohttp.ClientSession() as http, http.get(f"{server.base_url}/api/board") as r:
        return json.dumps(await r.json(), ensure_ascii=False)


async def seat_json(server: PhoneServer, token: str) -> str:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{server.base_url}/api/p/{token}") as r,
    ):
        return json.dumps(await r.json(), ensure_ascii=False)


def told(text: str) -> list[str]:
    return [word for word in OUTCOME if word in text]


async def test_a_search_waits_for_the_game_masters_reveal(
    chromium: Chromium, tmp_path: Path
) -> None:
    async with served(tmp_path) as (session, server):
        seats = {s.name: s for s in seats_of(session)}
        board = await chromium.open(board_url(server.base_url))
        pages = {n: await chromium.open(seat_url(server.base_url, s)) for n, s in seats.items()}
        warden = pages["Wendy"]
        for page in [board, *pages.values()]:
            await page.wait_for("document.body.dataset.ready === '1'")
        for name, choice in [("Ada", "work"), ("Ben", "work"), ("Cy", "work"), ("Dee", "rest")]:
            session.submit({"do": "choose", "prisoner": name, "choice": choice})
        session.submit({"do": "close_planning"})

        async def nothing_told(search: str) -> None:
            """No page, no answer holds the result of the search of ``search``'s cell."""
            texts = {"board": await dom_at(board, session), "/api/board": await board_json(server)}
            for name, page in pages.items():
                texts[name] = await dom_at(page, session)
                texts[f"/api/p/{name}"] = await seat_json(server, seats[name].token)
            for where, text in texts.items():
                assert not told(text), (where, told(text))
                assert f"searches {search}" not in text, where

        async def everyone_shows(expression: str) -> None:
            for page in [board, *(pages[n] for n in ROSTER)]:
                await page.wait_for(expression)

        # 1. The console searches Ada's cell (the day's first search: no night yet).
        session.submit({"do": "search", "prisoner": "Ada"})
        assert session.state.prisoners["Ada"].status == "caught"
        await nothing_told("Ada")
        stage.step_reveal(session)
        await everyone_shows(f'{LIVE}.includes("The warden searches Ada\'s cell")')
        await nothing_told("Nobody")  # the search is shown, not what it found
        stage.step_reveal(session)
        await everyone_shows(f"{LIVE}.includes('CAUGHT')")
        assert '"caught": true' in await board_json(server)
        assert "worked" not in await dom_at(board, session)
        assert stage.held_reveal(session) is None

        # 2. The warden searches Dee's cell from her phone (the last search: the night too).
        await warden.click("#cover")
        await warden.click("button.search[data-value=Dee]")
        await warden.click("button.search[data-value=Dee]")
        await warden.wait_for("document.getElementById('status').textContent.includes('reveals')")
        status = await warden.js("document.getElementById('status').textContent")
        assert status == "Searched Dee's cell; the game master now reveals it to the room."
        assert session.state.phase == "accusations" and session.state.day.revealed
        dee_told = ("searches Dee", "SAFE", "worked", '"workers": ["', "Nights of work: 1")
        for name, page in [("board", board), *pages.items()]:
            dom = await dom_at(page, session)
            assert not [w for w in dee_told if w in dom], name
        for name in seats:
            text = await seat_json(server, seats[name].token)
            assert not [w for w in dee_told if w in text], name
        api = json.loads(await board_json(server))
        assert api["stage"]["reveal"] is None  # its reveal has not begun
        assert api["phase"] == "search" and not api["today"]["revealed"]
        # Sent again (its answer was lost), it is acknowledged; another search is refused.
        async with aiohttp.ClientSession() as http:
            url = f"{server.base_url}/api/p/{seats['Wendy'].token}/search"
            async with http.post(url, json={"prisoner": "Dee"}) as r:
                assert r.status == 200
            async with http.post(url, json={"prisoner": "Cy"}) as r:
                assert r.status == 409
                assert (await r.json())["error"].startswith("Today's search is made")

        steps = [
            "The warden searches Dee's cell",
            "SAFE",  # Dee rested
            "Ben and Cy worked",
        ]
        for step, words in enumerate(steps, start=1):
            stage.step_reveal(session)
            await everyone_shows(f"{LIVE}.includes({json.dumps(words)})")
            dom = await dom_at(board, session)
            for later in steps[step:]:  # nothing of the next steps yet
                assert later not in dom, (step, later)
        assert stage.held_reveal(session) is None
        api = json.loads(await board_json(server))
        assert api["phase"] == "accusations" and api["today"]["workers"] == ["Ben", "Cy"]
        assert "Nights of work: 2 of 6" in await board.text()
        assert "Nights of work: 2 of 6" in await pages["Dee"].js(LIVE)


async def test_the_warden_deals_only_with_the_prisoner_in(
    chromium: Chromium, tmp_path: Path
) -> None:
    async with served(tmp_path) as (session, server):
        seats = {s.name: s for s in seats_of(session)}
        board = await chromium.open(board_url(server.base_url))
        warden = await chromium.open(seat_url(server.base_url, seats["Wendy"]))
        await warden.wait_for("document.body.dataset.ready === '1'")
        await warden.click("#cover")
        session.submit({"do": "close_planning"})
        await warden.wait_for(f"{LIVE}.includes('Nobody is in with you')")
        assert await warden.js("document.querySelectorAll('button.deal').length") == 0

        stage.call_in(session, "Cy", 90)
        await warden.wait_for(f"{LIVE}.includes('Cy is in with you')")
        await board.wait_for(f"{LIVE}.includes('Cy is with the warden')")
        buttons = await warden.js(
            "Array.from(document.querySelectorAll('button.deal')).map(b => b.dataset.value)"
        )
        assert buttons == ["Cy"]  # the deal is offered to the prisoner in, and nobody else
        await warden.click("button.deal[data-value=Cy]")
        await warden.click("button.deal[data-value=Cy]")
        await warden.wait_for("document.getElementById('deals-left').textContent === '0'")
        # the deal does not end the interview: the game master does, as without a deal
        assert stage.stage_of(session).interview is not None
        assert "with the warden" in await board.js(LIVE)
        assert session.state.prisoners["Cy"].parole_tokens == 1
        stage.send_out(session)
        await board.wait_for(f"!{LIVE}.includes('with the warden')")
        assert "Seen by the warden: Cy" in await board.text()
        assert "parole" not in (await board.text()).lower()


async def test_countdowns_tick_and_pause_on_every_face(chromium: Chromium, tmp_path: Path) -> None:
    async with served(tmp_path) as (session, server):
        seats = {s.name: s for s in seats_of(session)}
        board = await chromium.open(board_url(server.base_url))
        ada = await chromium.open(seat_url(server.base_url, seats["Ada"]))
        await ada.wait_for("document.body.dataset.ready === '1'")
        await ada.click("#cover")
        stage.limit_planning(session, 300)
        clock = "document.querySelector('#live .clock[data-left]')"
        for page in (board, ada):
            await page.wait_for(clock)
            assert await page.js(f"{clock}.dataset.paused") == "false"
            assert 299 <= float(await page.js(f"{clock}.dataset.left")) <= 300
            first = await page.js(f"{clock}.textContent")
            assert first in ("5:00", "4:59", "4:58")
            await page.wait_for(f"{clock}.textContent !== {json.dumps(first)}")  # it ticks
        assert "Planning ends in" in await ada.text()

        session.submit({"do": "close_planning"})
        stage.call_in(session, "Ben", 120)
        await board.wait_for(f"{LIVE}.includes('Ben is with the warden')")
        await ada.wait_for(f"{LIVE}.includes('Ben is with the warden')")
        stage.pause(session, "interview")
        for page in (board, ada):
            await page.wait_for(f"{clock}.dataset.paused === 'true'")
            assert "PAUSED" in (await page.text()).upper()
            shown = await page.js(f"{clock}.textContent")
            left = float(await page.js(f"{clock}.dataset.left"))
            assert shown == f"{int(-(-left // 1)) // 60}:{int(-(-left // 1)) % 60:02d}"
        view = json.loads(await board_json(server))
        assert view["stage"]["interview"]["clock"]["paused"] is True


async def test_the_boards_count_follows_the_phones(chromium: Chromium, tmp_path: Path) -> None:
    async with served(tmp_path) as (session, server):
        seats = {s.name: s for s in seats_of(session)}
        board = await chromium.open(board_url(server.base_url))
        count = "document.getElementById('phones').textContent"
        await board.wait_for(f"{count} === '0 of 5 phones connected'")
        dee = await chromium.open(seat_url(server.base_url, seats["Dee"]))
        await board.wait_for(f"{count} === '1 of 5 phones connected'")
        wendy = await chromium.open(seat_url(server.base_url, seats["Wendy"]))
        await board.wait_for(f"{count} === '2 of 5 phones connected'")
        await dee.send("Page.navigate", url="about:blank")  # the page goes: its stream closes
        session.note("anything")  # wakes the streams: the closed one fails to write and ends
        await board.wait_for(f"{count} === '1 of 5 phones connected'")
        assert json.loads(await board_json(server))["phones"] == {"connected": 1, "seats": 5}
        await wendy.send("Page.navigate", url="about:blank")
        session.note("anything")
        await board.wait_for(f"{count} === '0 of 5 phones connected'")


async def test_the_boards_sound_control_and_the_chime_at_zero(
    chromium: Chromium, tmp_path: Path
) -> None:
    async with served(tmp_path) as (session, server):
        board = await chromium.open(board_url(server.base_url))
        await board.wait_for("document.body.dataset.ready === '1'")
        label = "document.getElementById('sound').textContent"
        assert (await board.js(label)).startswith("Sound on")

        async def press_m() -> None:
            for kind in ("keyDown", "keyUp"):
                await board.send(
                    "Input.dispatchKeyEvent", type=kind, key="m", text="m", code="KeyM"
                )

        await press_m()
        await board.wait_for(f"{label} === 'Sound off (M)'")
        assert await board.js("localStorage.getItem('companion.board.sound')") == "off"
        await board.send("Page.reload")
        await board.wait_for("document.body.dataset.ready === '1'")
        assert await board.js(label) == "Sound off (M)"  # remembered
        await board.click("#sound")
        await board.wait_for(f"{label}.startsWith('Sound on')")

        await board.js(
            "window.zeros = 0; document.addEventListener('countdown-zero', () => window.zeros++)"
        )
        stage.limit_planning(session, 1)
        await board.wait_for("window.zeros === 1")
        clock = "document.querySelector('#live .clock[data-left]')"
        assert await board.js(f"{clock}.textContent") == "0:00"
        assert await board.js(f"{clock}.classList.contains('zero')")


# A stand-in for the browser's screen wake lock (a headless browser grants none), installed
# before the page's own script runs: it counts what the page asks for and lets go of.
FAKE_WAKE_LOCK = """
window.locks = {asked: 0, released: 0};
Object.defineProperty(navigator, 'wakeLock', {value: {request: function (kind) {
  window.locks.asked++;
  var lock = new EventTarget();
  lock.release = function () { window.locks.released++; return Promise.resolve(); };
  return Promise.resolve(lock);
}}});
"""


async def test_a_prisoners_phone_stays_awake_during_planning(
    chromium: Chromium, tmp_path: Path
) -> None:
    async with served(tmp_path) as (session, server):
        ada = next(s for s in seats_of(session) if s.name == "Ada")
        page = await chromium.open("about:blank")
        await page.send("Page.enable")
        await page.send("Page.addScriptToEvaluateOnNewDocument", source=FAKE_WAKE_LOCK)
        await page.send("Page.navigate", url=seat_url(server.base_url, ada))
        await page.wait_for("document.body.dataset.ready === '1'")
        await page.wait_for("window.locks.asked === 1")  # planning: the screen stays on
        session.submit({"do": "choose", "prisoner": "Ben", "choice": "work"})
        await dom_at(page, session)
        assert await page.js("window.locks") == {"asked": 1, "released": 0}  # held, not again
        session.submit({"do": "close_planning"})
        await page.wait_for("window.locks.released === 1")  # planning is over: let go
        assert await page.js("window.locks.asked") == 1
