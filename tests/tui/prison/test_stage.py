"""The console on the stage: the interview in progress, the held reveal, the planning time
limit and undo that knows what the room has seen (rules/prison/room.py), with moves made on
the warden's phone (submitted by the warden's seat, as the phone server does)."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette

from companion.rules.prison.views import table
from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen, PickScreen, TextScreen
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.board import Board
from companion.tui.prison.game import GameScreen
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.reveal import RevealScreen
from companion.tui.prison.told import room_saw
from tests import stage_helpers as stage
from tests.conftest import demo_session
from tests.tui.support import board_row, drawn, offered, pick, screen_text, shows, type_text

WARDEN = "Wendy"


def interviews(folder: Path) -> Session:
    session = demo_session(folder)
    session.submit({"do": "choose", "prisoner": "Ben", "choice": "work"}, by="Ben")
    session.submit({"do": "choose", "prisoner": "Cy", "choice": "work"}, by="Cy")
    session.submit({"do": "close_planning"})
    return session


async def settle(pilot: object, app: ConsoleApp) -> None:
    """Let a change from elsewhere arrive and be drawn."""
    await drawn(pilot, app)  # type: ignore[arg-type]


async def test_a_deal_on_the_wardens_phone_leaves_the_countdown_to_the_game_master(
    tmp_path: Path,
) -> None:
    """The room's interview ends by the game master's hand, deal or none: the
    countdown stays as it was, and ending it says that the warden's phone recorded it."""
    session = interviews(tmp_path)
    assert session.settings  # the demo session has seats
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("i")
        await pick(pilot, app, "Ben")
        assert isinstance(app.screen, InterviewScreen)
        board = app.screen_stack[-2].query_one(Board)  # under the countdown
        assert str(board.get_row("Ben")[3]) == "with warden"
        before = screen_text(app)
        session.submit({"do": "interview", "prisoner": "Ben", "deal": True}, by=WARDEN)
        await settle(pilot, app)
        assert isinstance(app.screen, InterviewScreen) and screen_text(app) == before
        assert stage.stage_of(session).interview is not None
        await pilot.press("n")  # Ben is back: the game master ends it (the record stays)
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert shows(app, "Ben's interview was recorded on the warden's phone")
        assert not shows(app, "dealt") and not shows(app, "deal with")  # no deal on screen
        assert stage.stage_of(session).interview is None
        assert board_row(app, "Ben")[3] == "interviewed"
        await pilot.press("i")
        await pilot.pause()
        assert "Ben" not in offered(app)
        await pick(pilot, app, "Ada")
        assert isinstance(app.screen, InterviewScreen) and app.screen.prisoner == "Ada"
        await pilot.press("n")
        await pilot.pause()
    assert session.state.day.interviews == (("Ben", True), ("Ada", False))


