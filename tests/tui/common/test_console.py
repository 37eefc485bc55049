"""The one console base (:class:`companion.tui.common.console.GameConsole`) under every game's
console: each follows its session through the one redraw throttle, and an error in an action
stops it with the error noted next to the session. Driven through the pilot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.rules.sucker.commands import Play
from companion.session.session import Session
from companion.tui.common.console import GameConsole
from companion.tui.common.panel import Panel
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.prison.app import ConsoleApp
from companion.tui.sucker.app import SuckerApp
from tests.conftest import demo_session
from tests.dilemma_helpers import scenario
from tests.tui.terminal import terminal_lines

SUCKER = {
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}],
    "chips_per_player": 3,
    "first": "Ann",
}


def warm_up(folder: Path) -> Session:
    session = Session.create(folder / "warm.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i, name in enumerate(["Ada", "Ben", "Cleo"]):
        session.submit({"do": "join", "pid": f"p{i}", "name": name})
    return session


def referee(folder: Path) -> Session:
    return Session.create(folder / "table.sqlite", "so-long-sucker", SUCKER)


def test_every_game_console_is_one_base() -> None:
    for console in (ConsoleApp, DilemmaApp, SuckerApp):
        assert issubclass(console, GameConsole)
    assert DilemmaApp.REDRAW_SECONDS > ConsoleApp.REDRAW_SECONDS  # tuned, one mechanism


async def test_the_referee_follows_a_move_made_elsewhere(tmp_path: Path) -> None:
    session = referee(tmp_path)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        says = app.query_one("#says", Panel)
        assert says.text == "Ann must play a chip."
        session.submit(Play(player="Ann", color="red", pile="new"))
        for _ in range(40):
            await pilot.pause(0.02)
            if says.text != "Ann must play a chip.":
                break
        assert says.text == "Bo must play a chip."  # two players: Bo comes next by himself
        assert any("red" in line for line in terminal_lines(app))  # the log shows the move
    session.close()


async def test_the_warm_up_draws_a_burst_of_choices_once(tmp_path: Path) -> None:
    session = warm_up(tmp_path)
    session.submit({"do": "start_round", "seed": 3})
    app = DilemmaApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        for pid in ("p0", "p1"):
            session.submit({"do": "choose", "pid": pid, "choice": "silent"}, by="phone")
        for _ in range(40):
            await pilot.pause(0.02)
            if "2 of 3 have chosen" in app.room.query_one("#status", Panel).text:
                break
        assert "2 of 3 have chosen" in app.room.query_one("#status", Panel).text
    session.close()


@pytest.mark.parametrize("game", ["warm-up", "referee", "prison"])
async def test_an_error_in_an_action_stops_the_console_and_is_noted(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any) -> None:
        raise RuntimeError("the key broke")

    app: GameConsole
    if game == "warm-up":
        session = warm_up(tmp_path)
        app, action, key = DilemmaApp(session), "action_doors", "d"
    elif game == "referee":
        session = referee(tmp_path)
        app, action, key = SuckerApp(session), "action_toggle_help", "f1"
    else:
        session = demo_session(tmp_path)
        app, action, key = ConsoleApp(session, ticking=False), "action_help", "f1"
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        target = app if game != "prison" else app.screen
        monkeypatch.setattr(target, action, broken)
        await pilot.press(key)
        await pilot.pause()
    assert isinstance(app.crashed, RuntimeError) and app.return_code == 1
    log = session.store.path.with_suffix(".console-errors.log")
    assert "the key broke" in log.read_text()
    session.close()
