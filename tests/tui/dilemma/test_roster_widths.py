"""The warm-up console's roster draws a name as wide as the terminal shows it: an emoji takes
two columns and a combining accent none, so "Zoë 🦊" beside "Zoë" are two different rows, and a
name cut short to its column is cut by its width on screen, never in the middle of a letter."""

from __future__ import annotations

import tempfile
import unicodedata
from pathlib import Path

import pytest
from rich.cells import cell_len

from companion.session.dilemma.seats import new_seat
from companion.session.session import Session
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.dilemma.words import cut
from tests.dilemma_helpers import scenario
from tests.tui.support import seen, shows_name

NAMES = ["Zoë 🦊", "Zoë", unicodedata.normalize("NFD", "Renée 🐙🐙"), "Ada"]


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@pytest.mark.parametrize("names", [NAMES[:2], NAMES])
async def test_an_emoji_in_a_name_is_drawn_whole(size: tuple[int, int], names: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        s = Session.create(Path(folder) / "w.sqlite", "dilemma", {"rules": scenario(rounds=3)})
        for name in names:
            s.submit({"do": "join", "pid": new_seat(s)[0], "name": name}, by="phone:join")
        app = DilemmaApp(s, seed=lambda: 7)
        async with app.run_test(size=size) as pilot:
            for _ in range(4):
                await pilot.pause(0.05)
            drawn = "\n".join(seen(app).split("\n")[: size[1]])  # the terminal alone
            for name in names:  # whole, or cut short with an ellipsis
                assert shows_name(drawn, name), (name, drawn)
            zoes = [line.split("│")[1] for line in drawn.split("\n") if "│ Zoë" in line]
            assert len(zoes) == 2 and zoes[0] != zoes[1], drawn
            assert any("Zoë 🦊" in line for line in zoes), drawn
        s.close()


def test_a_name_is_cut_by_its_width_on_screen() -> None:
    assert cut("Zoë 🦊🦊🦊", 6) == "Zoë …"
    assert cell_len(cut("🦊🦊🦊🦊🦊", 6)) <= 6
    assert cut(unicodedata.normalize("NFD", "Renée"), 5) == unicodedata.normalize("NFD", "Renée")
    assert cut("Ada", 3) == "Ada"