async def test_a_search_on_the_wardens_phone_ends_the_interview(tmp_path: Path) -> None:
    session = interviews(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("i")
        await pick(pilot, app, "Ada")
        session.submit({"do": "search", "prisoner": "Cy"}, by=WARDEN)
        await settle(pilot, app)
        assert isinstance(app.screen, RevealScreen)
        assert shows(app, "The search has started, so Ada's interview is over")


async def test_a_search_on_the_wardens_phone_waits_for_the_game_masters_dialog(
    tmp_path: Path,
) -> None:
    # A screen pushed over a dialog would be closed by the dialog's answer (Textual closes
    # the top screen): the reveal waits until the dialog is answered.
    session = interviews(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        session.submit({"do": "search", "prisoner": "Ben"}, by=WARDEN)
        await settle(pilot, app)
        assert isinstance(app.screen, PickScreen)  # still the game master's question
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, RevealScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert shows(app, "CAUGHT: Ben was working")
        assert app.faults.crashed is None


async def test_an_interview_in_progress_comes_back_after_a_resume(tmp_path: Path) -> None:
    session = interviews(tmp_path)
    now = [1_000_000.0]
    stage.call_in(session, "Cy", 120, now=now[0] - 30)
    app = ConsoleApp(session, ticking=False, clock=lambda: now[0])
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, InterviewScreen) and app.screen.prisoner == "Cy"
        assert shows(app, "1:30")  # the stage's clock, not a fresh one
        await pilot.press("d", "enter")  # a deal, nobody named
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
    assert session.state.day.interviews == (("Cy", True),)
    assert stage.stage_of(session).interview is None


async def test_a_search_on_the_wardens_phone_is_held_until_the_game_master_steps(
    tmp_path: Path,
) -> None:
    session = interviews(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        before = table(session.state)
        session.submit({"do": "search", "prisoner": "Ben"}, by=WARDEN)
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, RevealScreen)
        assert shows(app, "The room has seen nothing yet") and not shows(app, "CAUGHT")
        game = app.screen_stack[-2]
        assert isinstance(game, GameScreen)
        # while it is held: no accusation, no end of day, the board as before the search
        assert not game.check_action("accuse", ()) and not game.check_action("end_day", ())
        assert table(stage.room_state(session))["today"] == before["today"]
        await pilot.press("space")
        assert [*stage.stage_of(session).reveal.steps][:1] == ["search"]  # type: ignore[union-attr]
        assert stage.stage_of(session).reveal.shown == 1  # type: ignore[union-attr]
        assert shows(app, "The warden searches Ben's cell…") and not shows(app, "CAUGHT")
        await pilot.press("space")
        assert shows(app, "CAUGHT") and stage.stage_of(session).reveal.shown == 2  # type: ignore[union-attr]
        assert stage.held_reveal(session) is not None  # who worked: not yet
        await pilot.press("enter")
        assert shows(app, "Cy worked") and stage.held_reveal(session) is None
        assert game.check_action("accuse", ())
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert shows(app, "Day 1 · Accusations")


async def test_a_reveal_shown_all_closes_once_a_move_is_made_elsewhere(tmp_path: Path) -> None:
    """The game master stepped the reveal from the phone, then recorded an accusation there:
    the console leaves the reveal for the game screen, which shows the accusation."""
    session = interviews(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        session.submit({"do": "search", "prisoner": "Ben"}, by=WARDEN)
        await settle(pilot, app)
        assert isinstance(app.screen, RevealScreen)
        while stage.held_reveal(session) is not None:  # the steps, tapped elsewhere
            stage.step_reveal(session)
        await settle(pilot, app)
        assert isinstance(app.screen, RevealScreen)  # the room has seen it all: still read here
        assert shows(app, "The room has seen it all")
        accuser = table(session.state)["may_accuse"][0]
        accused = next(n for n in table(session.state)["active"] if n != accuser)
        session.submit({"do": "accuse", "accuser": accuser, "accused": accused})
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert shows(app, "Day 1 · Accusations")


async def test_a_held_reveal_opens_again_after_a_resume_and_esc_shows_it_all(
    tmp_path: Path,
) -> None:
    session = interviews(tmp_path)
    session.submit({"do": "search", "prisoner": "Ada"}, by=WARDEN)
    stage.step_reveal(session)  # the room saw the warden search Ada's cell, then a crash
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, RevealScreen)
        assert shows(app, "The warden searches Ada's cell…") and not shows(app, "SAFE")
        await pilot.press("escape")
        assert stage.held_reveal(session) is None
        assert shows(app, "SAFE: Ada was not working") and shows(app, "Ben and Cy worked")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_a_planning_limit_counts_down_pauses_extends_and_asks_once(
    tmp_path: Path,
) -> None:
    session = demo_session(tmp_path)
    now = [1_000_000.0]
    app = ConsoleApp(session, ticking=False, clock=lambda: now[0])
    bells: list[int] = []
    app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert not shows(app, "Planning time")
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        await type_text(pilot, "5")
        await pilot.press("enter")
        assert shows(app, "Give a length")
        await pilot.press("backspace")
        await type_text(pilot, "5:00")
        await pilot.press("enter")
        await pilot.pause()
        planning = stage.stage_of(session).planning
        assert planning is not None and planning.remaining(now[0]) == 300
        assert shows(app, "Planning time · 5:00 left")
        now[0] += 60
        screen.tick()
        assert shows(app, "Planning time · 4:00 left")
        await pilot.press("space")  # pause
        now[0] += 100
        screen.tick()
        assert shows(app, "4:00 left (paused")
        await pilot.press("plus")
        await pilot.pause()
        assert shows(app, "5:00 left (paused")
        await pilot.press("space")  # go on
        now[0] += 299
        screen.tick()
        assert shows(app, "0:01 left") and bells == []
        now[0] += 1
        screen.tick()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert shows(app, "Planning time is up: close planning?") and bells == [1]
        await pilot.press("n")
        await pilot.pause()
        now[0] += 10
        screen.tick()
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and bells == [1]  # asked once
        assert shows(app, "time is up")
        await pilot.press("m")
        await pilot.pause()
        await pilot.press(*["backspace"] * 5, "enter")  # empty: no limit
        await pilot.pause()
        assert stage.stage_of(session).planning is None and not shows(app, "Planning time")
        assert shows(app, "Planning has no time limit.")


async def test_undo_names_what_the_room_has_seen(tmp_path: Path) -> None:
    session = interviews(tmp_path)
    session.submit({"do": "interview", "prisoner": "Ada", "deal": False})
    session.submit({"do": "search", "prisoner": "Ben"})
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, RevealScreen)
        await pilot.press("escape", "escape")
        await pilot.pause()
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert shows(
            app,
            "The room has already seen that Ben was caught working and who worked tonight; "
            "undo only if you will tell them.",
        )
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert shows(app, "The room has already seen Ada go in to the warden")
        await pilot.press("n")
        await pilot.pause()


