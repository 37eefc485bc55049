"""The phone pages on a venue's bad network, in real headless Chromium with its network
emulation (DevTools ``Network.emulateNetworkConditions``: slow 3G, offline, online) and a
proxy that goes silent without closing anything (a Wi-Fi that died under an open stream).

What must hold: a page never shows a choice the server does not hold once it can know
better; a tap that did not get through is said, beside its buttons, not to be sent yet, and is
sent by itself as soon as the page is back in touch; the reconnect banner is in view wherever
the page is scrolled to; a stream silent for two heartbeats is reopened and shown as
reconnecting meanwhile. (The laptop itself down: tests/web/common/test_laptop_down.py.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import seat_url, seats_of
from companion.session.session import Session
from companion.web.common import fanout
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import start_dilemma_server
from companion.web.prison.server import start_phone_server
from tests.chromium import CHROMIUM, Chromium, Page
from tests.conftest import ROSTER
from tests.dilemma_helpers import scenario
from tests.web.dilemma.conftest import ROOM_OF_PHONES

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

# DevTools' own "Slow 3G": 2 s of latency, 400 kbit/s each way (bytes per second here)
SLOW_3G = {
    "offline": False,
    "latency": 2000,
    "downloadThroughput": 50_000,
    "uploadThroughput": 50_000,
}
OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0}
ONLINE = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
NOT_SENT = "Not sent"
NOT_YET = "Not sent yet: this phone is offline (check its Wi-Fi)."
BESIDE = "(document.getElementById('beside') || {}).textContent || ''"
# Whether the element the selector finds is shown and lies wholly inside the window
IN_VIEW = (
    "(s => { const e = document.querySelector(s); if (!e || e.hidden) return false;"
    " const r = e.getBoundingClientRect();"
    " return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; })"
)


async def network(page: Page, conditions: dict[str, object]) -> None:
    await page.send("Network.enable")
    await page.send("Network.emulateNetworkConditions", **conditions)


async def status(page: Page) -> str:
    return str(await page.js("document.getElementById('status').textContent"))


@contextlib.asynccontextmanager
async def prison(folder: Path, port: int = 0) -> AsyncIterator[tuple[Session, str]]:
    session = create_prison_session(folder, "net", "classic", "Wendy", ROSTER)
    server = await start_phone_server(session, "127.0.0.1", port)
    try:
        yield session, server.base_url
    finally:
        await server.stop()
        session.close()


async def prisoner(chromium: Chromium, base: str, session: Session, name: str) -> Page:
    seat = next(s for s in seats_of(session) if s.name == name)
    page = await chromium.open(seat_url(base, seat))
    await page.wait_for("document.body.dataset.ready === '1' && document.body.dataset.live")
    await page.click("#cover")
    await page.wait_for("!document.getElementById('page').hidden")
    return page


async def test_a_lost_answer_never_leaves_the_other_choice_on_screen(
    chromium: Chromium, tmp_path: Path
) -> None:
    """WORK, "Saved", REST on slow 3G, offline 0.5 s later, back 5 s later: the page ends
    showing what the server holds (REST, whether the tap arrived or was kept and sent again
    once back online; else WORK and "Not sent"), its part and its status line alike. (Before
    the pages kept versions, the late WORK view stayed under "Saved: you REST tonight.")"""
    async with prison(tmp_path) as (session, base):
        ada = await prisoner(chromium, base, session, "Ada")
        await network(ada, SLOW_3G)
        await ada.click("button[data-value=work]")
        await ada.wait_for("document.getElementById('status').textContent.includes('WORK')")
        await ada.click("button[data-value=rest]")
        await asyncio.sleep(0.5)
        await network(ada, OFFLINE)
        await asyncio.sleep(5)
        await network(ada, ONLINE)
        await asyncio.sleep(6)  # slow 3G's late answers have all landed, or failed
        stored = session.state.day.choices["Ada"]
        word = stored.upper()
        await ada.wait_for(
            f"document.getElementById('saved').textContent.includes('{word}') &&"
            f" document.querySelector('button.chosen').dataset.value === '{stored}'",
            timeout=20,
        )
        said = await status(ada) + await ada.js(BESIDE)
        if stored == "work":  # the tap never arrived: the page says so, or says nothing
            assert said == "" or NOT_SENT in said, said
        else:
            assert NOT_SENT not in said and "WORK" not in said, said


async def test_a_tap_while_offline_is_sent_once_back_online(
    chromium: Chromium, tmp_path: Path
) -> None:
    """A tap while offline says beside its buttons that it is not sent yet (this phone is
    offline) and is kept; back online, it is sent by itself as soon as the page is in touch
    again, and shown saved."""
    async with prison(tmp_path) as (session, base):
        ada = await prisoner(chromium, base, session, "Ada")
        await network(ada, OFFLINE)
        await ada.click("button[data-value=work]")
        await ada.wait_for(f"({BESIDE}).includes({NOT_YET!r})")
        await ada.wait_for(f"{IN_VIEW}('#offline')")
        assert "Ada" not in session.state.day.choices
        await network(ada, ONLINE)
        await ada.wait_for("document.getElementById('saved').textContent.includes('WORK')", 10)
        await ada.wait_for("!document.getElementById('beside')")
        await ada.wait_for("document.getElementById('offline').hidden")
        assert session.state.day.choices["Ada"] == "work"


async def test_the_warm_up_banner_is_in_view_and_a_kept_tap_goes_by_itself(
    chromium: Chromium, tmp_path: Path
) -> None:
    """The warm-up page, scrolled to its top at 390 px: the server stopped under it, the
    banner is in view; a tap then says "Not sent yet"; the server back, the banner goes and
    the tap is sent by itself."""
    session = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    joins = JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES)
    server = await start_dilemma_server(session, "127.0.0.1", 0, joins=joins)
    port = server.port
    try:
        page = await chromium.open(server.join_url)
        await page.wait_for("document.getElementById('name')")
        await page.js(
            "document.getElementById('name').value = 'Ada';"
            "document.querySelector('form button[type=submit]').click(); true"
        )
        await page.wait_for("location.pathname.startsWith('/d/') && document.body.dataset.live")
        session.submit({"do": "join", "pid": "pbob", "name": "Bob"})
        session.submit({"do": "start_round", "seed": 7})
        await page.wait_for("document.querySelector('button[data-choice=silent]')")
        await page.js("window.scrollTo(0, 0); 1")
        await server.stop()
        await page.wait_for(f"{IN_VIEW}('#offline')", timeout=10)
        await network(page, OFFLINE)
        await page.click("button[data-choice=silent]")
        await page.wait_for(f"({BESIDE}).includes({NOT_YET!r})")
        await network(page, ONLINE)
        server = await start_dilemma_server(session, "127.0.0.1", port, joins=joins)
        await page.wait_for("document.getElementById('offline').hidden", timeout=15)
        await page.wait_for("document.getElementById('saved').textContent.includes('SILENT')", 5)
        await page.wait_for("!document.getElementById('beside')")
    finally:
        await server.stop()
        session.close()


class Freezer:
    """A TCP proxy in front of the server that can go silent: while frozen it forwards
    nothing either way and closes nothing, like a Wi-Fi that died under an open stream."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = int(self.server.sockets[0].getsockname()[1])

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            while data := await reader.read(65536):
                await self.flowing.wait()
                writer.write(data)
                await writer.drain()
        writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self.flowing.wait()
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()


