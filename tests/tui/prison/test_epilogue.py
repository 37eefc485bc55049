"""The epilogue on the console: o after the game opens it, Space shows the room each step and
the board shows that very step at the same room version, Esc all of it; the footer offers it
at game over; a console resumed mid-way comes back to the same step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.session.session import Session
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.epilogue import EpilogueScreen
from companion.tui.prison.game import GameScreen
from companion.web.prison.pages import render_board_part
from companion.web.prison.phones import board_view
from tests.conftest import demo_session
from tests.stage_helpers import step_reveal
from tests.tui.support import shows

PHONES = {"connected": 0, "seats": 5}
NOW = 2_000_000_000.0


def finished(folder: Path) -> Any:
    session = demo_session(folder, rules_overrides={"nights_to_escape": 2})
    for name, choice in [("Ada", "rest"), ("Ben", "work"), ("Cy", "rest"), ("Dee", "rest")]:
        session.submit({"do": "choose", "prisoner": name, "choice": choice})
    session.submit({"do": "close_planning"})
    session.submit({"do": "interview", "prisoner": "Dee", "deal": True})
    session.submit({"do": "search", "prisoner": "Ada"})
    step_reveal(session, to_end=True, now=NOW)
    session.submit({"do": "accuse", "accuser": "Ada", "accused": "Dee"})
    session.submit({"do": "end_day"})
    for name in ["Ada", "Ben", "Cy"]:
        session.submit({"do": "choose", "prisoner": name, "choice": "work"})
    session.submit({"do": "close_planning"})
    session.submit({"do": "search", "prisoner": "Cy"})
    step_reveal(session, to_end=True, now=NOW)
    assert session.room.game.over
    return session


def footer(app: ConsoleApp) -> list[str]:
    """What the footer offers now."""
    return [
        b.binding.description
        for b in app.screen.active_bindings.values()
        if b.enabled and b.binding.show and b.binding.description
    ]


def version(session: Any) -> int:
    return session.rows[-1].seq


async def test_each_step_on_the_console_and_the_board_at_the_same_version(tmp_path: Path) -> None:
    session = finished(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert "Epilogue" in footer(app)  # in the footer at game over
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, EpilogueScreen)
        assert shows(app, "The room has seen nothing yet: the board waits for you.")
        assert 'id="epilogue"' not in render_board_part(board_view(session, PHONES), None)
        heads = ["Night 1", "Night 2", "The prisoners escaped"]
        lines = [
            "Dee took the warden's deal: their first parole token.",
            "The warden searched Cy's cell and caught Cy working.",
            "Parole tokens at the end: Dee 1.",
        ]
        for shown, (head, line) in enumerate(zip(heads, lines, strict=True), start=1):
            before = version(session)
            await pilot.press("space")
            await pilot.pause()
            assert version(session) == before + 1  # one act, one version: both faces' room
            assert shows(app, f"What really happened: {shown} of 3")
            assert shows(app, head) and shows(app, line)
            board = render_board_part(board_view(session, PHONES), None)
            assert f'data-step="{shown}"' in board
            assert f'<p class="headline">{head}</p>' in board
            assert line.replace("'", "&#39;") in board
        assert shows(app, "The room has seen it all. Space: back to the game")
        assert "Back to the game" in footer(app)
        assert "Show it all" not in footer(app)
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
    session.close()


async def test_esc_shows_it_all_and_a_resumed_console_comes_back_mid_way(tmp_path: Path) -> None:
    session = finished(tmp_path)
    path = session.store.path
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.press("space")
        await pilot.pause()
        assert session.room.stage.epilogue == 1
    session.close()
    resumed = Session.open(path)
    app = ConsoleApp(resumed, ticking=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EpilogueScreen)  # opened again, at the same step
        assert shows(app, "What really happened: 1 of 3") and shows(app, "Night 1")
        await pilot.press("escape")
        await pilot.pause()
        assert resumed.room.stage.epilogue == 3
        assert shows(app, "Parole tokens at the end: Dee 1.")
    resumed.close()
