"""The warm-up's game master's phone in each engine a phone uses (Chromium, Firefox, WebKit), at
390×844, and on a tablet's 820×1180 (Chromium): a tournament run from its taps, the console's
questions before the second tap, the screen kept awake, the laptop not
answering (a tap kept and sent by itself once it answers), the page in French; the secret
replaced ends the page.

With ``COMPANION_SHOTS=folder`` each engine leaves screenshots there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from companion.language import language
from companion.rules.dilemma.commands import Choose, Join
from companion.session.dilemma import DilemmaSession
from companion.session.session import Session
from companion.web.common.context import log_version
from companion.web.dilemma.server import start_dilemma_server
from tests.dilemma_helpers import scenario
from tests.engines import HEIGHT, WIDTH, Engine, Phone, wait_for
from tests.engines.chromium import ChromiumEngine
from tests.web.common.game_master_browser import (
    ASKING,
    BESIDE,
    NOT_ANSWERING,
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
    session: DilemmaSession = Session.create(  # type: ignore[assignment]
        tmp_path / "gm.sqlite", "dilemma", {"rules": scenario(rounds=2)}
    )
    for pid, name in (("p1", "Ann"), ("p2", "Bob"), ("p3", "Cy"), ("p4", "Dee")):
        session.submit(Join(pid=pid, name=name), by="phone:join")
    served = ServedNight(session, lambda s, host, port, desk: start_dilemma_server(
        s, host, port, desk=desk))
    await served.start()
    try:
        yield served
    finally:
        await served.stop()
        session.close()


async def settled(phone: Phone, session: DilemmaSession) -> None:
    """The page shows the game as it is now (the part after the last tap's answer is in: a
    tap is not aimed at a button about to be replaced)."""
    await wait_for(phone, f"document.body.dataset.version === '{log_version(session)}'")


async def tap(phone: Phone, session: DilemmaSession, selector: str) -> None:
    """A tap on the page as it stands once settled."""
    await settled(phone, session)
    await phone.tap(selector)


async def tap_twice(
    phone: Phone, selector: str, question: str, session: DilemmaSession | None = None
) -> None:
    """The console's question said above the button, then the second tap."""
    if session is not None:
        await settled(phone, session)
    await phone.tap(selector)
    await wait_for(phone, f"({ASKING}).includes({question!r})")
    await phone.tap(selector)


async def shows(phone: Phone, selector: str) -> None:
    """The part that shows ``selector`` is in (a tap is not aimed at the part before it)."""
    await wait_for(phone, f"document.querySelector({selector!r}) !== null")


