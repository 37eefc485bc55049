"""What the console tells the game master at the moments a game master stumbled on: the planning
banner once everyone has chosen, the game-over banner's keys, the undo after the epilogue and
the nights bar while a reveal is held."""

from __future__ import annotations

from pathlib import Path

from companion.rules.prison.stage import ShowEpilogue
from companion.rules.prison.views import gm
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.text import banner
from companion.tui.prison.told import undo_question
from tests.conftest import demo_session
from tests.stage_helpers import call_in, step_reveal
from tests.tui.prison.test_epilogue import finished
from tests.tui.support import drawn, shows

NOW = 2_000_000_000.0


def test_the_planning_banner_asks_for_no_choice_once_everyone_has_chosen(tmp_path: Path) -> None:
    session = demo_session(tmp_path)
    try:
        for name in ("Ada", "Ben", "Cy"):
            session.submit({"do": "choose", "prisoner": name, "choice": "work"})
        assert "make your secret choice" in banner(gm(session.state)).say
        session.submit({"do": "choose", "prisoner": "Dee", "choice": "rest"})
        said = banner(gm(session.state))
        assert "secret choice" not in said.say and "Everyone has chosen" in said.say
        assert said.do.startswith("X: close planning.")
    finally:
        session.close()


def test_the_game_over_banner_names_the_epilogues_key(tmp_path: Path) -> None:
    session = finished(tmp_path)
    try:
        assert "O: show the room the epilogue" in banner(gm(session.state)).do
    finally:
        session.close()


def test_an_undo_after_the_epilogue_says_that_its_secrets_are_out(tmp_path: Path) -> None:
    session = finished(tmp_path)
    try:
        last = len(session.history.entries)
        _, before = undo_question(session, last)
        assert "epilogue" not in before
        session.stage(ShowEpilogue(NOW, 1))
        title, question = undo_question(session, last)
        assert title == "Undo the end of the game?"
        assert "the epilogue, so the secrets it told (every choice, every deal) are out" in question
    finally:
        session.close()


def test_the_nights_the_room_was_shown_wait_for_the_reveals_night(tmp_path: Path) -> None:
    session = demo_session(tmp_path, rules_overrides={"nights_to_escape": 3})
    try:
        for name, choice in [("Ada", "work"), ("Ben", "work"), ("Cy", "work"), ("Dee", "rest")]:
            session.submit({"do": "choose", "prisoner": name, "choice": choice})
        session.submit({"do": "close_planning"})
        session.submit({"do": "search", "prisoner": "Dee"})  # the day's one search: the night
        assert session.state.over and session.state.nights_done == 3
        seen = []
        while session.room.held is not None:
            seen.append((session.room.nights_shown, session.room.held.step))
            step_reveal(session, now=NOW)
        seen.append((session.room.nights_shown, None))
        assert seen == [(0, None), (0, "search"), (0, "result"), (3, "night"), (3, None)]
    finally:
        session.close()


async def test_the_close_planning_question_follows_a_choice_made_meanwhile(tmp_path: Path) -> None:
    """"Dee has not chosen" is asked again once Dee's phone chose."""
    session = demo_session(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        for name in ("Ada", "Ben", "Cy"):
            session.submit({"do": "choose", "prisoner": name, "choice": "work"}, by=name)
        await drawn(pilot, app)
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert shows(app, "Dee has not chosen and will rest tonight.")
        session.submit({"do": "choose", "prisoner": "Dee", "choice": "rest"}, by="phone:Dee")
        await drawn(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert not shows(app, "Dee has not chosen") and shows(app, "Everyone has chosen.")
    session.close()


async def test_a_console_opened_mid_interview_offers_the_deal_the_phone_just_made(
    tmp_path: Path,
) -> None:
    """The interview screen looks as it did before the warden's phone's deal, even on a
    console opened again meanwhile (its deal's key was offered as the prisoner came in)."""
    session = demo_session(tmp_path)
    session.submit({"do": "close_planning"})
    call_in(session, "Ben", 120, now=NOW)
    session.submit({"do": "interview", "prisoner": "Ben", "deal": True}, by="phone:Wendy")
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen) and shows(app, "d deal  n no deal")
        await pilot.press("d")  # Ben is back: the game master ends it; the record stays
        await pilot.pause()
        await pilot.pause()
    assert session.room.stage.interview is None
    assert session.state.day.interviews == (("Ben", True),)
    session.close()
