"""The history and the report read in the order things happened: a move taken back is marked
where it was made and its correction follows it, before any later move (the correction of
Tom's accusation of Ravi comes before Ravi's accusation of Tom); and an undo after
the end of the game names the end of the game, not the move that brought it."""

from __future__ import annotations

from pathlib import Path

from companion.session.prison.create import create_prison_session
from companion.tui.prison.app import ConsoleApp
from tests import stage_helpers as stage
from tests.tui.support import choose, pick, seen

ROSTER = ["Tom", "Ravi", "Ada", "Ben"]


def _console(folder: Path, commands: list[dict[str, object]], **rules: object) -> ConsoleApp:
    session = create_prison_session(
        folder, "game", "classic", "Wendy", ROSTER, rules_overrides=rules or None
    )
    for command in commands:
        assert not hasattr(session.submit(command), "reason"), command
        if command["do"] == "search":
            stage.step_reveal(session, to_end=True)
    return ConsoleApp(session, ticking=False)


def _in_order(text: str, *phrases: str) -> None:
    where = [text.find(phrase) for phrase in phrases]
    assert -1 not in where, [p for p, at in zip(phrases, where, strict=True) if at < 0]
    assert where == sorted(where), f"out of order: {phrases} in\n{text}"


TO_ACCUSATIONS = [
    {"do": "choose", "prisoner": "Ada", "choice": "work"},
    {"do": "close_planning"},
    {"do": "search", "prisoner": "Ben"},
]


async def test_an_undone_accusation_is_corrected_before_the_next_one(tmp_path: Path) -> None:
    app = _console(tmp_path, TO_ACCUSATIONS)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("a")
        await pick(pilot, app, "Tom")
        await pick(pilot, app, "Ravi")
        await pilot.press("enter")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert "Take back Tom's accusation of Ravi?" in seen(app)
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("a")
        await pick(pilot, app, "Ravi")
        await pick(pilot, app, "Tom")
        await pilot.press("enter")
        await pilot.press("h")
        await pilot.pause()
        _in_order(
            seen(app),
            "Tom's accusation of Ravi (taken back)",
            "Correction: the game master took back Tom's accusation of Ravi.",
            "accusation: Ravi accused Tom: shiv passed",
        )


async def test_undone_choices_and_deals_read_in_order_on_screen_and_in_the_report(
    tmp_path: Path,
) -> None:
    app = _console(tmp_path, [], nights_to_escape=1)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await choose(pilot, app, "Tom", "work")
        await pilot.press("ctrl+z", "y")  # a choice entered at the console, taken back
        await pilot.pause()
        await choose(pilot, app, "Tom", "rest")
        await choose(pilot, app, "Ada", "work")
        await pilot.press("x", "y")
        await pilot.pause()
        await pilot.press("i")
        await pick(pilot, app, "Ravi")
        await pilot.press("d", "enter")  # a deal, taken back: Ravi is interviewed again, no deal
        await pilot.pause()
        await pilot.press("ctrl+z", "y")
        await pilot.pause()
        await pilot.press("i")
        await pick(pilot, app, "Ravi")
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("s", "y")
        await pick(pilot, app, "Ben")
        await pilot.press("space", "space", "space", "space")
        await pilot.pause()
        assert app.session.state.outcome == "escape"
        await pilot.press("space")  # back to the game
        await pilot.pause()
        assert "Space: back to the game" not in seen(app)
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("f")
        await pilot.pause()
        expected = (
            "Tom's secret choice (taken back)",
            "Correction: the game master took back Tom's secret choice.",
            "choices: Tom: rest",
            "Ravi's interview (taken back)",
            "Correction: the game master took back Ravi's interview.",
            "interviewed: Ravi",
            "search: Ben's cell, safe",
            "night: Ada worked",
        )
        _in_order(seen(app), *expected)
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        report = (tmp_path / "game.md").read_text()
        _in_order(report, *expected)


ESCAPE = [
    {"do": "choose", "prisoner": "Ada", "choice": "work"},
    {"do": "close_planning"},
    {"do": "search", "prisoner": "Ben"},
]


async def test_undo_after_the_end_names_the_end_of_the_game(tmp_path: Path) -> None:
    # Not: "Take back the search of Ben's cell? The room has already seen that Ben's cell
    # was searched…", as if the room had not seen GAME OVER.
    app = _console(tmp_path, ESCAPE, nights_to_escape=1)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        assert "Game over" in seen(app)
        await pilot.press("ctrl+z")
        await pilot.pause()
        text = seen(app)
        assert "Undo the end of the game?" in text
        assert (
            "This takes back the end of the game: the room saw GAME OVER (the prisoners "
            "escaped). It takes back the search of Ben's cell with it" in text
        )
        assert "Take back the search" not in text
        await pilot.press("y")
        await pilot.pause()
        text = seen(app)
        assert "Undone: the game is on again; the history keeps the end of the game" in text
        assert "Day 1 · Interviews" in text
        await pilot.press("h")
        await pilot.pause()
        assert (
            "Correction: the game master took back the search of Ben's cell, and with it the "
            "end of the game (the prisoners escaped)." in seen(app)
        )


async def test_undo_after_a_parole_names_the_end_of_the_game(tmp_path: Path) -> None:
    commands = [{"do": "close_planning"}, {"do": "interview", "prisoner": "Ravi", "deal": True}]
    app = _console(tmp_path, commands, parole_tokens_to_win=1)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("ctrl+z")
        await pilot.pause()
        text = seen(app)
        assert "the room saw GAME OVER (a prisoner was paroled)" in text
        assert "Take back Ravi's interview" not in text

