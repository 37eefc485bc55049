"""The warm-up console's g: the game master's phone's link as a QR code on a screen of its own
when the console is attached to its night's server; the sentence that says why not when it
holds the tournament alone (--no-phones)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from companion.session.night import phone_secret
from companion.session.session import Session
from companion.tui.common.phone import PhoneScreen
from companion.tui.dilemma.app import DilemmaApp
from tests.dilemma_helpers import scenario
from tests.night_helpers import serving


def text(app: DilemmaApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_g_shows_the_phones_link_on_the_nights_server(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    path = session.store.path
    session.close()
    with serving(path) as night:
        attached = night.attach()
        app = DilemmaApp(attached, seed=lambda: 7)  # type: ignore[arg-type]
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            await pilot.press("g")
            await pilot.pause()
            assert isinstance(app.screen, PhoneScreen)
            assert text(app, "#phone-link").endswith(f"/gm/{phone_secret(path)}")
            assert "scan this with your own phone" in text(app, "#phone-title")
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, PhoneScreen)
            await app.action_quit()
        attached.close()


async def test_g_says_why_there_is_no_link_when_the_console_is_alone(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    app = DilemmaApp(session, seed=lambda: 7)  # type: ignore[arg-type]
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, PhoneScreen)
        assert text(app, "#phone-link") == ""
        assert "open it again without --no-phones" in text(app, "#phone-note")
    session.close()