async def test_a_silent_stream_is_shown_and_reopened(
    chromium: Chromium, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heartbeats every second; the network goes silent without closing: within a few
    seconds the page shows it is reconnecting, and once the network flows again its reopened
    stream brings what changed meanwhile."""
    monkeypatch.setattr(fanout, "HEARTBEAT_SECONDS", 1.0)
    async with prison(tmp_path) as (session, base):
        proxy = Freezer(int(base.rsplit(":", 1)[1]))
        await proxy.start()
        try:
            ada = await prisoner(chromium, f"http://127.0.0.1:{proxy.port}", session, "Ada")
            await asyncio.sleep(2.5)  # a beat or two heard: the page knows their pace
            assert await ada.js("document.getElementById('offline').hidden")
            proxy.flowing.clear()
            await ada.wait_for(f"{IN_VIEW}('#offline')", timeout=8)
            session.submit({"do": "choose", "prisoner": "Ada", "choice": "rest"})  # the console
            await asyncio.sleep(1)
            proxy.flowing.set()
            await ada.wait_for("document.getElementById('offline').hidden", timeout=10)
            await ada.wait_for(
                "document.getElementById('saved').textContent.includes('REST')", timeout=5
            )
        finally:
            await proxy.stop()


def test_the_heartbeat_is_an_event_a_page_hears() -> None:
    assert fanout.beat(15.0) == b"event: beat\ndata: " + json.dumps(15.0).encode() + b"\n\n"
