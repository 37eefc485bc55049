"""End to end: real headless Chromium through one night on the phones and the board.

Chromium is driven through the DevTools protocol over a websocket (aiohttp's client). Four
prisoners choose on their pages, the warden deals and searches on theirs, and the board shows
the outcome, every page updating live through server-sent events.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import board_url, seat_url, seats_of
from companion.web.prison.server import start_phone_server
from tests import stage_helpers as stage
from tests.chromium import CHROMIUM, Chromium
from tests.conftest import ROSTER

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]


@contextlib.asynccontextmanager
async def served(folder: Path, name: str, roster: list[str]):  # type: ignore[no-untyped-def]
    """A fresh session (warden Wendy) and its phone server on 127.0.0.1, closed afterwards."""
    session = create_prison_session(folder, name, "classic", "Wendy", roster)
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        yield session, server
    finally:
        await server.stop()
        session.close()


async def test_one_night_on_real_phones(chromium: Chromium, tmp_path: Path) -> None:
    async with served(tmp_path, "night", ROSTER) as (session, server):
        seats = {s.name: s for s in seats_of(session)}
        base = server.base_url
        assert base.startswith("http://127.0.0.1:")
        board = await chromium.open(board_url(base))
        phones = {name: await chromium.open(seat_url(base, seat)) for name, seat in seats.items()}
        await board.wait_for("document.querySelector('#submitted')")
        plan = {"Ada": "work", "Ben": "work", "Cy": "rest", "Dee": "work"}

        for name, choice in plan.items():
            page = phones[name]
            await page.wait_for("document.body.dataset.ready === '1'")
            assert not await page.js("document.getElementById('cover').hidden")
            await page.click("#cover")
            await page.wait_for("!document.getElementById('page').hidden")
            await page.click(f"button[data-value={choice}]")
            await page.wait_for(
                "(document.getElementById('saved')||{}).textContent === "
                f"'Saved: you {choice.upper()} tonight.'"
            )
        await phones["Cy"].click("button[data-value=work]")  # Cy changes her mind, then back
        await phones["Cy"].wait_for("document.getElementById('saved').textContent.includes('WORK')")
        await phones["Cy"].click("button[data-value=rest]")
        await phones["Cy"].wait_for("document.getElementById('saved').textContent.includes('REST')")
        await board.wait_for("document.getElementById('submitted').textContent.includes('4 of 4')")
        board_text = await board.text()
        assert "WORK" not in board_text and "REST" not in board_text

        session.submit({"do": "close_planning"})  # the game master, in the console
        warden = phones["Wendy"]
        await warden.wait_for("document.body.dataset.ready === '1'")
        await warden.click("#cover")
        stage.call_in(session, "Ben", 90)  # the game master calls Ben in to the warden
        await warden.wait_for("document.querySelector('button.deal[data-value=Ben]')")
        await warden.click("button.deal[data-value=Ben]")  # a first tap only asks to confirm
        await warden.wait_for(
            "document.querySelector('button.deal[data-value=Ben]').textContent === "
            "'Tap again: deal with Ben'"
        )
        await asyncio.sleep(0.3)
        assert session.state.prisoners["Ben"].parole_tokens == 0
        await warden.click("button.deal[data-value=Ben]")
        await warden.wait_for("document.getElementById('deals-left').textContent === '0'")
        # Ben is still in: nothing of the deal reaches the room (his phone neither) until the
        # game master ends the interview, as one without a deal ends
        assert await phones["Ben"].js("document.getElementById('my-parole').textContent") == "0"
        stage.send_out(session)
        await phones["Ben"].wait_for("document.getElementById('my-parole').textContent === '1'")
        assert await phones["Ada"].js("document.getElementById('my-parole').textContent") == "0"
        assert "parole" not in (await board.text()).lower()

        await warden.click("button.search[data-value=Ada]")
        await warden.click("button.search[data-value=Cy]")  # another button: Ada is let go
        await warden.wait_for(
            "document.querySelector('button.search[data-value=Ada]').textContent === 'Search Ada'"
        )
        await asyncio.sleep(0.3)
        assert session.state.phase == "interviews"
        await warden.click("button.search[data-value=Ada]")
        await warden.click("button.search[data-value=Ada]")
        await warden.wait_for("document.getElementById('status').textContent.includes('reveals')")
        assert session.state.prisoners["Ada"].status == "caught"
        warden_status = await warden.js("document.getElementById('status').textContent")
        assert warden_status == "Searched Ada's cell; the game master now reveals it to the room."
        assert "CAUGHT" not in await board.text()  # until the game master reveals it
        stage.step_reveal(session, to_end=True)
        await warden.wait_for("document.body.innerText.includes('Ada was caught working')")
        await board.wait_for("document.body.innerText.includes('Nights of work: 2 of 6')")
        board_text = await board.text()
        assert "The warden searches Ada's cell…" in board_text and "CAUGHT" in board_text
        assert "Ben and Dee worked tonight" in board_text
        await phones["Ada"].wait_for("document.body.innerText.includes('caught working and out')")
        # Ada's "Saved: you WORK tonight." belonged to planning, the warden's answer to the
        # moment before the reveal: both gone now.
        assert await phones["Ada"].js("document.getElementById('status').textContent") == ""
        assert await warden.js("document.getElementById('status').textContent") == ""
        for name in ("Ben", "Cy", "Dee"):
            await phones[name].wait_for("document.body.innerText.includes('Ben and Dee worked')")
        state = session.state
        assert (state.phase, state.nights_done) == ("accusations", 2)
        assert state.prisoners["Ada"].status == "caught"
        assert state.prisoners["Ben"].parole_tokens == 1


async def test_join_with_a_typed_seat_code(chromium: Chromium, tmp_path: Path) -> None:
    async with served(tmp_path, "join", ROSTER) as (session, server):
        cy = next(s for s in seats_of(session) if s.name == "Cy")
        page = await chromium.open(f"{server.base_url}/join")
        await page.wait_for("document.querySelector('input[name=code]')")
        typed = json.dumps(cy.code.lower()[:4] + " " + cy.code.lower()[4:])
        await page.js(f"document.querySelector('input[name=code]').value = {typed}")
        await page.js("document.querySelector('form').submit()")
        await page.wait_for(f"location.pathname === '/p/{cy.token}'")
        await page.wait_for("document.body.dataset.ready === '1'")
        await page.click("#cover")
        await page.wait_for("document.body.innerText.includes('Prisoner, in the game')")
        assert "Cy" in await page.text()


async def test_a_page_left_untouched_covers_itself(chromium: Chromium, tmp_path: Path) -> None:
    async with served(tmp_path, "idle", ROSTER) as (session, server):
        ada = next(s for s in seats_of(session) if s.name == "Ada")
        page = await chromium.open(seat_url(server.base_url, ada))
        await page.wait_for("document.body.dataset.ready === '1'")
        assert await page.js("document.body.dataset.coverAfter") == "30"
        await page.js("document.body.dataset.coverAfter = '1.5'")  # not half a minute here
        await page.click("#cover")
        assert not await page.js("document.getElementById('page').hidden")
        await page.click("button[data-value=work]")
        await page.wait_for("document.getElementById('saved').textContent.includes('WORK')")
        await page.wait_for("!document.getElementById('cover').hidden", timeout=10)
        assert await page.js("document.getElementById('page').hidden")
        assert await page.js("document.getElementById('status').textContent") == ""
        await page.click("#cover")  # one tap shows it again
        assert not await page.js("document.getElementById('page').hidden")
