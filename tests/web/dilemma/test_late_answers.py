"""A warm-up player's phone on a slow network, in real headless Chromium: SILENT, then BETRAY,
and an answer from before the second tap reaches the page last (held in the browser by the
DevTools protocol's ``Fetch`` domain until the second tap's answers have arrived). The page must
end up as the server holds it: BETRAY chosen and "Saved: you BETRAY.". (A choice's answer carries
the page, and the stream of the page that posted then sends it the counts alone: while the
first answer is held, the page does not show SILENT yet.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest

from companion.session.session import Session
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import start_dilemma_server
from tests.chromium import CHROMIUM, Chromium
from tests.dilemma_helpers import scenario
from tests.web.dilemma.conftest import ROOM_OF_PHONES
from tests.web.dilemma.test_browser import join
from tests.web.late import Late, count_answers, handled
from tests.web.prison.test_late_answers import BACK_ON_THE_PAGE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

SAVED = "document.getElementById('saved').textContent"
STATUS = "document.getElementById('status').textContent"


@pytest.mark.parametrize(
    ("late", "kind"),
    [("*/part", "part"), ("*/api/d/*/choice", "post")],
    ids=["the-first-part-comes-last", "the-first-answer-comes-last"],
)
async def test_an_old_answer_arriving_last_changes_nothing(
    chromium: Chromium, tmp_path: Path, late: str, kind: str
) -> None:
    session = Session.create(tmp_path / "late.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    joins = JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES)
    server = await start_dilemma_server(session, "127.0.0.1", 0, joins=joins)
    try:
        ada = await join(chromium, server.join_url, "Ada")
        await join(chromium, server.join_url, "Ben")
        session.submit({"do": "start_round", "seed": 7})
        await ada.wait_for("document.querySelector('button[data-choice=betray]')")
        token = str(await ada.js("location.pathname")).removeprefix("/d/")
        await count_answers(ada)
        async with Late(ada, late) as held:
            await ada.click("button[data-choice=silent]")
            if kind == "part":  # the answer's own part, and the phone is back on the page: it
                await ada.wait_for(f"{SAVED}.startsWith('Saved: you stay SILENT.')")
                await ada.wait_for("window.__handled.post === 1")
                await ada.js(BACK_ON_THE_PAGE)  # fetches its part
            await held.wait_held()  # answered by the server (SILENT), not yet by the browser
            if kind == "post":  # the answer carries the page: its stream sends the counts alone
                assert await server_holds(server.base_url, token) == "silent"
                assert not str(await ada.js(SAVED)).startswith("Saved: you stay SILENT.")
            await ada.click("button[data-choice=betray]")
            await ada.wait_for(
                f"{SAVED}.startsWith('Saved: you BETRAY.') && {STATUS} === 'Saved: you BETRAY.'"
            )
            before = await handled(ada, kind)
            await held.release()  # the old answer arrives now, after everything newer
            await ada.wait_for(f"window.__handled.{kind} > {before}")
        truth, version = await server_holds(server.base_url, token, version=True)
        assert truth == "betray"
        assert str(await ada.js(SAVED)).startswith("Saved: you BETRAY.")
        assert await ada.js(STATUS) == "Saved: you BETRAY."
        pressed = "document.querySelector('button[data-choice=%s]').getAttribute('aria-pressed')"
        assert await ada.js(pressed % "betray") == "true"
        assert await ada.js(pressed % "silent") == "false"
        assert await ada.js("document.querySelector('button.chosen').dataset.choice") == "betray"
        assert await ada.js("document.body.dataset.version") == version
    finally:
        await server.stop()
        session.close()


async def server_holds(base: str, token: str, *, version: bool = False) -> Any:
    """The choice the server holds for the seat (and the version it is of)."""
    async with aiohttp.ClientSession() as http, http.get(f"{base}/api/d/{token}") as r:
        choice = (await r.json())["me"]["choice"]
        return (choice, r.headers.get("X-View-Version")) if version else choice
