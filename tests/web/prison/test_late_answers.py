"""A prisoner's phone on a slow network, in real headless Chromium: she taps WORK, then REST,
and an answer from before the second tap reaches the page last (held in the browser by the
DevTools protocol's ``Fetch`` domain until the second tap's answers have arrived). The page
must end up as the server holds it: REST chosen, "Saved: you REST tonight.", and it must not
wait for planning to close to get there (the server then sends only counts)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import Seat, seat_url, seats_of
from companion.session.session import Session
from companion.web.common.server import PhoneServer
from companion.web.prison.server import start_phone_server
from tests.chromium import CHROMIUM, Chromium, Page
from tests.conftest import ROSTER
from tests.web.late import Late, count_answers, handled

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

SAVED = "document.getElementById('saved').textContent"
STATUS = "document.getElementById('status').textContent"
# What a phone's browser tells a page when it is shown again (the screen unlocked, the tab
# back): it fetches its part (the first one after a tap may be the tap's own re-fetch instead).
BACK_ON_THE_PAGE = "document.dispatchEvent(new Event('visibilitychange')); true"


@contextlib.asynccontextmanager
async def served(folder: Path) -> AsyncIterator[tuple[Session[Any], PhoneServer]]:
    session = create_prison_session(folder, "late", "classic", "Wendy", ROSTER)
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        yield session, server
    finally:
        await server.stop()
        session.close()


async def ada_uncovered(
    chromium: Chromium, session: Session[Any], server: PhoneServer
) -> tuple[Seat, Page]:
    """Ada's seat and her page, ready, uncovered, its answers counted (:func:`count_answers`)."""
    ada = next(s for s in seats_of(session) if s.name == "Ada")
    page = await chromium.open(seat_url(server.base_url, ada))
    await page.wait_for("document.body.dataset.ready === '1' && document.body.dataset.live")
    await page.click("#cover")
    await count_answers(page)
    return ada, page


@pytest.mark.parametrize(
    ("late", "kind"),
    [("*/part", "part"), ("*/api/p/*/choice", "post")],
    ids=["the-first-part-comes-last", "the-first-answer-comes-last"],
)
async def test_an_old_answer_arriving_last_changes_nothing(
    chromium: Chromium, tmp_path: Path, late: str, kind: str
) -> None:
    async with served(tmp_path) as (session, server):
        ada, page = await ada_uncovered(chromium, session, server)
        async with Late(page, late) as held:
            await page.click("button[data-value=work]")
            await page.wait_for(f"{SAVED} === 'Saved: you WORK tonight.'")  # by its stream
            if kind == "part":  # and the phone is back on the page: it fetches its part
                await page.wait_for("window.__handled.post === 1")
                await page.js(BACK_ON_THE_PAGE)
            await held.wait_held()  # answered by the server (WORK), not yet by the browser
            assert session.state.day.choices["Ada"] == "work"
            await page.click("button[data-value=rest]")
            await page.wait_for(
                f"{SAVED} === 'Saved: you REST tonight.' && {STATUS} === 'Saved: you REST tonight.'"
            )
            assert session.state.day.choices["Ada"] == "rest"
            before = await handled(page, kind)
            await held.release()  # the old answer arrives now, after everything newer
            await page.wait_for(f"window.__handled.{kind} > {before}")
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{server.base_url}/api/p/{ada.token}") as r,
        ):
            truth = (await r.json())["me"]["choice"]
            version = r.headers.get("X-View-Version")
        assert truth == "rest"
        assert await page.js(SAVED) == "Saved: you REST tonight."
        assert await page.js(STATUS) == "Saved: you REST tonight."
        pressed = "document.querySelector('button[data-value=%s]').getAttribute('aria-pressed')"
        assert await page.js(pressed % "rest") == "true"
        assert await page.js(pressed % "work") == "false"
        assert await page.js("document.querySelector('button.chosen').dataset.value") == "rest"
        assert await page.js("document.body.dataset.version") == version


async def test_the_same_part_again_leaves_the_page_as_it_is(
    chromium: Chromium, tmp_path: Path
) -> None:
    """A part fetched again (the phone back on the page, or a tap's own re-fetch) that is the
    very part the page shows, of the same version, is not swapped in again: a button the player
    is tapping meanwhile stays the one they tap (a swap lost that tap)."""
    async with served(tmp_path) as (session, server):
        _, page = await ada_uncovered(chromium, session, server)
        await page.click("button[data-value=work]")
        await page.wait_for(f"{SAVED} === 'Saved: you WORK tonight.' && {STATUS} !== 'Sending…'")
        await page.wait_for("window.__handled.post === 1")
        marked = "document.querySelector('button[data-value=rest]').__marked"
        await page.js(f"{marked} = true; true")
        before = await handled(page, "part")
        await page.js(BACK_ON_THE_PAGE)  # the same part, fetched again
        await page.wait_for(f"window.__handled.part > {before}")
        assert await page.js(f"{marked} === true"), "the page's part was swapped for itself"
        session.submit({"do": "choose", "prisoner": "Ben", "choice": "rest"})  # a change
        await page.wait_for("document.getElementById('progress').textContent.startsWith('2 of')")
        await page.click("button[data-value=rest]")
        await page.wait_for(f"{SAVED} === 'Saved: you REST tonight.'")
        assert session.state.day.choices["Ada"] == "rest"
