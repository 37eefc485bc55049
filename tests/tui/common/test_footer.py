"""At 80 columns the footer keeps the essential keys (the phase's actions, Tokens, Undo, Help,
Quit) whole, leaving out optional ones that still work; at 120 columns it shows them all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.game import GameScreen
from companion.tui.prison.printout import PrintScreen
from tests import stage_helpers as stage
from tests.conftest import demo_session
from tests.tui.support import screen_text

PHASES: dict[str, list[dict[str, Any]]] = {
    "planning": [],
    "interviews": [{"do": "close_planning"}],
    "accusations": [{"do": "close_planning"}, {"do": "search", "prisoner": "Ada"}],
}
ESSENTIAL = {
    "planning": ["c Choice", "x Close planning"],
    "interviews": ["i Interview", "s Search"],
    "accusations": ["a Accuse", "e End day"],
}
STAGE = {"planning": ["m Limit"]}
ALWAYS = ["t Tokens", "^z Undo", "? Help", "q Quit", "^p palette"]
OPTIONAL = ["h History", "w Seats", "p Print", "l Links", "b Balance"]


def footer(app: ConsoleApp) -> str:
    return screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("phase", list(PHASES))
async def test_the_essential_keys_fit_at_80_columns(tmp_path: Path, phase: str) -> None:
    session = demo_session(tmp_path, "demo")
    for command in PHASES[phase]:
        assert not hasattr(session.submit(command), "reason")
    stage.step_reveal(session, to_end=True)  # the room has seen the search, if any
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = footer(app)
        for key in ESSENTIAL[phase] + ALWAYS:
            assert key in line, f"{key!r} is not whole in the footer: {line!r}"
        assert not all(key in line for key in OPTIONAL)  # something had to give
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        line = footer(app)
        # in planning the time limit (M) takes the room of Balance (B, still in help)
        wide = [k for k in OPTIONAL if phase != "planning" or k != "b Balance"]
        for key in ESSENTIAL[phase] + ALWAYS + STAGE.get(phase, []) + wide:
            assert key in line, f"{key!r} is not in the wide footer: {line!r}"
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "q Quit" in footer(app) and "b Balance" not in footer(app)
        await pilot.press("p")  # left out of the footer, but the key works
        await pilot.pause()
        assert isinstance(app.screen, PrintScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
