"""The So Long Sucker referee screen, driven by keyboard through Textual's pilot."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import RichLog, Static

from companion.rules.sucker.views import table
from companion.session.session import Session
from companion.tui.sucker.app import SuckerApp

SETUP = {
    "players": [
        {"name": "Ann", "color": "red"},
        {"name": "Bo", "color": "blue"},
        {"name": "Cat", "color": "green"},
    ],
    "chips_per_player": 3,
    "first": "Ann",
}


def text_of(app: SuckerApp, selector: str) -> str:
    """A Static's content as the plain text a user reads (tables included)."""
    content: Any = app.query_one(selector, Static).content
    if isinstance(content, str):
        return content
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    console.print(content)
    return console.export_text().strip()


async def typed(pilot: Any, text: str) -> None:
    await pilot.press(*["space" if c == " " else c for c in text], "enter")
    await pilot.pause()


async def test_a_game_through_the_referee_screen_to_a_winner(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite"
    session = Session.create(path, "so-long-sucker", SETUP)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        state = lambda: session.state  # noqa: E731
        assert text_of(app, "#says") == "Ann must play a chip."
        assert "on: n (new pile)" in text_of(app, "#hint")
        for entry in ("r n", "next bo", "b 1", "g n", "bo", "b 1"):
            await typed(pilot, entry)
        assert text_of(app, "#says") == "Bo captured pile 1 and must kill one chip from it."
        assert "kill r" in text_of(app, "#hint")
        for entry in ("kill b", "b 2", "r 2", "g n", "next bo"):
            await typed(pilot, entry)
        # Bo plays Ann's red prisoner on red: the capture is Ann's, not Bo's.
        await typed(pilot, "r 2")
        assert (state().awaiting.what, state().awaiting.player) == ("kill", "Ann")
        assert text_of(app, "#says").startswith("Ann captured pile 2")
        for entry in ("kill r", "r 3", "b 3", "g n", "bo"):
            await typed(pilot, entry)
        assert text_of(app, "#says") == "Bo holds no chips and awaits rescue (from Ann)."
        assert "give COLOR from Ann (b g)" in text_of(app, "#hint")
        await typed(pilot, "give b")  # the rescue
        assert text_of(app, "#says") == "Bo must play a chip."
        await typed(pilot, "b n")
        await typed(pilot, "next cat")
        assert text_of(app, "#says") == "Cat holds no chips and awaits rescue (from Ann)."
        await typed(pilot, "refuse")  # a refused rescue: Cat is defeated ...
        assert state().defeated == ("Cat",)
        # ... and the move returns to Bo, who gave it and holds nothing either: the cascade.
        assert text_of(app, "#says") == "Bo holds no chips and awaits rescue (from Ann)."
        await typed(pilot, "refuse ann")
        assert state().defeated == ("Cat", "Bo") and state().winner == "Ann"
        assert text_of(app, "#says") == "The game is over: Ann won."
        assert "WINNER" in text_of(app, "#players")
        assert app.query_one("#says").has_class("over")
    session.close()
    reopened = Session.open(path)
    assert reopened.state.winner == "Ann"
    reopened.close()


async def test_a_bad_entry_says_what_is_wrong_and_changes_nothing(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", SETUP)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        rows = len(session.rows)
        await typed(pilot, "b n")
        assert text_of(app, "#problem") == "Ann holds no blue chip; they can play red."
        await typed(pilot, "q 9")
        assert "'q' is not a color here" in text_of(app, "#problem")
        await typed(pilot, "r 4")
        assert "There is no pile 4" in text_of(app, "#problem")
        assert len(session.rows) == rows and session.state.plays == 0
        await typed(pilot, "r n")  # the selected bad entry is replaced by typing
        assert text_of(app, "#problem") == "" and session.state.plays == 1
    session.close()


async def test_ctrl_z_undoes_the_last_move_and_the_log_keeps_it(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", SETUP)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        await typed(pilot, "r n")
        await typed(pilot, "next cat")
        assert session.state.awaiting.player == "Cat"
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert session.state.awaiting.what == "next"
        assert [r.kind for r in session.rows] == ["command", "command", "undo"]
        await typed(pilot, "undo")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert text_of(app, "#problem") == "There is nothing to undo."
        assert session.state.plays == 0
    session.close()


async def test_transfers_and_kills_of_prisoners_at_any_moment(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", SETUP)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        for entry in ("r n", "next bo", "b 1", "g n", "bo", "b 1", "kill b"):
            await typed(pilot, entry)
        assert dict(session.state.holdings["Bo"]) == {"blue": 2, "red": 1}
        await typed(pilot, "give r cat")
        assert dict(session.state.holdings["Cat"]) == {"green": 2, "red": 1}
        await typed(pilot, "cat killp r")
        assert dict(session.state.dead) == {"blue": 1, "red": 1}
        lines = [line.text for line in app.query_one("#log", RichLog).lines]
        assert "Cat killed a red prisoner." in lines
    session.close()


async def test_f1_shows_and_hides_the_entry_help(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", SETUP)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        help_panel = app.query_one("#help")
        assert not help_panel.display
        await pilot.press("f1")
        assert help_panel.display
        await pilot.press("f1")
        assert not help_panel.display
    session.close()


SIX = {
    "players": [
        {"name": name, "color": color}
        for name, color in [("Annabelle", "red"), ("Bo", "blue"), ("Catherine-Louise", "green"),
                            ("Dan", "yellow"), ("Eve", "white"), ("Fitzgerald", "purple")]
    ],
    "chips_per_player": 7,
    "first": "Bo",
}


def drawn(app: SuckerApp, selector: str) -> list[str]:
    """A widget's lines as drawn at the width it has on screen."""
    widget = app.query_one(selector)
    content = widget.content if isinstance(widget, Static) else widget.render()
    console = Console(width=widget.content_size.width, file=io.StringIO(), record=True,
                      color_system=None)
    console.print(content, crop=False)
    return console.export_text().rstrip("\n").split("\n")


def submit_all(session: Session, *commands: dict[str, Any]) -> None:
    for command in commands:
        assert not hasattr(session.submit(command), "reason"), command


def game_with_prisoners(path: Path) -> Session:
    """Six players; Annabelle captures a pile of four other colors and holds them."""
    session = Session.create(path, "so-long-sucker", SIX)
    order = [("Bo", "blue"), ("Dan", "yellow"), ("Eve", "white"), ("Fitzgerald", "purple")]
    for i, (who, color) in enumerate(order):
        pile = 1 if i else "new"
        submit_all(session, {"do": "play", "player": who, "color": color, "pile": pile})
        after = order[i + 1][0] if i + 1 < len(order) else "Annabelle"
        submit_all(session, {"do": "next", "player": after})
    submit_all(
        session,
        {"do": "play", "player": "Annabelle", "color": "red", "pile": 1},  # to Catherine-Louise
        {"do": "play", "player": "Catherine-Louise", "color": "green", "pile": "new"},
        {"do": "next", "player": "Annabelle"},
        {"do": "play", "player": "Annabelle", "color": "red", "pile": 1},  # red on red
        {"do": "kill", "player": "Annabelle", "color": "red"},
    )
    return session


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_every_prisoner_shows_whole_at_both_sizes(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    session = game_with_prisoners(tmp_path / "t.sqlite")
    prisoners = dict(session.state.prisoners_of("Annabelle"))
    assert len(prisoners) == 4
    app = SuckerApp(session)
    async with app.run_test(size=size):
        lines = drawn(app, "#players")
        width = app.query_one("#players", Static).content_size.width
        assert all(len(line) <= width for line in lines), lines
        start = next(i for i, line in enumerate(lines) if "Annabelle" in line)
        end = next(i for i, line in enumerate(lines) if " Bo " in line)
        held = " ".join(lines[start:end])
        keys = {"blue": "B", "yellow": "Y", "white": "W", "purple": "P"}
        for color, count in prisoners.items():
            assert re.search(rf"\b{keys[color]} ×?{count}\b", held), (color, lines)
        if size == (80, 24):  # the status shrinks to a mark, explained below the table
            assert lines[-1].split() == ["●", "to", "play"], lines
    session.close()


async def test_the_dead_are_counted_and_pile_numbers_head_the_stacks(tmp_path: Path) -> None:
    session = game_with_prisoners(tmp_path / "t.sqlite")
    app = SuckerApp(session)
    async with app.run_test(size=(80, 24)):
        assert app.query_one("#piles-box").border_subtitle == "dead R×1"
    session.close()
    session = Session.create(tmp_path / "tall.sqlite", "so-long-sucker", SIX)
    while len(session.state.piles.get(1, ())) < 12:  # a pile taller than the box at 80x24
        a = session.state.awaiting
        if a.what == "next":
            submit_all(session, {"do": "next", "player": table(session.state)["awaiting"]
                                 ["players"][0]})
        else:
            assert a.what == "play" and a.player is not None
            color = session.state.color_of(a.player)
            submit_all(session, {"do": "play", "player": a.player, "color": color,
                                 "pile": 1 if session.state.piles else "new"})
    app = SuckerApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = drawn(app, "#piles")
        assert lines[0].split() == ["#1"]
        assert " ".join(line.strip() for line in lines[-2:]).endswith("those deciding who moves")
    session.close()


async def test_a_poker_set_shows_black_as_k_and_the_help_says_the_rule(tmp_path: Path) -> None:
    colors = ["white", "red", "blue", "green", "black"]
    setup = {
        "players": [{"name": n, "color": c} for n, c in zip("ABCDE", colors, strict=True)],
        "chips_per_player": 2,
        "first": "E",
    }
    session = Session.create(tmp_path / "poker.sqlite", "so-long-sucker", setup)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        players = text_of(app, "#players")
        for name, letter in zip("ABCDE", "WRBGK", strict=True):
            assert re.search(rf"\b{name}\s+{letter}\s+2\b", players), (name, letter, players)
        await typed(pilot, "k n")
        assert dict(session.state.piles) == {1: ("black",)}
        await pilot.press("f1")
        await pilot.pause()
        assert "black: K, as printers do" in " ".join(text_of(app, "#help-text").split())


NAMES_HIMSELF = [  # Bo plays a red prisoner on green: Bo or Dan moves next, Bo chooses
    {"do": "play", "player": "Ann", "color": "red", "pile": "new"},
    {"do": "next", "player": "Bo"},
    {"do": "play", "player": "Bo", "color": "blue", "pile": 1},
    {"do": "next", "player": "Cat"},
    {"do": "play", "player": "Cat", "color": "green", "pile": "new"},
    {"do": "next", "player": "Bo"},
    {"do": "play", "player": "Bo", "color": "blue", "pile": 1},
    {"do": "kill", "player": "Bo", "color": "blue"},
    {"do": "play", "player": "Bo", "color": "red", "pile": 2},
]


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_a_mover_who_may_name_themselves_is_marked_as_may_be_named_too(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    setup = {**SETUP, "players": [*SETUP["players"], {"name": "Dan", "color": "yellow"}]}
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", setup)
    for command in NAMES_HIMSELF:
        assert not hasattr(session.submit(command), "reason"), command
    assert table(session.state)["awaiting"]["players"] == ["Bo", "Dan"]
    app = SuckerApp(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        content: Any = app.query_one("#players", Static).content
        console = Console(width=app.query_one("#players").content_size.width,
                          file=io.StringIO(), record=True, color_system=None)
        console.print(content)
        lines = console.export_text().splitlines()
        row = {name: next(line for line in lines if f" {name} " in f" {line} ")
               for name in ("Bo", "Dan", "Cat")}
        assert row["Bo"].lstrip().startswith("●▶"), lines
        assert row["Dan"].lstrip().startswith("▶") and "▶" not in row["Cat"], lines
        said = " ".join(lines)
        assert "may be named" in said and "names next" in said, lines


async def test_at_80x24_the_whole_help_is_read_by_scrolling_it(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "help.sqlite", "so-long-sucker", SETUP)
    app = SuckerApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        help_box = app.query_one("#help")
        assert help_box.has_class("shown")
        assert help_box.max_scroll_y > 0  # the last lines are below the box
        await pilot.press("pagedown")
        await pilot.pause()
        assert help_box.scroll_y == help_box.max_scroll_y
        text = text_of(app, "#help-text")
        said = " ".join(text.split())
        assert "never means another color." in said and "black: K" in said
