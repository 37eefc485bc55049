"""One accusation wording: the console's message after an accusation and the
board's results say the very same sentence, from the rules' phrases, in every language; it
never counts the parole tokens the accused held (the warden's to know)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.language import language
from companion.rules.prison.phrases import accused
from companion.tui.common.dialogs import MessageScreen
from companion.tui.prison.app import ConsoleApp
from companion.web.prison.pages import render_board_part
from companion.web.prison.phones import board_view
from tests.conftest import demo_session
from tests.stage_helpers import step_reveal
from tests.tui.support import pick, widget_text

NOW = 2_000_000_000.0
PHONES = {"connected": 0, "seats": 5}


def at_accusations(folder: Path) -> Any:
    """Day 1's accusations: Ben took the warden's deal (one parole token), nobody else did."""
    session = demo_session(folder)
    session.submit({"do": "close_planning"})
    session.submit({"do": "interview", "prisoner": "Ben", "deal": True})
    session.submit({"do": "search", "prisoner": "Ada"})
    step_reveal(session, to_end=True, now=NOW)
    assert session.state.phase == "accusations"
    return session


@pytest.mark.parametrize("code", ["en", "de", "fr", "es"])
async def test_the_console_and_the_board_say_one_accusation_alike(
    tmp_path: Path, code: str
) -> None:
    lang = language(code)
    session = at_accusations(tmp_path)
    app = ConsoleApp(session, ticking=False, clock=lambda: NOW, lang=lang)
    said = {
        "shived": lang.say(accused("Cy", "Ben", "shived")),
        "shiv passed": lang.say(accused("Ada", "Dee", "shiv passed")),
    }
    async with app.run_test(size=(120, 36)) as pilot:
        for accuser, target, result in [("Cy", "Ben", "shived"), ("Ada", "Dee", "shiv passed")]:
            await pilot.press("a")
            await pick(pilot, app, accuser)
            await pick(pilot, app, target)
            assert isinstance(app.screen, MessageScreen)
            assert " ".join(said[result].split()) in " ".join(widget_text(app).split())
            await pilot.press("enter")
            await pilot.pause()
    board = render_board_part(board_view(session, PHONES), None, lang)
    for sentence in said.values():
        assert sentence.replace("'", "&#39;") in board
    if code == "en":
        assert said == {
            "shived": "Cy accused Ben, who had taken a deal: Ben is SHIVED and out of the game.",
            "shiv passed": "Ada accused Dee, who never took a deal: Ada's shiv passes to Dee.",
        }
    for sentence in said.values():  # the number of tokens is nowhere in it
        assert not any(ch.isdigit() for ch in sentence)
    session.close()
