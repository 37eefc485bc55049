"""The console's parts one by one: set-up validation, secrets (private view, peek), the
interview countdown, undo, live changes from elsewhere, seats, the picker."""

from __future__ import annotations

import time
from pathlib import Path

from companion.session.presence import SeatPresence
from companion.session.prison import seats
from companion.session.prison.create import create_prison_session
from companion.tui.common.dialogs import MessageScreen
from companion.tui.common.qr import qr_lines
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.game import GameScreen
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.picker import PickerScreen
from companion.tui.prison.seats import QRScreen, SeatsScreen
from companion.tui.prison.setup import SetupScreen
from companion.tui.prison.text import nights_bar, parse_duration
from tests import stage_helpers as stage
from tests.conftest import ROSTER
from tests.tui.support import (
    assert_sealed,
    board_row,
    choose,
    drawn,
    everything,
    new_app,
    set_up,
    shelf,
    shows,
    type_text,
)


def demo(folder: Path, **overrides: object) -> object:
    return create_prison_session(
        folder, "demo", "classic", "Wendy", ROSTER, rules_overrides=overrides or None
    )


async def test_set_up_validates_renames_removes_and_reorders(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("ctrl+s")
        assert shows(app, "The warden's name is empty")
        await type_text(pilot, "Wendy")
        await pilot.press("enter")
        for name in ["Ada", "Ben", "ada"]:
            await type_text(pilot, name)
            await pilot.press("enter")
        assert shows(app, "The name 'ada' is already in the roster; pick another.")
        await pilot.press(*["backspace"] * 3)
        await type_text(pilot, "Cy")
        await pilot.press("enter")
        await pilot.press("ctrl+s")
        assert shows(app, "balanced for exactly 4 prisoners, but the roster has 3")
        assert not (tmp_path / "game.sqlite").exists()
        for name in ["Dee", "Eve"]:
            await type_text(pilot, name)
            await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.prisoners == ["Ada", "Ben", "Cy", "Dee", "Eve"]
        await pilot.press("f8")  # removes the highlighted (last added) prisoner
        await pilot.press("f5", "f5")  # Dee moves up two seats
        await pilot.press("f2")
        await pilot.press(*["backspace"] * 3)
        await type_text(pilot, "Dana")
        await pilot.press("enter")
        assert screen.prisoners == ["Ada", "Dana", "Ben", "Cy"]
        assert shows(app, "Ready: Wendy and 4 prisoners.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert list(app.session.state.roster) == ["Ada", "Dana", "Ben", "Cy"]


async def test_picker_resumes_and_starts_new(tmp_path: Path) -> None:
    demo(tmp_path).close()
    app = ConsoleApp(shelf=shelf(tmp_path), ticking=False)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        assert isinstance(app.screen, PickerScreen)
        assert shows(app, "Resume demo") and shows(app, "Start a new session")
        await pilot.press("n")
        await type_text(pilot, "bad name")
        await pilot.press("enter")
        assert shows(app, "is not a usable session name")
        await pilot.press(*["backspace"] * 8)
        await type_text(pilot, "demo")
        await pilot.press("enter")
        assert shows(app, "A session called 'demo' already exists")
        await pilot.press("escape", "down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert shows(app, "demo · Day 1 · Planning")


async def test_private_tokens_view_turns_itself_off(tmp_path: Path) -> None:
    session = demo(tmp_path)
    session.submit({"do": "close_planning"})
    session.submit({"do": "interview", "prisoner": "Cy", "deal": True})
    now = [1_000.0]  # the console's clock, moved by hand: no waiting on wall time
    app = ConsoleApp(session, private_seconds=20, ticking=False, clock=lambda: now[0])
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert board_row(app, "Cy")[4] == "hidden"
        await pilot.press("t")
        await pilot.pause()
        assert board_row(app, "Cy")[4] == "1" and board_row(app, "Ada")[4] == "0"
        assert shows(app, "PRIVATE VIEW: parole tokens are on screen")
        assert shows(app, "turns itself off in 20 s")
        assert screen.private_timed  # armed to fire after the 20 s
        now[0] += 19.5
        screen.private_due()  # the timer firing early changes nothing: half a second to go
        await pilot.pause()
        assert board_row(app, "Cy")[4] == "1" and screen.private_timed
        now[0] += 0.5
        screen.private_due()  # the timer firing on time
        await pilot.pause()
        assert board_row(app, "Cy")[4] == "hidden"
        assert not shows(app, "PRIVATE VIEW")
        assert not screen.private_timed
        await pilot.press("t", "t")  # on and straight off again
        assert board_row(app, "Cy")[4] == "hidden"
        assert not screen.private_timed


async def test_peek_asks_and_is_logged(tmp_path: Path) -> None:
    session = demo(tmp_path)
    session.submit({"do": "choose", "prisoner": "Ben", "choice": "work"})
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        assert_sealed(app)
        await pilot.press("ctrl+p")
        await type_text(pilot, "peek")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert shows(app, "Peek at the sealed choices?")
        await pilot.press("n")
        await pilot.pause()
        assert session.notes("peek") == []
        assert_sealed(app)
        app.peek()
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        assert shows(app, "Ben: work") and shows(app, "Ada: not chosen yet")
        await pilot.press("enter")
        await pilot.pause()
        assert_sealed(app)
        assert [r.body for r in session.notes("peek")] == [{"what": "peek", "day": 1}]
        await pilot.press("h")
        assert shows(app, "The game master peeked at the sealed choices.")


async def test_interview_countdown_pause_extend_and_length_setting(tmp_path: Path) -> None:
    session = demo(tmp_path)
    session.submit({"do": "close_planning"})
    now = [1_000_000.0]
    app = ConsoleApp(session, ticking=False, clock=lambda: now[0])
    bells: list[int] = []
    app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        app.set_interview_length()
        await pilot.pause()
        await pilot.press(*["backspace"] * 4)
        await type_text(pilot, "5")
        await pilot.press("enter")
        assert shows(app, "Give a length between 10 seconds and an hour")
        await pilot.press("backspace")
        await type_text(pilot, "0:12")
        await pilot.press("enter")
        await pilot.pause()
        assert session.settings["interview_seconds"] == 12
        assert shows(app, "Interviews: 0:12 each")
        await pilot.press("i", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InterviewScreen)
        assert shows(app, "0:12")
        # the countdown is the stage's: recorded, so the board and the phones count with it
        assert stage.stage_of(session).interview is not None
        assert stage.stage_of(session).interview.prisoner == "Ada"  # type: ignore[union-attr]
        now[0] += 2
        screen.show()
        await pilot.press("p")
        now[0] += 5
        screen.show()  # paused: no change
        assert shows(app, "0:10  (paused)")
        assert stage.stage_of(session).interview.clock.paused  # type: ignore[union-attr]
        await pilot.press("p", "plus")
        assert shows(app, "0:40")
        assert bells == []
        now[0] += 40
        screen.show()
        assert shows(app, "0:00  time is up: deal or no deal?")
        screen.show()
        assert bells == [1]  # once at zero
        await pilot.press("escape")  # cancelled: nothing recorded
        await pilot.pause()
        assert session.state.day.interviews == ()
        assert stage.stage_of(session).interview is None
        assert shows(app, "Nothing is recorded for Ada")
    # the length is kept with the session
    assert parse_duration("2:30") == 150 and parse_duration("3m") == 180
    assert parse_duration("abc") is None and parse_duration("5") is None


async def test_undo_walks_back_and_never_names_a_choice(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        await set_up(pilot, "Wendy", ROSTER)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert shows(app, "There is nothing to undo.")
        await choose(pilot, app, "Ada", "work")
        await choose(pilot, app, "Ben", "rest")
        await pilot.press("ctrl+z")
        assert shows(app, "Take back Ben's secret choice?")
        assert_sealed(app)
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("ctrl+z")
        assert shows(app, "Take back Ada's secret choice?")
        await pilot.press("y")
        await pilot.pause()
        assert board_row(app, "Ada")[3] == "waiting"
        session = app.session
        assert [r.kind for r in session.rows] == ["command", "command", "undo", "undo"]


async def test_changes_from_elsewhere_show_at_once(tmp_path: Path) -> None:
    session = demo(tmp_path)
    now = 1_000_000.0
    app = ConsoleApp(session, ticking=False, clock=lambda: now)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        assert board_row(app, "Dee")[3] == "waiting" and board_row(app, "Dee")[5] == "-"
        session.submit({"do": "choose", "prisoner": "Dee", "choice": "work"}, by="Dee")
        session.signal(SeatPresence("Dee", True, now - 5))
        session.signal(SeatPresence("Cy", False, now - 300))
        await pilot.pause()
        assert board_row(app, "Dee")[3] == "chosen"
        away = "away since " + time.strftime("%H:%M", time.localtime(now - 300))
        assert board_row(app, "Dee")[5] == "connected" and board_row(app, "Cy")[5] == away
        # a phone that closes its last stream is away from then on, whatever the clock says
        session.signal(SeatPresence("Dee", False, now))
        await pilot.pause()
        await drawn(pilot, app)
        await pilot.pause()
        assert board_row(app, "Dee")[5].startswith("away since")
        # the warden's phone is on the game screen too
        assert shows(app, "Warden's phone: -")
        session.signal(SeatPresence("Wendy", True, now))
        await pilot.pause()
        await drawn(pilot, app)
        await pilot.pause()
        assert shows(app, "Warden's phone: connected")
        assert shows(app, "1 of 4 has chosen")
        assert_sealed(app)


async def test_seats_qr_code_and_reissue(tmp_path: Path) -> None:
    session = demo(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, SeatsScreen)
        assert shows(app, "no phone server is running")
        await pilot.press("k")
        await pilot.pause()
        assert shows(app, "There is no link to show")
        session.set("served_url", "http://127.0.0.1:8765/")
        app.screen.refresh_view()  # type: ignore[attr-defined]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, QRScreen)
        ada = seats.seats_of(session)[1]
        assert ada.name == "Ada"
        assert shows(app, f"type {ada.code[:4]} {ada.code[4:]}")
        qr = qr_lines(seats.seat_url("http://127.0.0.1:8765", ada))
        assert shows(app, qr[3])
        await pilot.press("escape", "n")
        assert shows(app, "Reissue Ada's seat?")
        await pilot.press("y")
        await pilot.pause()
        fresh = seats.seats_of(session)[1]
        assert fresh.token != ada.token and fresh.code != ada.code
        assert [r.body for r in session.notes("seat_reissued")] == [
            {"what": "seat_reissued", "seat": "Ada"}
        ]
        assert "token" not in " ".join(everything(app).split()).lower()


def test_qr_lines_are_square_half_blocks() -> None:
    lines = qr_lines("http://127.0.0.1:8765/p/abc")
    assert len({len(line) for line in lines}) == 1
    assert set("".join(lines)) <= set("█▀▄ ")
    assert len(lines) == (len(lines[0]) + 1) // 2


def test_nights_bar() -> None:
    assert nights_bar(4, 6) == "■■■■□□ 4 of 6"
    assert nights_bar(0, 24) == "□" * 12 + " 0 of 24"


async def test_a_failing_screen_does_not_stop_the_console(tmp_path: Path, monkeypatch) -> None:
    session = demo(tmp_path)
    session.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    app = ConsoleApp(session, ticking=False)

    def broken(full: bool, lang: object = None) -> list[str]:
        raise RuntimeError("the timeline broke")

    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        monkeypatch.setattr(app.context, "history_lines", broken)
        await pilot.press("h")
        await pilot.pause()
        assert shows(app, "That went wrong: the timeline broke")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await choose(pilot, app, "Ben", "rest")  # the game goes on
    log = tmp_path / "demo.console-errors.log"
    assert "the timeline broke" in log.read_text()
    assert sorted(session.state.day.choices) == ["Ada", "Ben"]


async def test_a_failing_action_stops_the_console_with_the_error_noted(
    tmp_path: Path, monkeypatch
) -> None:
    session = demo(tmp_path)
    app = ConsoleApp(session, ticking=False)

    def broken() -> None:
        raise RuntimeError("the private view broke")

    async with app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr(app.screen, "action_private", broken)
        await pilot.press("t")
        await pilot.pause()
    assert isinstance(app.crashed, RuntimeError) and app.return_code == 1
    assert app.crash_log == tmp_path / "demo.console-errors.log"
    assert "the private view broke" in app.crash_log.read_text()


def test_runner_reopens_the_session_after_a_crash(tmp_path: Path, monkeypatch) -> None:
    import argparse

    from companion.cli import wiring as start
    from companion.cli.consoles import prison as consoles

    session = demo(tmp_path)
    session.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    runs: list[ConsoleApp] = []

    def fake_run(self: ConsoleApp) -> None:
        runs.append(self)
        if len(runs) == 1:  # the first console fails on some screen
            self.crashed = RuntimeError("a screen broke")
            self.exit(return_code=1)

    monkeypatch.setattr(start, "check_terminal", lambda: None)
    monkeypatch.setattr(ConsoleApp, "run", fake_run)
    args = argparse.Namespace(data_dir=str(tmp_path), no_phones=True)
    assert consoles.run_console(args, session) == 0
    assert len(runs) == 2
    second = runs[1]
    assert second.session is not session and second.session.name == "demo"
    assert second.notice and "recovered from an error (a screen broke)" in second.notice
    assert sorted(second.session.state.day.choices) == ["Ada"]
    second.session.close()
