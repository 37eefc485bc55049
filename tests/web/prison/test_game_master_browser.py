"""The game master's phone in each engine a phone uses (Chromium, Firefox, WebKit), at 390×844
and on a tablet's 820×1180 (Chromium): a prison day from its taps, the console's questions
before the second tap, the screen kept awake, the laptop not answering (a tap kept and sent
by itself once it answers), the page in French; the secret replaced ends the page.

With ``COMPANION_SHOTS=folder`` each engine leaves screenshots there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from companion.language import language
from companion.rules.prison.views import table
from companion.session.night import replace_phone_secret
from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import seats_of
from companion.tui.prison.told import undo_question
from companion.web.prison.server import start_phone_server
from tests.conftest import ROSTER
from tests.engines import HEIGHT, WIDTH, Engine, Phone, wait_for
from tests.engines.chromium import ChromiumEngine
from tests.web.common.game_master_browser import (
    ASKING,
    BESIDE,
    STATUS,
    ServedNight,
    ready,
    says,
)
from tests.web.common.test_engines import awake_on_first_tap, engine, shot

__all__ = ["engine"]  # the fixture: every engine, skipped with a sentence when missing

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
async def night(tmp_path: Path) -> AsyncIterator[ServedNight]:
    session = create_prison_session(tmp_path, "gm", "classic", "Wendy", ROSTER)
    seats_of(session)
    served = ServedNight(session, lambda s, host, port, desk: start_phone_server(
        s, host, port, desk=desk))
    await served.start()
    try:
        yield served
    finally:
        await served.stop()
        session.close()


async def tap_shown(phone: Phone, selector: str) -> None:
    """A tap on a button the page's next part brings: the answer to the last tap says what it
    did at once, the part with the buttons that follow comes on the page's stream (later, on
    a loaded machine)."""
    await wait_for(phone, f"document.querySelector({selector!r}) !== null")
    await phone.tap(selector)


async def tap_twice(phone: Phone, selector: str, question: str) -> None:
    """The console's question said above the button, then the second tap."""
    await tap_shown(phone, selector)
    await wait_for(phone, f"({ASKING}).includes({question!r})")
    await phone.tap(selector)