def test_a_search_the_room_has_not_seen_is_nothing_to_warn_about(tmp_path: Path) -> None:
    session = interviews(tmp_path)
    entry = session.submit({"do": "search", "prisoner": "Ben"})
    hseq = entry.seq  # type: ignore[union-attr]
    assert room_saw(session, hseq) is None  # held: the board shows nothing of it yet
    stage.step_reveal(session)
    assert room_saw(session, hseq) == "the warden search Ben's cell"
    stage.step_reveal(session)
    assert room_saw(session, hseq) == "that Ben was caught working"
    stage.step_reveal(session)
    assert room_saw(session, hseq) == "that Ben was caught working and who worked tonight"


async def test_an_interview_ended_under_the_palette_closes_once_on_top(tmp_path: Path) -> None:
    # A dismiss closes the top screen, whichever it is: the countdown waits for the palette.
    session = interviews(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("i")
        await pick(pilot, app, "Ada")
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        stage.send_out(session)  # ended from another console
        await settle(pilot, app)
        assert isinstance(app.screen, CommandPalette)  # not closed by the countdown's end
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and app.faults.crashed is None
        assert shows(app, "Ada's interview was ended elsewhere")


def footer_words(app: ConsoleApp) -> str:
    from textual.widgets._footer import FooterKey

    return " ".join(f"{k.key_display} {k.description}" for k in app.screen.query(FooterKey))


async def test_at_the_end_of_a_reveal_the_footer_says_what_the_dialog_says(
    tmp_path: Path,
) -> None:
    session = interviews(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        session.submit({"do": "search", "prisoner": "Ben"}, by=WARDEN)
        await settle(pilot, app)
        assert isinstance(app.screen, RevealScreen)
        keys = footer_words(app)
        assert "Show the room the next step" in keys and "Show it all" in keys
        assert "Back to the game" not in keys
        await pilot.press("escape")  # all of it
        await settle(pilot, app)
        assert isinstance(app.screen, RevealScreen)
        assert shows(app, "Space: back to the game")
        keys = footer_words(app)
        assert "Back to the game" in keys, keys
        assert "next step" not in keys and "Show it all" not in keys, keys
        await pilot.press("space")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
