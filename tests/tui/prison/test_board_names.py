"""A long name takes the room the board has ("Maximilian von …" at 120 columns)."""

from __future__ import annotations

from pathlib import Path

from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.board import NAME_WIDTH, cut_names, name_width
from tests.conftest import demo_session
from tests.tui.support import screen_text

LONG = "Maximilian von Habsburg-Este"  # 28 letters


def test_names_take_the_room_the_other_columns_leave() -> None:
    assert name_width(56) == NAME_WIDTH  # 80 columns: cut at 16
    assert name_width(200) == 40  # never wider than a name may be
    assert name_width(84) > len("Maximilian von …")
    assert name_width(84) >= len(LONG)  # 120 columns, every phone connected or unseen
    assert name_width(84, len("away since 21:04")) < len(LONG)  # a phone away: cut


async def test_a_long_name_is_shown_whole_at_120_columns_and_cut_at_80(tmp_path: Path) -> None:
    session = demo_session(tmp_path, prisoners=[LONG, "Ben", "Cy", "Dee"])
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert LONG in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert LONG not in text and LONG[: NAME_WIDTH - 1] + "…" in text
        assert "waiting" in text  # today's progress stays on an 80-column screen
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        await pilot.pause()
        assert LONG in screen_text(app)


TWINS = ["Alexandra Christensen-Whitfield", "Alexandra Christensen-Whitmore"]


def test_names_that_would_be_cut_alike_keep_their_ends() -> None:
    """Two long names that would both be cut to "Alexandra Christensen-Whi…" are told apart."""
    cut = cut_names([*TWINS, LONG, "Cy"], 26)
    assert cut[TWINS[0]] != cut[TWINS[1]]
    assert cut[TWINS[0]].endswith("Whitfield") and cut[TWINS[1]].endswith("Whitmore")
    assert all(len(shown) <= 26 for shown in cut.values())
    assert cut[LONG] == LONG[:25] + "…" and cut["Cy"] == "Cy"  # alone, cut at the end
    narrow = cut_names(TWINS, NAME_WIDTH)
    assert narrow == {TWINS[0]: "Alex…ield", TWINS[1]: "Alex…more"}


async def test_two_long_names_that_begin_alike_stay_apart_on_the_board(tmp_path: Path) -> None:
    session = demo_session(tmp_path, prisoners=[*TWINS, "Cy", "Dee"])
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        for size in ((120, 36), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            rows = [line.split()[:2] for line in screen_text(app).splitlines()
                    if line.startswith(" Alex")]
            assert len(rows) == 2 and rows[0] != rows[1], rows
    session.close()
