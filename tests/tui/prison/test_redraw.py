"""The console keeps up with a room of phones: changes from elsewhere are drawn together (at
most every REDRAW_SECONDS), the board changes only its changed cells, a presence signal only
the phone cells, the footer only when the keys on offer change; wrong-link notes are shown."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from rich.text import Text

from companion.session.presence import SeatPresence
from companion.session.prison.create import create_prison_session
from companion.session.session import Session
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.board import Board
from companion.tui.prison.game import GameScreen
from companion.tui.prison.notes import wrong_link_lines, wrong_links
from companion.tui.prison.seats import SeatsScreen
from tests.tui.support import assert_sealed, board_row, drawn, screen_text, shows

NAMES = [f"P{i:02d}" for i in range(12)]


def big(folder: Path) -> Session:
    return create_prison_session(
        folder, "room", "classic", "Wendy", NAMES,
        rules_overrides={"min_prisoners": 4, "max_prisoners": len(NAMES)},
    )


def same_rows(board: Board, rows: dict[Any, Any]) -> bool:
    """The board still has the very rows it had (a cleared board adds new ones)."""
    return board.rows.keys() == rows.keys() and all(board.rows[k] is r for k, r in rows.items())


def footer_keys(app: ConsoleApp) -> list[Any]:
    """The footer's key widgets (a rebuilt footer has new ones)."""
    return list(app.screen.query("FooterKey"))


def row_on_screen(app: ConsoleApp, name: str) -> str:
    return next(line for line in screen_text(app).splitlines() if line.startswith(f" {name} "))


async def test_a_burst_from_elsewhere_is_drawn_once_and_only_the_changed_cells(
    tmp_path: Path,
) -> None:
    session = big(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.query_one(Board)
        rows, keys = dict(board.rows), footer_keys(app)
        assert keys
        # 11 phones choose at once: one redraw, promptly (no timer: the first after a quiet spell)
        for name in NAMES[:11]:
            session.submit({"do": "choose", "prisoner": name, "choice": "work"}, by=name)
        await pilot.pause()
        assert same_rows(board, rows) and footer_keys(app) == keys
        assert shows(app, "11 of 12 have chosen")
        assert "chosen" in row_on_screen(app, "P10") and "waiting" in row_on_screen(app, "P11")
        # right after it, more changes wait for the next redraw (at most one); flushed here
        session.submit({"do": "choose", "prisoner": "P11", "choice": "rest"}, by="P11")
        session.submit({"do": "choose", "prisoner": "P00", "choice": "rest"}, by="P00")
        await pilot.pause()
        await drawn(pilot, app)
        await pilot.pause()
        # no footer rebuild, no row cleared
        assert same_rows(board, rows) and footer_keys(app) == keys
        assert board_row(app, "P11")[3] == "chosen"
        assert "chosen" in row_on_screen(app, "P11")
        assert shows(app, "Everyone has chosen.")
        assert_sealed(app)
        # a new phase changes the keys on offer: the footer is rebuilt
        await pilot.press("x")
        await pilot.pause()
        assert footer_keys(app) != keys
        assert "Interview" in screen_text(app).splitlines()[-1]
        assert board_row(app, "P00")[3] in ("next", "queued")


async def test_a_presence_signal_touches_only_the_phone_cells(tmp_path: Path) -> None:
    session = big(tmp_path)
    now = time.time()
    app = ConsoleApp(session, ticking=False, clock=lambda: now)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        board = screen.query_one(Board)
        rows = dict(board.rows)
        before = board_row(app, "P03")
        others = {name: board_row(app, name) for name in NAMES if name not in ("P03", "P04")}
        session.signal(SeatPresence("P03", True, now - 5))
        session.signal(SeatPresence("P04", False, now - 300))
        await pilot.pause()
        await drawn(pilot, app)
        await pilot.pause()
        assert same_rows(board, rows)  # neither was redrawn
        assert {name: board_row(app, name) for name in others} == others
        assert board_row(app, "P03") == [*before[:5], "connected"]
        away = "away since " + time.strftime("%H:%M", time.localtime(now - 300))
        assert board_row(app, "P04")[5] == away and board_row(app, "P05")[5] == "-"
        assert row_on_screen(app, "P03").split()[5] == "connected"
        assert row_on_screen(app, "P04").split()[5] == "away"
        # the Seats screen too
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, SeatsScreen)
        session.signal(SeatPresence("P05", True, now - 1))
        await pilot.pause()
        await drawn(pilot, app)
        await pilot.pause()
        assert "connected" in row_on_screen(app, "P05")
        assert "connected" in row_on_screen(app, "P03") and "away" in row_on_screen(app, "P04")


