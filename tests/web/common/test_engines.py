"""One phone journey, written once against :mod:`tests.engines`' driver interface and run in
each engine a room's phones use: Chromium, Firefox ESR (WebDriver BiDi) and WebKitGTK
(WebKitWebDriver under Xvfb), at 390×844.

The prison break: a prisoner's cover, the first tap keeping the screen awake by its video
(the page is on plain http, as at a venue), WORK then REST, "Saved", a reload, live updates
from another seat's phone and from the console, the server stopped under the page (a tap then
is said not sent yet, beside its buttons) and restarted (the tap sent by itself), the language
switch; the warden's deal; the join page with a typed seat code. The warm-up: a player joins
by name, chooses, and sees the reveal.

An engine that is not installed is skipped with a sentence saying how to install it, except
on CI (``CI=true``), where every engine must run. With ``COMPANION_SHOTS=folder`` each engine
leaves screenshots there (the page with its server stopped and a tap kept, then started again
and the tap sent).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from companion.language import language
from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import join_url, seat_url, seats_of
from companion.session.session import Session
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import start_dilemma_server
from companion.web.prison.server import start_phone_server
from tests import stage_helpers as stage
from tests.conftest import ROSTER
from tests.dilemma_helpers import scenario
from tests.engines import HEIGHT, WIDTH, Engine, Phone, ci, wait_for
from tests.engines.chromium import ChromiumEngine
from tests.engines.firefox import FirefoxEngine
from tests.engines.webkit import WebKitEngine
from tests.web.dilemma.conftest import ROOM_OF_PHONES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# A name that is not this machine's own (127.0.0.1 is a secure context, a venue's
# http://192.168.x.x is not): where the engine can be told, the pages are opened by it.
INSECURE_HOST = "phone.test"
SHOTS = os.environ.get("COMPANION_SHOTS")
NOT_ANSWERING = "Not confirmed: the game's laptop did not answer."
BESIDE = "(document.getElementById('beside') || {}).textContent || ''"


def make(name: str) -> tuple[Engine, str]:
    """The engine and the host its pages are opened at."""
    if name == "chromium":
        return ChromiumEngine(f"--host-resolver-rules=MAP {INSECURE_HOST} 127.0.0.1"), INSECURE_HOST
    if name == "firefox":
        return FirefoxEngine(local_domains=INSECURE_HOST), INSECURE_HOST
    return WebKitEngine(insecure_host=INSECURE_HOST), INSECURE_HOST


MISSING = {
    "chromium": ChromiumEngine.missing,
    "firefox": FirefoxEngine.missing,
    "webkit": WebKitEngine.missing,
}


@pytest.fixture(params=["chromium", "firefox", "webkit"])
async def engine(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Engine, str]]:
    missing = MISSING[request.param]()
    if missing:
        if ci():
            pytest.fail(f"CI must run every engine. {missing}")
        pytest.skip(missing)
    browser, host = make(request.param)
    await browser.start()
    try:
        yield browser, host
    finally:
        await browser.stop()


async def shot(phone: Phone, engine: Engine, name: str) -> None:
    if SHOTS:
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        await phone.screenshot(folder / f"{engine.name.split()[0].lower()}-{name}.png")


def pin(session: Session, host: str, port: int) -> None:
    """The name the pages are opened at pinned as the laptop's public address, as a game
    master whose venue names the laptop does (the server answers only its own names)."""
    if host != "127.0.0.1":
        session.set("public_url", f"http://{host}:{port}")


def at(base: str, host: str) -> str:
    return base.replace("127.0.0.1", host, 1)


async def awake_on_first_tap(phone: Phone) -> None:
    """The screen is kept awake by the page's video from the first tap: it plays."""
    await wait_for(
        phone, "document.getElementById('awake') && !document.getElementById('awake').paused"
    )
    start = float(await phone.js("document.getElementById('awake').currentTime"))
    await wait_for(phone, f"document.getElementById('awake').currentTime > {start} + 0.2", 10)
    assert await phone.js("document.getElementById('asleep') === null")


