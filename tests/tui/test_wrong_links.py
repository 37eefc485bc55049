"""The guess limiter's notes (``bad_tokens``) on both consoles: one notice, updated as more
addresses are paused, never one per address stacked over the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

from companion.session.session import Session
from companion.tui.dilemma.app import DilemmaApp
from tests.dilemma_helpers import scenario
from tests.tui.support import game, seen


def guessing_notices(app: App[Any]) -> list[str]:
    said = [str(toast.render()) for toast in app.screen.query("Toast")]
    return [s for s in said if "Wrong links" in s]


async def guessed(pilot: Any, app: App[Any], session: Session, addresses: int) -> None:
    for i in range(addresses):  # as companion.web.common.context.count_wrong notes them
        session.note("bad_tokens", address=f"10.0.0.{i}", count=10, seconds=60)
        await pilot.pause()
    await pilot.pause(0.3)


async def check(pilot: Any, app: App[Any], session: Session) -> None:
    await guessed(pilot, app, session, 1)
    assert guessing_notices(app) == [
        "Wrong links\nWrong links from 10.0.0.0: 10 in a minute; that device is paused. "
        "Someone may be guessing links."
    ]
    await guessed(pilot, app, session, 40)
    notices = guessing_notices(app)
    assert len(notices) == 1, notices
    assert "Wrong links from 40 addresses within a minute; each is paused." in notices[0]
    assert "Wrong links from 40 addresses within a minute" in seen(app)


async def test_the_prison_console_says_wrong_links_in_one_line(tmp_path: Path) -> None:
    app = game(tmp_path, [])
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await pilot.pause()
        await check(pilot, app, app.session)


async def test_the_warm_up_console_says_wrong_links_in_one_line(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario()})
    app = DilemmaApp(session)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause(0.2)
        await check(pilot, app, session)
    session.close()