async def test_a_tournament_from_the_game_masters_phone(
    engine: tuple[Engine, str], night: ServedNight
) -> None:
    browser, host = engine
    session = night.session
    gm = await browser.open(night.url(host))
    await ready(gm)
    assert await gm.js("[innerWidth, innerHeight]") == [WIDTH, HEIGHT]
    assert await gm.js("document.documentElement.scrollWidth") <= WIDTH  # nothing wider
    await tap(gm, session, "details#gm-house summary")
    await tap(gm, session, "details#gm-players summary")
    small = await gm.js(
        "Array.from(document.querySelectorAll('#live button, #live summary')).filter(b => "
        "b.getBoundingClientRect().height < 44).length"
    )
    assert small == 0  # every target a thumb's size
    await tap(gm, session, "button[data-action=house][data-value=always_silent]")
    await says(gm, "The house player is now House (Always Silent).")
    assert session.state.house == "always_silent"
    await tap(gm, session, "button[data-action=round_time][data-value='60']")
    await says(gm, "Rounds now last 60 s from the next one.")
    await shot(gm, browser, "gm-lobby")

    await tap(gm, session, "button[data-action=next_round]")
    await says(gm, "Round 1 has started: 60 s to choose.")
    assert session.state.phase == "choosing"
    await awake_on_first_tap(gm)
    await wait_for(gm, "document.getElementById('gm-clock') !== null")
    session.submit(Choose(pid="p1", choice="silent"), by="phone")  # a player's phone
    await wait_for(gm, "document.getElementById('gm-title').textContent.includes('1 of 4')")
    assert "SILENT" not in str(await gm.js("document.body.innerText"))  # never a choice
    await tap(gm, session, "button[data-action=more_time]")
    await wait_for(gm, f"({STATUS}).startsWith('Round 1 has 30 s more')")
    await shot(gm, browser, "gm-round")

    await tap_twice(gm, "button[data-action=remove][data-value=p4]",
                    "Dee sits out every round from now on; you can bring them back.", session)
    await says(gm, "Dee has left the tournament; you can bring them back.")
    assert not session.state.player("p4").present  # type: ignore[union-attr]
    await shows(gm, "button[data-action=bring_back][data-value=p4]")  # the part after it

    # a choice comes in while the button waits for its second tap: the new part keeps it
    # waiting, with the question as it now stands, and the players' list unfolded
    await tap(gm, session, "button[data-action=close_round]")
    await wait_for(gm, f"({ASKING}).includes('2 players have not chosen')")
    session.submit(Choose(pid="p2", choice="betray"), by="phone")
    await wait_for(gm, f"({ASKING}).includes('1 player has not chosen')")
    assert await gm.js("document.querySelector('button.armed[data-action=close_round]') !== null")
    assert await gm.js("document.getElementById('gm-players').open")
    await gm.tap("button[data-action=close_round]")
    await says(gm, "The round is revealed.")
    assert session.state.phase == "revealed"
    await shows(gm, "#gm-next")

    await tap_twice(gm, "button[data-action=undo]", "The room has already seen round 1", session)
    await wait_for(gm, f"({STATUS}).startsWith('Undone: round 1 is open again')")
    assert session.state.phase == "choosing" and session.room.timer_off(1)
    await shows(gm, "#gm-round")
    await shot(gm, browser, "gm-undone")

    await night.stop()  # the laptop asleep: the page says so, a tap is kept
    await wait_for(gm, "!document.getElementById('offline').hidden", 15)
    await tap_twice(gm, "button[data-action=close_round]", "not chosen: no answer")
    await wait_for(gm, f"({BESIDE}).includes({NOT_ANSWERING!r})", 10)
    await shot(gm, browser, "gm-laptop-down")
    await night.start()
    await wait_for(gm, "document.getElementById('offline').hidden", 20)
    await wait_for(gm, "document.getElementById('gm-next') !== null", 20)  # sent by itself
    assert session.state.phase == "revealed"

    await tap_twice(gm, "button[data-action=finish]", "No more rounds will be played.", session)
    await says(gm, "The tournament is over.")
    line = "document.querySelector('#gm-finale p').textContent"
    await settled(gm, session)
    while await gm.js("document.querySelector('button[data-action=finale]') !== null"):
        before = await gm.js(line)
        await tap(gm, session, "button[data-action=finale][data-value=next]")
        await wait_for(gm, f"{line} !== {before!r}")  # the room sees the next step
    assert session.room.finale >= 2  # (at least everyone's place and the whole)
    assert "the room has seen it all" in str(await gm.js(line))
    await shot(gm, browser, "gm-finale")

    french = language("fr")
    await gm.tap(".languages a[hreflang=fr]")
    await wait_for(gm, "document.documentElement.lang === 'fr' && document.body.dataset.ready")
    assert french("The tournament is over.") in str(await gm.js("document.body.innerText"))
    await shot(gm, browser, "gm-french")

    assert night.desk is not None
    night.desk.phone = "t" * 43  # the console's R, as the desk does it
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
        gm = await browser.open(night.url("127.0.0.1"))
        await ready(gm)
        assert await gm.js("[innerWidth, innerHeight]") == [820, 1180]
        assert await gm.js("document.documentElement.scrollWidth") <= 820
        columns = await gm.js(
            "getComputedStyle(document.querySelector('#gm-doors .targets'))"
            ".gridTemplateColumns.split(' ').length"
        )
        assert columns == 2
        await shot(gm, browser, "gm-tablet")
    finally:
        await browser.stop()
