"""The venue preflight from the consoles, through their keys (Textual's pilot): I on the prison
break's Seats screen and in the warm-up's room opens the network test; a scripted client on
127.0.0.1 opens the test page (and runs its check, as the page's script does) and the line says
that this laptop itself reached it, which is no phone; a visit from another address turns it
green with "Reached from 192.0.2.50 in N ms."; without a phone the likely causes follow,
with this system's firewall fix. The test page is served alone on the game's port when no phone
server runs, on the running phone server's own port otherwise."""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from pathlib import Path
from typing import Any

import aiohttp
from textual.color import Color
from textual.widgets import Static

from companion.cli import wiring
from companion.session.session import Session
from companion.tui.common.netcheck import NetworkCheckScreen
from companion.tui.common.network import firewall_fix
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.seats import SeatsScreen
from tests.conftest import demo_session, free_port
from tests.dilemma_helpers import scenario
from tests.tui.support import shows


def _args(port: int) -> argparse.Namespace:
    return argparse.Namespace(host="127.0.0.1", port=port)


async def _until(pilot: Any, app: Any, phrase: str, within: float = 20.0) -> None:
    for _ in range(int(within / 0.05)):
        if shows(app, phrase):
            return
        await pilot.pause(0.05)
    raise AssertionError(f"{phrase!r} never showed")


async def _visit(url: str) -> dict[str, Any]:
    """What a phone's browser does: the page, then its script's check."""
    async with aiohttp.ClientSession() as client:
        async with client.get(url) as page:
            token = re.search(r'data-token="([^"]+)"', await page.text())
        assert token is not None
        async with client.get(f"{url}/reached", params={"t": token[1]}) as answer:
            body: dict[str, Any] = await answer.json()
            return body


def _status(app: Any) -> Static:
    return app.screen.query_one("#netcheck-status", Static)


async def test_the_seats_screen_key_turns_green_when_a_client_reaches_the_page(
    tmp_path: Path,
) -> None:
    port = free_port()
    session = demo_session(tmp_path, "demo")
    app = ConsoleApp(session, ticking=False, network=wiring.network_check(_args(port), {}))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, SeatsScreen)
        await pilot.press("i")
        url = f"http://127.0.0.1:{port}/check"
        await _until(pilot, app, f"Waiting for a phone on the players' Wi-Fi to open {url}")
        assert isinstance(app.screen, NetworkCheckScreen)
        assert "reached" not in _status(app).classes
        body = await _visit(url)
        here = f"Reached from 127.0.0.1 in {body['ms']} ms: that is this laptop itself"
        await _until(pilot, app, here)
        assert "reached" not in _status(app).classes  # the laptop itself is no phone
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SeatsScreen)
    # closed with the screen: the port is free again
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", port)
    server.close()
    session.close()


class _Phone:
    """A test page whose visits the test tells (a phone's address cannot reach a test's
    server, which listens on 127.0.0.1 only)."""

    url, port = "http://192.0.2.7:8765/check", 8765

    def __init__(self) -> None:
        self.listeners: list[Any] = []

    def addresses(self) -> list[tuple[str, str]]:
        return [("wlan0", "192.0.2.7")]

    def listen(self, listener: Any) -> Any:
        self.listeners.append(listener)
        return lambda: None

    async def close(self) -> None:
        return None


async def test_a_phones_visit_turns_the_line_green(tmp_path: Path) -> None:
    session = demo_session(tmp_path, "demo")
    app = ConsoleApp(session, ticking=False)
    page = _Phone()

    async def check() -> _Phone:
        return page

    async with app.run_test(size=(120, 40)) as pilot:
        await app.push_screen(NetworkCheckScreen(check, platform=sys.platform, wait=600))
        await _until(pilot, app, "Waiting for a phone")
        for listener in page.listeners:
            listener("192.0.2.50", 40)
        await _until(pilot, app, "Reached from 192.0.2.50 in 40 ms.")
        status = _status(app)
        assert "reached" in status.classes
        assert status.styles.color == Color.parse(app.get_css_variables()["success"])
        await pilot.press("escape")
    session.close()


async def test_no_phone_lists_the_likely_causes_with_this_systems_fix(tmp_path: Path) -> None:
    port = free_port()
    session = demo_session(tmp_path, "demo")
    app = ConsoleApp(session, ticking=False)
    check = wiring.network_check(_args(port), {})
    async with app.run_test(size=(120, 50)) as pilot:
        await app.push_screen(NetworkCheckScreen(check, platform=sys.platform, wait=0.0))
        await _until(pilot, app, "No phone has reached the laptop yet.")
        assert shows(app, "client isolation") and shows(app, "VPN")
        assert shows(app, " ".join(firewall_fix(sys.platform, port).split()))
        await pilot.press("escape")
    session.close()


async def test_the_warm_up_key_uses_the_running_phone_server(tmp_path: Path) -> None:
    from companion.web.dilemma.server import start_dilemma_server

    session = Session.create(tmp_path / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    port = free_port()
    server = await start_dilemma_server(session, "127.0.0.1", port, None)
    running: dict[str, Any] = {"server": server}
    check = wiring.network_check(_args(port), running)
    app = DilemmaApp(session, links=(server.join_url, server.board_url), network=check)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, app, "/join-room")
        await pilot.press("i")
        url = f"{running['server'].base_url}/check"
        await _until(pilot, app, f"open {url}")
        body = await _visit(f"http://127.0.0.1:{port}/check")
        here = f"Reached from 127.0.0.1 in {body['ms']} ms: that is this laptop itself"
        await _until(pilot, app, here)
        assert "reached" not in _status(app).classes
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, NetworkCheckScreen)
        # the phone server still serves: closing the test did not stop it
        assert running["server"].probe.reached[0].address == "127.0.0.1"
        async with aiohttp.ClientSession() as client, client.get(
            f"http://127.0.0.1:{port}/join-room"
        ) as page:
            assert page.status == 200
    await server.stop()
    session.close()
