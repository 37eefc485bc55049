"""Whole games played through the console alone, from `companion new` to game over, one per
outcome, checking what the screen shows at each step (and what it must not show)."""

from __future__ import annotations

from pathlib import Path

from companion.rules.prison.views import script_result
from companion.tui.common.dialogs import ConfirmScreen, MessageScreen
from companion.tui.prison.game import GameScreen
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.reveal import RevealScreen
from tests.conftest import ROSTER
from tests.tui.support import (
    assert_sealed,
    assert_tokens_hidden,
    board_row,
    choose,
    everything,
    new_app,
    offered,
    pick,
    set_up,
    shows,
)


async def test_escape(tmp_path: Path) -> None:
    app = new_app(tmp_path, {"nights_to_escape": 4}, private_seconds=60)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await set_up(pilot, "Wendy", ROSTER)
        assert isinstance(app.screen, GameScreen)
        text = everything(app)
        assert "Day 1 · Planning" in text and "Warden, please leave the room" in text
        assert "0 of 4 have chosen" in text
        # only planning's actions are offered
        assert "Choice" in text and "Close planning" in text and "Interview" not in text

        await choose(pilot, app, "Ada", "work")
        await choose(pilot, app, "Ben", "work")
        await choose(pilot, app, "Ada", "rest")  # a change of mind before planning closes
        assert board_row(app, "Ada")[3] == "chosen" and board_row(app, "Cy")[3] == "waiting"
        assert shows(app, "2 of 4 have chosen")
        assert_sealed(app)
        await choose(pilot, app, "Cy", "work")
        await choose(pilot, app, "Dee", "work")
        await pilot.press("x")  # everyone has chosen: no question
        await pilot.pause()
        text = everything(app)
        assert "Day 1 · Interviews" in text and "Ada, please come in" in text
        assert "Deals: at most 1 a day" in text and "Deals today" not in text
        assert_sealed(app)

        await pilot.press("i")
        await pick(pilot, app, "Ben")
        assert isinstance(app.screen, InterviewScreen)
        assert shows(app, "Interview: Ben") and shows(app, "2:00")
        assert shows(app, "d deal  n no deal")
        await pilot.press("d", "enter")  # a deal, nobody named
        await pilot.pause()
        # the room saw Ben go in: today's count of deals would give his deal away
        assert not shows(app, "Deals today") and not shows(app, "Deal limit")
        assert_tokens_hidden(app)
        await pilot.press("t")  # the private view shows it
        assert shows(app, "Deals today: 1 of 1") and shows(app, "Deal limit reached")
        await pilot.press("t")
        assert not shows(app, "Deals today")
        assert_sealed(app)
        await pilot.press("i")
        assert offered(app) == ["Ada", "Cy", "Dee"]
        await pick(pilot, app, "Ada")
        # the day's deal is made: the deal's key is not offered (nor refused), and no count
        # of the day's deals is said
        assert not shows(app, "limit is reached") and shows(app, "at most 1 deal a day")
        assert not shows(app, "d deal") and shows(app, "n no deal")
        assert not shows(app, "Deals today")
        await pilot.press("d")  # not offered: nothing happens
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        assert not shows(app, "No deal is possible")
        await pilot.press("n")
        await pilot.pause()

        await pilot.press("s")
        assert isinstance(app.screen, ConfirmScreen)
        assert shows(app, "Cy and Dee were not interviewed")
        await pilot.press("y")
        await pick(pilot, app, "Ada")
        assert isinstance(app.screen, RevealScreen)
        text = everything(app)
        assert "searches Ada's cell" in text and "SAFE" not in text and "CAUGHT" not in text
        assert shows(app, "The room has seen nothing yet")
        await pilot.press("space")  # the room sees the warden search Ada's cell
        assert shows(app, "The warden searches Ada's cell…") and not shows(app, "SAFE")
        await pilot.press("space")
        assert shows(app, "SAFE") and shows(app, "Ada was not working")
        await pilot.press("space")
        text = everything(app)
        assert "Ben, Cy and Dee worked: 3 nights more" in text and "■■■□ 3 of 4" in text
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        text = everything(app)
        assert "Day 1 · Accusations" in text and "3 of 4 nights done" in text
        assert board_row(app, "Ben")[3] == "worked" and board_row(app, "Ada")[3] == "rested"

        await pilot.press("a")
        assert offered(app) == ROSTER
        await pick(pilot, app, "Cy")
        assert offered(app) == ["Ada", "Ben", "Dee"]
        await pick(pilot, app, "Ben")
        assert isinstance(app.screen, MessageScreen)
        assert shows(app, "Ben is SHIVED")
        await pilot.press("enter")
        await pilot.press("e")
        assert shows(app, "day 2 starts with planning")
        await pilot.press("y")
        await pilot.pause()
        text = everything(app)
        assert "Day 2 · Planning" in text and board_row(app, "Ben")[1] == "shived"

        for name in ["Ada", "Cy", "Dee"]:
            await choose(pilot, app, name, "work")
        await pilot.press("x", "s")
        await pilot.pause()
        await pilot.press("y")
        await pick(pilot, app, "Dee")
        await pilot.press("space", "space", "space")
        assert shows(app, "Ada and Cy worked")
        await pilot.press("space")
        assert shows(app, "The prisoners escaped. Winners: Ada and Cy.")
        await pilot.press("space")
        await pilot.pause()
        text = everything(app)
        assert "Game over" in text and "Winners: Ada and Cy" in text
        assert board_row(app, "Ada")[1] == "escaped"
        assert_tokens_hidden(app)
        # after the game the tokens may be shown, on request
        await pilot.press("t")
        await pilot.pause()
        assert board_row(app, "Ben")[4] == "1" and shows(app, "PRIVATE VIEW")

    result = script_result(app.session.state)
    assert result["outcome"] == "escape" and result["nights_done"] == 5


