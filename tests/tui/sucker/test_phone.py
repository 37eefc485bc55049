"""The referee's console shows the game master's phone's link (ctrl+g: its QR code, on a
screen of its own, never on the table's) and replaces it (R, asked first), ending the old one;
the move line keeps its letters (g is a color's)."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

from textual.widgets import Static

from companion.session.night import phone_secret
from companion.session.session import Session
from companion.tui.common.phone import PhoneScreen
from companion.tui.sucker.app import SuckerApp
from companion.tui.sucker.line import MoveLine
from tests.night_helpers import serving, until
from tests.tui.sucker.test_referee import SETUP


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


async def test_ctrl_g_shows_the_phones_link_and_r_replaces_it(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite"
    Session.create(path, "so-long-sucker", SETUP).close()
    with serving(path) as night:
        console = night.attach()
        app = SuckerApp(console)
        try:
            async with app.run_test(size=(120, 36)) as pilot:
                await pilot.press("g")  # a letter for the move line, as ever
                assert app.query_one("#entry", MoveLine).value == "g"
                assert not isinstance(app.screen, PhoneScreen)
                old = phone_secret(path)
                await pilot.press("ctrl+g")
                await until(lambda: isinstance(app.screen, PhoneScreen), pilot=pilot)
                link = str(app.screen.query_one("#phone-link", Static).content)
                assert link.endswith(f"/gm/{old}")
                base = f"http://127.0.0.1:{night.port}"
                assert status(f"{base}/gm/{old}") == 200
                await pilot.press("r")
                await pilot.pause()
                await pilot.press("y")  # the console's question: every phone holding it stops
                await until(lambda: phone_secret(path) != old, pilot=pilot)
                new = phone_secret(path)
                await until(lambda: str(app.screen.query_one("#phone-link", Static).content)
                            .endswith(f"/gm/{new}"), pilot=pilot)
                assert status(f"{base}/gm/{old}") == 404
                assert status(f"{base}/gm/{new}") == 200
                await pilot.press("escape")
                await until(lambda: not isinstance(app.screen, PhoneScreen), pilot=pilot)
        finally:
            console.close()
