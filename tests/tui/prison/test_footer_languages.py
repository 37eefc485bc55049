"""At 80 columns, in every language, the game screen's footer keeps each phase's keys whole
(the phase's actions, the time limit while planning, Tokens, Undo, Help, Quit and the
palette), described in the console's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.language import available, language
from companion.tui.prison.app import ConsoleApp
from tests import stage_helpers as stage
from tests.conftest import demo_session
from tests.tui.support import screen_text

PHASES: dict[str, list[dict[str, Any]]] = {
    "planning": [],
    "interviews": [{"do": "close_planning"}],
    "accusations": [{"do": "close_planning"}, {"do": "search", "prisoner": "Ada"}],
}
KEYS = {  # each phase's keys, as the footer names them, and what each does (in English)
    "planning": [("c", "Choice"), ("x", "Close planning"), ("m", "Limit")],
    "interviews": [("i", "Interview"), ("s", "Search")],
    "accusations": [("a", "Accuse"), ("e", "End day")],
}
ALWAYS = [("t", "Tokens"), ("^z", "Undo"), ("?", "Help"), ("q", "Quit"), ("^p", "palette")]
CASES = [(code, phase) for code in available() for phase in PHASES]


def footer(app: ConsoleApp) -> str:
    return screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("case", CASES, ids=lambda case: "-".join(case))
async def test_each_phase_keeps_its_keys_at_80_columns(
    tmp_path: Path, case: tuple[str, str]
) -> None:
    code, phase = case
    lang = language(code)
    session = demo_session(tmp_path, "demo")
    for command in PHASES[phase]:
        assert not hasattr(session.submit(command), "reason")
    stage.step_reveal(session, to_end=True)
    app = ConsoleApp(session, ticking=False, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):  # the footer is drawn a moment after the screen
            await pilot.pause()
            if footer(app).strip():
                break
        line = footer(app)
        for key, does in KEYS[phase] + ALWAYS:
            said = f"{key} {lang(does)}"
            assert said in line, f"{code}, {phase}: {said!r} is not whole in {line!r}"
    session.close()
