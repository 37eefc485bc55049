"""q in the middle of a game asks first (the phones and the board would lose the game); before
a game starts it quits at once. Driven through the pilot on the warm-up and prison consoles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static

from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.prison.app import ConsoleApp
from tests.conftest import demo_session
from tests.dilemma_helpers import scenario

ASKED = "The phones and the board lose the game until you open it again with"


def on_screen(app: Any) -> str:
    return " ".join(str(w.render()) for w in app.screen.query(Static) if w.display)


def warm_up(tmp_path: Path) -> Session:
    session = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i, name in enumerate(["Ada", "Ben", "Cleo"]):
        session.submit({"do": "join", "pid": f"p{i}", "name": name})
    return session


async def test_q_before_the_first_round_quits_the_warm_up_at_once(tmp_path: Path) -> None:
    session = warm_up(tmp_path)
    app = DilemmaApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0
    session.close()


async def test_q_in_a_round_of_the_warm_up_asks_first(tmp_path: Path) -> None:
    session = warm_up(tmp_path)
    session.submit({"do": "start_round", "seed": 3})
    app = DilemmaApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        said = on_screen(app)
        assert "Quit?" in said
        assert f"{ASKED} 'companion dilemma {session.name}'; nothing is lost." in said
        assert app.return_code is None
        await pilot.press("escape")  # Esc (and n) stay
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and app.return_code is None
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and app.return_code is None
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.return_code == 0
    assert session.state.phase == "choosing"  # nothing is lost
    session.close()


async def test_q_in_the_prison_break_asks_first_and_y_quits(tmp_path: Path) -> None:
    session = demo_session(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert f"{ASKED} 'companion resume {session.name}'; nothing is lost." in on_screen(app)
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and app.return_code is None
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.return_code == 0
