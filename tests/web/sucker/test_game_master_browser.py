"""The referee's page (So Long Sucker's game master's phone) in each engine a phone uses
(Chromium, Firefox, WebKit), at 390×844 and on a tablet: a game's moves tapped from the page's
buttons, undo with its second tap, the laptop asleep and back, French, a replaced link.
With ``COMPANION_SHOTS=folder`` each engine leaves screenshots there."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from companion.language import available, language
from companion.session.create import create_session
from companion.session.night import replace_phone_secret
from companion.web.sucker.server import start_sucker_server
from tests.engines import HEIGHT, WIDTH, Engine, wait_for
from tests.engines.chromium import ChromiumEngine
from tests.game_master_helpers import SUCKER_SETUP
from tests.web.common.game_master_browser import (
    ASKING,
    BESIDE,
    NOT_ANSWERING,
    ServedNight,
    ready,
    says,
)
from tests.web.common.test_engines import awake_on_first_tap, engine, shot
from tests.web.sucker.test_game_master import TO_A_CAPTURE
from tests.web.test_buttons_fit import OVERFLOWING

__all__ = ["engine"]  # the fixture: every engine, skipped with a sentence when missing

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
async def night(tmp_path: Path) -> AsyncIterator[ServedNight]:
    session = create_session(tmp_path / "chips.sqlite", "so-long-sucker", SUCKER_SETUP, None)
    served = ServedNight(session, start_sucker_server)
    await served.start()
    try:
        yield served
    finally:
        await served.stop()
        session.close()


def button(command: dict[str, Any]) -> str:
    """The selector of the move button that carries ``command``."""
    return f"button[data-action=move][data-value='{json.dumps(command)}']"


async def test_a_game_refereed_from_the_game_masters_phone(
    engine: tuple[Engine, str], night: ServedNight
) -> None:
    browser, host = engine
    session = night.session
    gm = await browser.open(night.url(host))
    await ready(gm)
    assert await gm.js("[innerWidth, innerHeight]") == [WIDTH, HEIGHT]
    assert await gm.js("document.documentElement.scrollWidth") <= WIDTH  # nothing wider
    small = await gm.js(
        "Array.from(document.querySelectorAll('#live button')).filter(b => "
        "b.getBoundingClientRect().height < 44 || b.getBoundingClientRect().width < 44).length"
    )
    assert small == 0  # every target a thumb's size

    await gm.tap(button({"do": "play", "player": "Ann", "color": "red", "pile": "new"}))
    await says(gm, "Ann played red on a new pile 1.")  # the console's log's line
    await awake_on_first_tap(gm)
    assert session.state.awaiting.what == "next"
    await wait_for(gm, "document.getElementById('gm-next') !== null")
    await shot(gm, browser, "referee-next")
    await gm.tap(button({"do": "next", "player": "Bo"}))
    await says(gm, "Ann gave the move to Bo.")
    # the console's move (an attached console's, through the same session), on the page
    session.submit({"do": "play", "player": "Bo", "color": "blue", "pile": 1})
    await wait_for(gm, "document.getElementById('gm-says').textContent === "
                   "'Cat must play a chip.'")
    await gm.tap(button({"do": "play", "player": "Cat", "color": "green", "pile": "new"}))
    await wait_for(gm, "document.getElementById('gm-next') !== null")
    await gm.tap(button({"do": "next", "player": "Bo"}))
    await wait_for(gm, "document.getElementById('gm-says').textContent === "
                   "'Bo must play a chip.'")
    await gm.tap(button({"do": "play", "player": "Bo", "color": "blue", "pile": 1}))
    await wait_for(gm, "document.getElementById('gm-kill') !== null")  # Bo captured pile 1
    await gm.tap(button({"do": "kill", "player": "Bo", "color": "blue"}))
    await wait_for(gm, "document.getElementById('gm-prisoners-Bo') !== null")
    assert session.state.holdings["Bo"].get("red") == 1
    # Bo's prisoner: given or killed at any time, its buttons open under Bo's name
    await gm.tap(button({"do": "transfer", "player": "Bo", "color": "red", "to": "Cat"}))
    await says(gm, "Bo gave a red chip to Cat.")
    assert session.state.holdings["Cat"].get("red") == 1
    await shot(gm, browser, "referee-prisoners")

    await gm.tap("button[data-action=undo]")  # asked first, as it is named
    await wait_for(gm, f"({ASKING}).includes('Take back Bo giving a red chip to Cat?')")
    await shot(gm, browser, "referee-undo-asked")
    await gm.tap("button[data-action=undo]")
    await says(gm, "Undone; the history keeps it as a correction.")
    assert session.state.holdings["Bo"].get("red") == 1

    await night.stop()  # the laptop asleep: the page says so, a tap is kept
    await wait_for(gm, "!document.getElementById('offline').hidden", 15)
    await gm.tap(button({"do": "kill_prisoner", "player": "Bo", "color": "red"}))
    await wait_for(gm, f"({BESIDE}).includes({NOT_ANSWERING!r})", 10)
    await shot(gm, browser, "referee-laptop-down")
    await night.start()
    await wait_for(gm, "document.getElementById('offline').hidden", 20)
    await says(gm, "Bo killed a red prisoner.")  # sent by itself once the laptop answered
    assert not session.state.holdings["Bo"].get("red")

    french = language("fr")
    await gm.tap(".languages a[hreflang=fr]")
    await wait_for(gm, "document.documentElement.lang === 'fr' && document.body.dataset.ready")
    assert french("Piles (top chip first)") in str(await gm.js("document.body.innerText"))
    await shot(gm, browser, "referee-french")

    replace_phone_secret(session.store.path)  # the console's R, as the desk does it
    assert night.desk is not None
    night.desk.phone = "t" * 43
    for listener in night.desk._phone_replaced:
        listener()
    await wait_for(gm, "document.body.classList.contains('problem') || "
                   "!document.getElementById('live')", 15)


async def test_the_page_on_a_tablet(night: ServedNight) -> None:
    missing = ChromiumEngine.missing()
    if missing:
        pytest.skip(missing)
    browser = ChromiumEngine(width=820, height=1180)
    await browser.start()
    try:
        night.session.submit({"do": "play", "player": "Ann", "color": "red", "pile": "new"})
        gm = await browser.open(night.url("127.0.0.1"))
        await ready(gm)
        assert await gm.js("[innerWidth, innerHeight]") == [820, 1180]
        assert await gm.js("document.documentElement.scrollWidth") <= 820
        columns: Any = await gm.js(
            "getComputedStyle(document.querySelector('#gm-next .targets'))"
            ".gridTemplateColumns.split(' ').length"
        )
        assert columns == 2
        await shot(gm, browser, "referee-tablet")
    finally:
        await browser.stop()


@pytest.mark.parametrize("width", [360, 390])
async def test_every_button_fits_its_words_in_every_language(
    night: ServedNight, width: int
) -> None:
    missing = ChromiumEngine.missing()
    if missing:
        pytest.skip(missing)
    for command in [*TO_A_CAPTURE, {"do": "kill", "player": "Bo", "color": "blue"}]:
        night.session.submit(command)  # piles to play on, and a prisoner to give or kill
    browser = ChromiumEngine(width=width, height=HEIGHT)
    await browser.start()
    try:
        found: dict[str, list[str]] = {}
        for code in available():
            gm = await browser.open(f"{night.url('127.0.0.1')}?lang={code}")
            await ready(gm)
            await gm.js("document.fonts.ready.then(() => true)")
            found[code] = list(await gm.js(OVERFLOWING))
            assert await gm.js("document.documentElement.scrollWidth") <= width, code
            await shot(gm, browser, f"referee-{code}-{width}")
        assert found == {code: [] for code in available()}
    finally:
        await browser.stop()