async def test_a_signal_from_another_thread_reaches_the_screen(tmp_path: Path) -> None:
    """The session may tell the console from another thread: the change comes in as a
    message on the app's own thread."""
    session = big(tmp_path)
    now = time.time()
    app = ConsoleApp(session, ticking=False, clock=lambda: now)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        seen = threading.Thread(target=session.signal, args=(SeatPresence("P07", True, now - 2),))
        seen.start()
        seen.join()
        for _ in range(20):
            await pilot.pause()
            await drawn(pilot, app)
            if board_row(app, "P07")[5] == "connected":
                break
        assert board_row(app, "P07")[5] == "connected"


async def test_wrong_links_are_shown_to_the_game_master(tmp_path: Path) -> None:
    session = big(tmp_path)
    clock = [time.time()]
    app = ConsoleApp(session, ticking=False, clock=lambda: clock[0])
    line = "Wrong links from 10.0.0.66: 20 in a minute; that device is paused"
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.pause()
        assert not shows(app, "Wrong links")
        session.note("bad_tokens", address="10.0.0.66", count=20, seconds=60.0)
        await pilot.pause()
        await drawn(pilot, app)
        await pilot.pause()
        toast = ("Wrong links from 10.0.0.66: 20 in a minute; that device", "is paused. Someone")
        for _ in range(40):  # the notice: the toast shows once the screen has been drawn
            if all(part in screen_text(app) for part in toast):
                break
            await pilot.pause(0.05)
        assert all(part in screen_text(app) for part in toast)
        side = str(app.screen.query_one("#side").render())
        assert line in " ".join(side.split())
        app.clear_notifications()
        await pilot.press("w")
        await pilot.pause()
        assert shows(app, line)
        # two minutes later the device is no longer paused: gone from the side panel, and
        # the Seats screen says when it was
        clock[0] += 120
        app.refresh_screens()
        await pilot.pause()
        assert not shows(app, line)
        assert shows(app, "wrong links from 10.0.0.66: 20 in a minute; that device was paused")
        await pilot.press("escape")
        await pilot.pause()
        assert "Wrong links" not in " ".join(str(app.screen.query_one("#side").render()).split())


def test_wrong_link_lines() -> None:
    body = {"what": "bad_tokens", "address": "fe80::1", "count": 20, "seconds": 60.0}
    assert wrong_links(body, paused=True) == (
        "Wrong links from fe80::1: 20 in a minute; that device is paused"
    )
    assert wrong_links({**body, "seconds": 30}, paused=False) == (
        "Wrong links from fe80::1: 20 in 30 seconds"
    )
    other = {**body, "address": "10.0.0.9"}
    notes = [(1000.0, body), (1030.0, other), (1050.0, body)]
    assert wrong_link_lines(notes, 1070.0, earlier=False) == [
        "Wrong links from fe80::1: 20 in a minute; that device is paused",
        "Wrong links from 10.0.0.9: 20 in a minute; that device is paused",
    ]
    assert wrong_link_lines(notes, 1095.0, earlier=False) == [
        "Wrong links from fe80::1: 20 in a minute; that device is paused"
    ]
    earlier = wrong_link_lines(notes, 1095.0, earlier=True)
    assert earlier[1].startswith("At ") and earlier[1].endswith(
        ", wrong links from 10.0.0.9: 20 in a minute; that device was paused"
    )


async def test_a_changed_cell_is_drawn_at_once_and_the_other_rows_stay_as_drawn(
    tmp_path: Path,
) -> None:
    session = big(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        board = app.screen.query_one(Board)
        lines = [board.render_line(y).text for y in range(1, 6)]  # below the header
        assert lines[3].split()[:4] == ["P03", "active", "1", "waiting"]
        board.update_cell("P03", "today", Text("chosen"))  # no wider: only that row
        after = [board.render_line(y).text for y in range(1, 6)]
        assert after[3].split()[:4] == ["P03", "active", "1", "chosen"]
        assert after[:3] == lines[:3] and after[4] == lines[4]
        board.update_cell("P04", "phone", Text("connected"), update_width=True)
        await pilot.pause()  # a wider column: laid out again
        assert board.render_line(5).text.split()[5] == "connected"
        assert board_row(app, "P03")[3] == "chosen"