async def test_the_prison_break_on_a_phone(engine: tuple[Engine, str], tmp_path: Path) -> None:
    browser, host = engine
    session = create_prison_session(tmp_path, "engines", "classic", "Wendy", ROSTER)
    server = await start_phone_server(session, "127.0.0.1", 0)
    port = server.port
    pin(session, host, port)
    seats = {s.name: s for s in seats_of(session)}
    base = at(server.base_url, host)
    try:
        ada = await browser.open(seat_url(base, seats["Ada"]))
        await wait_for(ada, "document.body.dataset.ready === '1' && document.body.dataset.live")
        assert await ada.js("[innerWidth, innerHeight]") == [WIDTH, HEIGHT]
        # as at a venue's plain http address: no secure context, so no Wake Lock to ask for
        assert await ada.js("[location.hostname, window.isSecureContext]") == [host, False]
        assert await ada.js("!document.getElementById('cover').hidden")
        assert await ada.js("document.getElementById('page').hidden")
        await ada.tap("#cover")
        await wait_for(ada, "!document.getElementById('page').hidden")
        await awake_on_first_tap(ada)

        await ada.tap("button[data-value=work]")
        await wait_for(
            ada, "document.getElementById('saved').textContent === 'Saved: you WORK tonight.'"
        )
        await ada.tap("button[data-value=rest]")
        await wait_for(
            ada, "document.getElementById('saved').textContent === 'Saved: you REST tonight.'"
        )
        await wait_for(ada, "document.getElementById('status').textContent.includes('Saved')")
        assert session.state.day.choices["Ada"] == "rest"

        await ada.reload()
        await wait_for(ada, "document.body.dataset.ready === '1' && document.body.dataset.live")
        await ada.tap("#cover")
        await wait_for(ada, "document.querySelector('button.chosen[data-value=rest]')")

        ben = f"{server.base_url}/api/p/{seats['Ben'].token}/choice"  # Ben, on his own phone
        async with (
            aiohttp.ClientSession() as http,
            http.post(ben, json={"choice": "work"}) as answer,
        ):
            assert answer.status == 200
        await wait_for(ada, "document.getElementById('progress').textContent.startsWith('2 of 4')")
        session.submit({"do": "choose", "prisoner": "Cy", "choice": "rest"})  # the console
        await wait_for(ada, "document.getElementById('progress').textContent.startsWith('3 of 4')")

        await server.stop()
        await wait_for(ada, "!document.getElementById('offline').hidden", 15)
        rect = await ada.js("document.getElementById('offline').getBoundingClientRect().bottom")
        assert 0 < rect <= await ada.js("innerHeight") + 1
        if await ada.js("!document.getElementById('cover').hidden"):  # covered meanwhile
            await ada.tap("#cover")
        await ada.tap("button[data-value=work]")  # the laptop is not answering: kept
        await wait_for(ada, f"({BESIDE}).includes({NOT_ANSWERING!r})", 10)
        assert "Saved" not in str(await ada.js("document.body.innerText"))
        await shot(ada, browser, "prisoner-server-stopped")
        server = await start_phone_server(session, "127.0.0.1", port)
        await wait_for(ada, "document.getElementById('offline').hidden", 20)
        await wait_for(  # sent by itself
            ada, "document.getElementById('saved').textContent === 'Saved: you WORK tonight.'"
        )
        await wait_for(ada, "!document.getElementById('beside')")
        assert session.state.day.choices["Ada"] == "work"
        await shot(ada, browser, "prisoner-server-back")

        french = language("fr")
        await ada.tap(".languages a[hreflang=fr]")
        await wait_for(ada, "document.documentElement.lang === 'fr' && document.body.dataset.ready")
        await ada.tap("#cover")
        saved = french("Saved: you WORK tonight.")
        assert saved != "Saved: you WORK tonight."
        await wait_for(ada, f"document.getElementById('saved').textContent === {saved!r}")
        await ada.tap(".languages a[hreflang=en]")
        await wait_for(ada, "document.documentElement.lang === 'en' && document.body.dataset.ready")

        session.submit({"do": "close_planning"})
        await ada.goto(seat_url(base, seats["Wendy"]))
        await wait_for(ada, "document.body.dataset.ready === '1' && document.body.dataset.live")
        await ada.tap("#cover")
        stage.call_in(session, "Ben", 90)
        await wait_for(ada, "document.querySelector('button.deal[data-value=Ben]')")
        await ada.tap("button.deal[data-value=Ben]")
        await wait_for(
            ada,
            "document.querySelector('button.deal[data-value=Ben]').textContent"
            " === 'Tap again: deal with Ben'",
        )
        await ada.tap("button.deal[data-value=Ben]")
        await wait_for(ada, "document.getElementById('deals-left').textContent === '0'")
        assert session.state.prisoners["Ben"].parole_tokens == 1

        await ada.goto(join_url(base))
        await wait_for(ada, "document.querySelector('input[name=code]')")
        await ada.type("input[name=code]", seats["Dee"].code.lower())
        await ada.tap("form button[type=submit]")
        await wait_for(ada, "location.pathname.startsWith('/p/') && document.body.dataset.ready")
        assert "Dee" in str(await ada.js("document.title"))
    finally:
        await server.stop()
        session.close()


async def test_the_warm_up_on_a_phone(engine: tuple[Engine, str], tmp_path: Path) -> None:
    browser, host = engine
    session = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    joins = JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES)
    server = await start_dilemma_server(session, "127.0.0.1", 0, joins=joins)
    pin(session, host, server.port)
    try:
        ann = await browser.open(at(server.join_url, host))
        await wait_for(ann, "document.getElementById('name')")
        await ann.type("#name", "Ann")
        await ann.tap("form button[type=submit]")
        await wait_for(ann, "location.pathname.startsWith('/d/') && document.body.dataset.live")
        session.submit({"do": "join", "pid": "pbob", "name": "Bob"})
        session.submit({"do": "start_round", "seed": 3})
        await wait_for(ann, "document.querySelector('button[data-choice=silent]')")
        await ann.tap("button[data-choice=silent]")
        await wait_for(ann, "document.getElementById('saved').textContent.includes('stay SILENT')")
        session.submit({"do": "choose", "pid": "pbob", "choice": "betray"})
        if session.state.phase != "revealed":
            session.submit({"do": "close_round"})  # the game master closes it
        await wait_for(ann, "document.getElementById('my-result')", 20)
        assert "Bob BETRAYED" in str(await ann.js("document.getElementById('my-result').innerText"))
        await shot(ann, browser, "warm-up-reveal")
    finally:
        await server.stop()
        session.close()
