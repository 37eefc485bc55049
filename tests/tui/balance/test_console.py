"""The Balance screen opened from the console (B, or the palette): the chart for the session's
group size and parole tokens, measured by the simulator in worker processes that the
composition root starts only when the screen is first opened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.cli import wiring as start
from companion.session.prison.create import create_prison_session
from companion.tui.balance.app import BalanceScreen
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.game import GameScreen
from tests.tui.support import choose, shows, type_text

SIX = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"]


async def wait_for_points(pilot: Any, screen: BalanceScreen, count: int) -> None:
    """Let the console run until ``count`` points are drawn (the games take what they take)."""
    for _ in range(2400):
        if len(screen.points) >= count:
            return
        await pilot.pause(0.05)
    raise AssertionError(f"only {len(screen.points)} points arrived")


async def test_balance_from_the_console_for_the_session_s_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(start, "BALANCE_GAMES", 40)  # a quick chart: few games a point
    session = create_prison_session(
        tmp_path, "big", "classic", "Wendy", SIX,
        rules_overrides={"min_prisoners": 4, "max_prisoners": 8, "parole_tokens_to_win": 2},
    )
    pool = start.LazyPool(jobs=2)
    app = ConsoleApp(session, ticking=False, balance=start.balance_screen(pool))
    try:
        async with app.run_test(notifications=True, size=(120, 36)) as pilot:
            assert pool._executor is None  # no worker process until the screen is opened
            await pilot.press("b")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, BalanceScreen)
            assert (screen.prisoners, screen.tokens) == (6, 2)
            assert shows(app, "6 prisoners · 2 parole tokens to win")
            assert shows(app, "big's rules · 40 games a point")
            await wait_for_points(pilot, screen, 2)
            assert pool._executor is not None
            for point in screen.points:
                assert point["prisoners"] == 6 and point["parole_tokens_to_win"] == 2
                assert point["games"] == 40
                assert 0 <= point["escape"]["low"] <= point["escape"]["rate"] <= 1
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            await choose(pilot, app, "Ada", "work")  # the game goes on
            assert sorted(session.state.day.choices) == ["Ada"]
    finally:
        pool.close()
    assert pool._executor is None


async def test_balance_from_the_palette_and_without_a_simulator(tmp_path: Path) -> None:
    session = create_prison_session(tmp_path, "demo", "classic", "Wendy", SIX[:4])
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await type_text(pilot, "balance")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert shows(app, "The Balance screen is not available")