async def test_a_prison_day_from_the_game_masters_phone(
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
        "b.getBoundingClientRect().height < 44).length"
    )
    assert small == 0  # every target a thumb's size

    session.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})  # a prisoner's phone
    await wait_for(gm, "document.getElementById('gm-prisoners').textContent.includes('chosen')")
    await gm.tap("button[data-action=limit][data-value='300']")
    await says(gm, "Planning closes in 5:00; at zero you are asked to close it.")
    await awake_on_first_tap(gm)
    assert session.room.stage.planning is not None
    await gm.tap("button[data-action=pause][data-value=planning]")
    await says(gm, "The clock is paused.")
    await shot(gm, browser, "gm-planning")
    await tap_twice(gm, "button[data-action=close_planning]",
                    "Ben, Cy and Dee have not chosen and will rest tonight.")
    await says(gm, "Planning is closed.")
    assert session.state.phase == "interviews"

    await tap_shown(gm, "button[data-action=call_in][data-value=Ada]")
    await wait_for(gm, "document.getElementById('gm-interview') !== null")
    await gm.tap("input[name=named][value=Ben]")
    await gm.tap("button[data-action=extend][data-value=interview]")  # a part comes: kept ticked
    await says(gm, "30 seconds more.")
    assert await gm.js("document.querySelector('input[name=named][value=Ben]').checked")
    await shot(gm, browser, "gm-interview")
    await gm.tap("button[data-action=deal][data-value=Ada]")
    await says(gm, "Ada's interview is recorded.")
    assert session.state.prisoners["Ada"].parole_tokens == 1
    assert session.state.day.named == (("Ada", ("Ben",)),)

    await tap_twice(gm, "button[data-action=search][data-value=Ben]",
                    "Ben, Cy and Dee were not interviewed (no deal).")
    await wait_for(gm, "document.getElementById('gm-reveal') !== null")
    steps = len(session.room.stage.reveal.steps) if session.room.stage.reveal else 0
    for step in range(1, steps + 1):
        await gm.tap("button[data-action=reveal][data-value=next]")
        await wait_for(gm, f"Number(document.body.dataset.version) >= 0 && "
                       f"document.querySelectorAll('#gm-reveal li').length >= {step} || "
                       "document.getElementById('gm-reveal') === null")
    await wait_for(gm, "document.getElementById('gm-reveal') === null")
    assert session.room.held is None
    await shot(gm, browser, "gm-after-the-search")

    accuser = table(session.state)["may_accuse"][0]
    await gm.tap("details.accuser summary")
    await gm.tap("details.accuser[open] button[data-action=accuse]")
    await wait_for(gm, "document.querySelector('button.armed') !== null")
    await gm.tap("button.armed")
    await wait_for(gm, f"({STATUS}).includes({accuser!r})")
    assert session.state.day.accusations

    day = session.state.day.number
    await tap_twice(gm, "button[data-action=end_day]",
                    f"Day {day} ends and day {day + 1} starts with planning.")
    await says(gm, "The day is over.")
    assert session.state.day.number == day + 1

    hseq = session.history.undo_target().seq  # type: ignore[union-attr]
    title, question = undo_question(session, hseq)
    await gm.tap("button[data-action=undo]")
    await wait_for(gm, f"({ASKING}) === {f'{title} {question}'!r}")  # the console's words
    await shot(gm, browser, "gm-undo-asked")
    await gm.tap("button[data-action=undo]")
    await says(gm, "Undone; the history keeps it as a correction.")
    assert session.state.day.number == day

    await night.stop()  # the laptop asleep: the page says so, a tap is kept
    await wait_for(gm, "!document.getElementById('offline').hidden", 15)
    await tap_twice(gm, "button[data-action=end_day]", "starts with planning.")
    await wait_for(gm, f"({BESIDE}).includes('Not confirmed: the laptop did not answer.')", 10)
    await shot(gm, browser, "gm-laptop-down")
    await night.start()
    await wait_for(gm, "document.getElementById('offline').hidden", 20)
    await says(gm, "The day is over.")  # sent by itself once the laptop answered
    assert session.state.day.number == day + 1

    french = language("fr")
    await gm.tap(".languages a[hreflang=fr]")
    await wait_for(gm, "document.documentElement.lang === 'fr' && document.body.dataset.ready")
    assert french("Planning time limit") in str(await gm.js("document.body.innerText"))
    await shot(gm, browser, "gm-french")

    replace_phone_secret(session.store.path)  # the console's R, as the desk does it
    assert night.desk is not None
    night.desk.phone = "t" * 43
    for listener in night.desk._phone_replaced:
        listener()
    await wait_for(gm, "document.body.classList.contains('problem') || "
                   "!document.getElementById('live')", 15)


async def test_the_page_on_a_tablet(night: ServedNight, tmp_path: Path) -> None:
    missing = ChromiumEngine.missing()
    if missing:
        pytest.skip(missing)
    browser = ChromiumEngine(width=820, height=1180)
    await browser.start()
    try:
        gm = await browser.open(night.url("127.0.0.1"))
        await ready(gm)
        assert await gm.js("[innerWidth, innerHeight]") == [820, 1180]
        assert await gm.js("document.documentElement.scrollWidth") <= 820
        columns: Any = await gm.js(
            "getComputedStyle(document.querySelector('#gm-planning .targets'))"
            ".gridTemplateColumns.split(' ').length"
        )
        assert columns == 2
        await shot(gm, browser, "gm-tablet")
    finally:
        await browser.stop()


async def test_a_page_whose_stream_was_closed_when_replaced_ends_too(
    engine: tuple[Engine, str], night: ServedNight
) -> None:
    """The link replaced while the page's stream was not open (the phone asleep, its
    Wi-Fi away): once the stream is refused, the page shows why instead of a stale game."""
    browser, host = engine
    gm = await browser.open(night.url(host))
    await ready(gm)
    await night.stop()  # the page's stream is lost, and refused once the laptop is back
    await wait_for(gm, "!document.getElementById('offline').hidden", 15)
    night.secret = "t" * 43
    await night.start()
    await wait_for(gm, "document.body.classList.contains('problem')", 20)
