"""A window made smaller with a long name: opened at 120x36 and resized to 80x24
with a 33-character prisoner name, every column of the board stays on screen, the name gives
way with an ellipsis, T never turns on a column nobody can see, and the side panel never cuts
an address or starts a line with a comma."""

from __future__ import annotations

import time
from pathlib import Path

from companion.language import language
from companion.session.presence import SeatPresence
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.board import NAME_WIDTH, Board
from companion.tui.prison.side import fold
from tests.conftest import demo_session
from tests.tui.support import drawn, screen_text

LONG = "Bartholomew Fitzgerald-Ravensword"  # 33 characters
URL = "http://127.0.0.1:41001/join"


def board_lines(text: str) -> list[str]:
    """The screen's lines from the board's header on, the side panel left out."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Prisoner"))
    return [line.split("│")[0] for line in lines[top : top + 5]]


def side_lines(text: str) -> list[str]:
    return [line.split("│", 1)[1].strip() for line in text.splitlines() if "│" in line]


async def test_the_board_fits_an_80_column_window_after_a_resize(tmp_path: Path) -> None:
    assert len(LONG) == 33
    session = demo_session(tmp_path, prisoners=[LONG, "Ravi", "Tom", "Dee"])
    session.set("served_url", "http://127.0.0.1:41001")
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert LONG in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        header, *rows = board_lines(text)
        assert header.split() == ["Prisoner", "Status", "Shivs", "Today", "Tokens", "Phone"]
        cut = rows[0].split()[0]
        assert cut.endswith("…") and LONG.startswith(cut[:-1]) and len(cut) >= NAME_WIDTH
        for row in rows:
            assert row.split()[-3:] == ["waiting", "hidden", "-"], row  # nothing cut
        # the join address whole, on a line of its own across the screen
        assert any(line.strip() == f"No QR code? Type the seat code at {URL}" for line in
                   text.splitlines())
        side = side_lines(text)
        assert not any(line.startswith((",", ";", ".")) for line in side), side
        await pilot.press("t")
        await pilot.pause()
        rows = board_lines(screen_text(app))[1:]
        assert all(row.split()[-3:] == ["waiting", "0", "-"] for row in rows), rows
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert LONG in text
        assert URL in side_lines(text)  # back in the side panel, whole


def test_the_side_panel_folds_between_words_and_at_an_address_slashes() -> None:
    names = f"Waiting for: {LONG[:-1]}, Ravi, Tom and Dee"
    folded = fold(names, 21).splitlines()
    assert all(len(line) <= 21 for line in folded)
    assert not any(line.startswith(",") for line in folded), folded
    assert " ".join(folded) == names
    # at 80 columns: a hyphenated name is folded after its hyphen, never inside a word
    # (not "Fitzgerald-Okonkw" / "o")
    narrow = fold(names, 18).splitlines()
    assert narrow == ["Waiting for:", "Bartholomew", "Fitzgerald-", "Ravenswor, Ravi,",
                      "Tom and Dee"], narrow
    twins = "Waiting for: Alexandra Christensen-Whitfield, Alexandra Christensen-Whitmore"
    assert fold(twins, 18).splitlines() == [
        "Waiting for:", "Alexandra", "Christensen-", "Whitfield,", "Alexandra", "Christensen-",
        "Whitmore",
    ]
    line = f"No QR code? Type the seat code at {URL}"
    assert fold(line, 27).splitlines()[-1] == URL  # whole on its own line when it fits
    assert fold(line, 17).splitlines()[-3:] == ["http://", "127.0.0.1:41001/", "join"]


def test_the_side_panel_never_parts_a_no_break_space() -> None:
    """French puts a no-break space before its colon: the colon stays with its word."""
    assert fold("Tél. des prisonniers\u00a0:", 17).splitlines() == [
        "Tél. des", "prisonniers\u00a0:"
    ]
    assert fold("Téléphones des prisonniers\u00a0:", 13).splitlines()[-1] == "prisonniers\u00a0:"


async def test_a_phone_away_fits_the_phone_column_at_80_columns(tmp_path: Path) -> None:
    now = 2_000_000_000.0
    at = time.strftime("%H:%M", time.localtime(now - 300))
    session = demo_session(tmp_path, prisoners=[LONG, "Ravi", "Tom", "Dee"])
    app = ConsoleApp(session, ticking=False, clock=lambda: now)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        session.signal(SeatPresence("Ravi", False, now - 300))  # Ravi's phone went away
        session.signal(SeatPresence("Tom", True, now - 5))
        await pilot.pause()
        await drawn(pilot, app)
        await pilot.pause()
        rows = board_lines(screen_text(app))[1:]
        assert rows[1].rstrip().endswith(f"away since {at}")  # room enough at 120 columns
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        header, *rows = board_lines(screen_text(app))
        assert header.split()[-1] == "Phone"
        assert rows[1].split()[-4:] == ["waiting", "hidden", "away", at], rows[1]  # whole
        assert rows[2].split()[-1] == "connected"
        assert app.screen.query_one(Board).column_in_view("phone")
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        await pilot.pause()
        assert board_lines(screen_text(app))[2].rstrip().endswith(f"away since {at}")
    session.close()


async def test_the_short_phone_words_are_the_consoles_language(tmp_path: Path) -> None:
    now = 2_000_000_000.0
    at = time.strftime("%H:%M", time.localtime(now - 300))
    session = demo_session(tmp_path, prisoners=[LONG, "Ravi", "Tom", "Dee"])
    app = ConsoleApp(session, ticking=False, clock=lambda: now, lang=language("fr"))
    async with app.run_test(size=(80, 24)) as pilot:
        session.signal(SeatPresence("Ravi", False, now - 300))
        await pilot.pause()
        await drawn(pilot, app)
        await pilot.pause()
        assert f"parti {at}" in screen_text(app) and "away" not in screen_text(app)
    session.close()