async def test_parole(tmp_path: Path) -> None:
    app = new_app(tmp_path, {"parole_tokens_to_win": 2})
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        await set_up(pilot, "Wendy", ROSTER)
        await choose(pilot, app, "Ben", "work")
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmScreen)
        assert shows(app, "Ada, Cy and Dee have not chosen and will rest tonight")
        await pilot.press("y")
        await pilot.pause()
        assert shows(app, "Interviews")
        await pilot.press("i")
        await pick(pilot, app, "Ada")
        await pilot.press("d", "enter")  # a deal, nobody named
        await pilot.pause()
        assert_tokens_hidden(app)
        assert_sealed(app)
        await pilot.press("s", "y")
        await pick(pilot, app, "Ben")
        await pilot.press("space", "space")
        assert shows(app, "CAUGHT") and shows(app, "Ben was working")
        await pilot.press("space")
        assert shows(app, "Ben was caught working and nobody else worked")
        await pilot.press("space")
        await pilot.pause()
        assert board_row(app, "Ben")[1] == "caught"
        # Cy accuses Dee, who never took a deal: the shiv passes
        await pilot.press("a")
        assert "Ben" not in offered(app)
        await pick(pilot, app, "Cy")
        await pick(pilot, app, "Dee")
        assert shows(app, "Cy's shiv passes to Dee")
        await pilot.press("enter")
        await pilot.pause()
        assert board_row(app, "Dee")[2] == "2" and board_row(app, "Cy")[2] == "0"
        await pilot.press("a")
        assert offered(app) == ["Ada", "Dee"]  # Cy has no shiv and has accused today
        await pilot.press("escape")
        await pilot.press("e", "y")
        await pilot.pause()
        assert shows(app, "Day 2 · Planning")
        await pilot.press("x", "y")
        await pilot.press("i")
        await pick(pilot, app, "Ada")
        await pilot.press("d", "enter")  # a deal, nobody named
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        assert shows(app, "A prisoner was paroled. Winners: Ada and Wendy.")
        await pilot.press("enter")
        await pilot.pause()
        assert shows(app, "Game over")
        assert board_row(app, "Ada")[1] == "paroled"
        assert not shows(app, "Interview")
    assert app.session.state.outcome == "parole"


async def test_all_caught(tmp_path: Path) -> None:
    app = new_app(tmp_path, {"searches_per_day": 4})
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await set_up(pilot, "Wendy", ROSTER)
        for name in ROSTER:
            await choose(pilot, app, name, "work")
        await pilot.press("x")
        for i, name in enumerate(["Dee", "Cy", "Ben"]):
            await pilot.press("s")
            if i == 0:
                await pilot.press("y")
            await pick(pilot, app, name)
            await pilot.press("space", "space")
            assert shows(app, "CAUGHT")
            await pilot.press("space")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            assert shows(app, f"search {3 - i} more cell")
            assert_sealed(app)  # Ada's choice stays sealed while cells remain
        await pilot.press("s")
        await pick(pilot, app, "Ada")
        await pilot.press("space", "space", "space", "space")
        assert shows(app, "No prisoner is left: the warden wins. Winners: Wendy.")
        await pilot.press("space")
        await pilot.pause()
        assert shows(app, "Game over")
    assert app.session.state.outcome == "all_caught"


async def test_time_up_with_undo_story_and_export(tmp_path: Path) -> None:
    app = new_app(tmp_path, {"max_days": 1})
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await set_up(pilot, "Wendy", ROSTER)
        await choose(pilot, app, "Ada", "work")
        await pilot.press("x", "y", "s", "y")
        await pick(pilot, app, "Ben")
        await pilot.press("space", "space", "space", "space")
        await pilot.pause()
        assert shows(app, "Ada worked")
        await pilot.press("e")
        assert shows(app, "the last day: ending it ends the game")
        await pilot.press("y")
        await pilot.pause()
        assert shows(app, "Time is up: the warden wins. Winners: Wendy.")

        # undo after the game: shows what, asks, then walks back
        await pilot.press("ctrl+z")
        assert shows(app, "the room saw GAME OVER (time was up: the warden won)")
        await pilot.press("y")
        await pilot.pause()
        assert shows(app, "Day 1 · Accusations")
        await pilot.press("ctrl+z")
        assert shows(app, "Take back the search of Ben's cell?")
        await pilot.press("n")
        await pilot.pause()
        assert shows(app, "Day 1 · Accusations")
        await pilot.press("e", "y")
        await pilot.pause()
        assert app.session.state.outcome == "time_up"

        await pilot.press("h")
        await pilot.pause()
        text = everything(app)
        assert (
            "Correction: the game master took back ending the day, and with it the end of "
            "the game (time was up: the warden won)." in text
        )
        assert "choices:" not in text
        await pilot.press("f")
        await pilot.pause()
        text = everything(app)
        assert "choices: Ada: work" in text and "The full story" in text
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        report = tmp_path / "game.md"
        assert shows(app, f"The report is in {report}")
        assert "- choices: Ada: work" in report.read_text()
