"""Whom an informant named, recorded on the console: after d (a deal) the game master ticks
the other prisoners the informant named with Space and records the deal with Enter (none
ticked: nobody), or goes back to the interview with Esc; the names reach the epilogue."""

from __future__ import annotations

from pathlib import Path

from companion.rules.prison.epilogue import nights
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.game import GameScreen
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.named import NamedScreen
from tests.conftest import demo_session
from tests.stage_helpers import step_reveal
from tests.tui.support import pick, shows

NOW = 2_000_000_000.0


async def test_the_console_records_whom_the_informant_named(tmp_path: Path) -> None:
    session = demo_session(tmp_path, rules_overrides={"nights_to_escape": 1})
    for name, choice in [("Ada", "work"), ("Ben", "rest"), ("Cy", "work"), ("Dee", "rest")]:
        session.submit({"do": "choose", "prisoner": name, "choice": choice})
    session.submit({"do": "close_planning"})
    app = ConsoleApp(session, ticking=False, clock=lambda: NOW)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        await pilot.press("i")
        await pick(pilot, app, "Ben")
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, NamedScreen)
        assert shows(app, "Whom did Ben name?")
        assert shows(app, "with none ticked, Ben named nobody")
        assert app.screen.others == ["Ada", "Cy", "Dee"]  # the others still in, not Ben
        await pilot.press("escape")  # back to the interview: nothing recorded
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        assert session.state.day.interviews == ()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, NamedScreen)
        await pilot.press("space", "down", "down", "space")  # Ada and Dee
        await pilot.press("down", "down", "up", "space", "space")  # Cy ticked, then not
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert shows(app, "Ben's interview is recorded.")
        assert session.state.day.interviews == (("Ben", True),)
        assert session.state.day.named == (("Ben", ("Ada", "Dee")),)
        command = [r for r in session.rows if r.kind == "command"][-1].body["command"]
        assert command == {"do": "interview", "prisoner": "Ben", "deal": True,
                           "named": ["Ada", "Dee"]}
    # the night ends the game (one night's work escapes): the epilogue tells whom Ben named
    session.submit({"do": "search", "prisoner": "Ben"})
    step_reveal(session, to_end=True, now=NOW)
    assert session.state.over
    deals = nights(session.state)[0]["deals"]
    assert deals == [{"prisoner": "Ben", "tokens": 1, "named": ["Ada", "Dee"]}]
    session.close()


async def test_nobody_named_is_enter_with_nothing_ticked(tmp_path: Path) -> None:
    session = demo_session(tmp_path)
    session.submit({"do": "close_planning"})
    app = ConsoleApp(session, ticking=False, clock=lambda: NOW)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("i")
        await pick(pilot, app, "Cy")
        await pilot.press("d")
        await pilot.pause()
        assert shows(app, "Space tick") and shows(app, "Enter record the deal")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
    assert session.state.day.interviews == (("Cy", True),)
    assert session.state.day.named == ()
    session.close()
