"""The piles as the referee draws them: nine piles at 80x24 keep every number and letter (they
wrap into bands), a tall pile cut to fit says how many chips are hidden and shows the hidden
chips that decide who moves; the log takes the rows the piles do not need."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual import events

from companion.language import language
from companion.rules.sucker.views import table
from companion.session.session import Session
from companion.tui.sucker.app import SuckerApp
from companion.tui.sucker.piles import Piles, column, piles_panel
from tests.tui.sucker.test_pasted import FOUR

FOUR7 = {**FOUR, "chips_per_player": 7}
# Nine piles, pile 1 eleven chips tall (top first: G Y B R Y G Y B R B R); Dan names next.
NINE = [
    "r n", "next bo", "b 1", "next dan", "y n", "next bo", "b 2", "next ann", "r 1", "next dan",
    "y n", "next bo", "b 1", "next dan", "y 1", "g 1", "r n", "next dan", "y 1", "r 1", "b 1",
    "g n", "next dan", "y 1", "g 1", "r n", "next bo", "b n", "next ann", "r n", "next dan", "y n",
]


def text(renderable: Any, width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable, crop=False)
    return console.export_text().rstrip("\n").split("\n")


async def nine_piles(app: SuckerApp, pilot: Any) -> None:
    app.post_message(events.Paste("\n".join(NINE) + "\n"))
    await pilot.pause()
    await pilot.pause(0.2)


def test_a_cut_pile_keeps_its_top_and_the_deepest_chip_that_decides() -> None:
    # Eleven chips, the topmost of each color at 10, 9, 8 and 7 (0 is the bottom).
    cut = column(1, 11, [7, 8, 9, 10], 3)
    assert (cut.top, cut.hidden, cut.deciding) == ((10,), 9, (7,))  # the deepest decides
    cut = column(1, 11, [7, 8, 9, 10], 4)
    assert (cut.top, cut.hidden, cut.deciding) == ((10, 9), 8, (7,))
    cut = column(1, 11, [7, 8, 9, 10], 5)  # the top four hold every deciding chip
    assert (cut.top, cut.hidden, cut.deciding) == ((10, 9, 8, 7), 7, ())
    cut = column(1, 11, [0, 10], 4)  # a color whose only chip is at the bottom
    assert (cut.top, cut.hidden, cut.deciding) == ((10, 9), 8, (0,))
    whole = column(1, 11, [7, 8, 9, 10], 11)
    assert whole.hidden == 0 and whole.top == tuple(range(10, -1, -1))


async def test_before_the_first_chip_the_piles_box_says_so_whole(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", FOUR7)
    app = SuckerApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        piles = app.query_one("#piles", Piles)
        assert piles.view is not None
        said = " ".join(line.strip() for line in text(piles.render(), piles.content_size.width))
        assert said.endswith("(type e.g. 'r n').")
        assert piles.outer_size.height >= len(text(piles.render(), piles.content_size.width))
    session.close()


async def test_nine_piles_at_80x24_keep_every_number_and_letter(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", FOUR7)
    app = SuckerApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await nine_piles(app, pilot)
        piles = app.query_one("#piles", Piles)
        box = app.query_one("#piles-box")
        assert piles.outer_size.height <= box.content_size.height  # nothing scrolled away
        assert piles.view is not None
        lines = text(piles_panel(language(), piles.view, piles.content_size.width, piles.room),
                     piles.content_size.width)
        drawn = "\n".join(lines)
        assert "…" not in drawn
        for number in range(1, 10):
            assert f"#{number}" in drawn, lines
        tops = {n: chips[-1] for n, chips in table(session.state)["piles"].items()}
        for number, color in tops.items():  # each pile's top chip under its number
            row = next(i for i, line in enumerate(lines) if f"#{number}" in line)
            at = lines[row].index(f"#{number}")
            assert lines[row + 1][at:at + 3].strip() == color[0].upper(), (number, lines)
        # Pile 1 is cut: the count of hidden chips is said, and what it means.
        assert any(line.split()[:1] and line.split()[0].startswith("+") for line in lines)
        assert "+N: N chips hidden; under it, those deciding who moves" in " ".join(
            line.strip() for line in lines)
    session.close()


async def test_the_log_takes_the_rows_the_piles_do_not_need(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", FOUR7)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        await typed_entries(pilot, ["r n", "next bo"])
        log = app.query_one("#log")
        box = app.query_one("#piles-box")
        assert log.content_size.height >= 15  # the log has the rows, not the piles' empty ones
        piles = app.query_one("#piles", Piles)
        assert box.content_size.height - piles.outer_size.height <= 5
    session.close()


async def typed_entries(pilot: Any, entries: list[str]) -> None:
    for entry in entries:
        await pilot.press(*["space" if c == " " else c for c in entry], "enter")
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_f1_help_keeps_the_move_line_and_esc_closes_it(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", FOUR7)
    app = SuckerApp(session)
    async with app.run_test(size=size) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        help_panel, entry = app.query_one("#help"), app.query_one("#entry")
        assert help_panel.display and entry.region.bottom <= size[1]
        assert not help_panel.region.overlaps(entry.region)
        assert help_panel.region.height >= 11  # every line of it
        await typed_entries(pilot, ["r n"])  # moves can still be typed
        assert session.state.plays == 1
        await pilot.press("escape")
        await pilot.pause()
        assert not help_panel.display and app.query_one("#log").display
    session.close()


def test_a_cut_pile_says_under_it_only_when_deciding_chips_are_drawn_there() -> None:
    from companion.tui.sucker.piles import CUT_NOTE, CUT_ONLY, cut_note

    assert cut_note([[column(1, 11, [7], 3)]]) == CUT_NOTE
    assert cut_note([[column(1, 11, [7, 8, 9, 10], 5)]]) == CUT_ONLY  # all in the top four
    assert cut_note([[column(1, 4, [0], None)]]) is None


async def test_after_the_game_a_cut_pile_notes_no_chips_deciding_who_moves(tmp_path: Path) -> None:
    setup = {"players": [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}],
             "chips_per_player": 10, "first": "Ann"}
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", setup)
    for turn in range(20):  # red, blue, red… on one pile: nobody captures, Ann runs out
        name, color = ("Ann", "red") if turn % 2 == 0 else ("Bo", "blue")
        done = session.submit({"do": "play", "player": name, "color": color,
                               "pile": "new" if turn == 0 else 1})
        assert not hasattr(done, "reason"), done
    assert session.state.winner == "Bo" and table(session.state)["deciding"] == {}
    app = SuckerApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        piles = app.query_one("#piles", Piles)
        assert piles.view is not None
        lines = text(piles_panel(language(), piles.view, piles.content_size.width, piles.room),
                     piles.content_size.width)
        said = " ".join(line.strip() for line in lines)
        assert any(line.strip().startswith("+") for line in lines), lines  # cut
        assert said.endswith("+N: N chips hidden"), lines
        assert "deciding" not in said
    session.close()
