"""Names are data on the So Long Sucker referee: a player named ``[/]`` (or any markup) is shown
as typed in the top line, the players panel, the log and the problems, and never stops it."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given

from companion.session.session import Session
from companion.tui.sucker.app import SuckerApp
from tests.tui.hostile import HOSTILE, SIZES, names
from tests.tui.support import shown_soon


@HOSTILE
@given(name=names(), size=SIZES)
async def test_a_hostile_player_on_the_referee_screen(name: str, size: tuple[int, int]) -> None:
    if name.casefold() in ("ann", "cat"):
        return
    setup = {
        "players": [
            {"name": name, "color": "red"},
            {"name": "Ann", "color": "blue"},
            {"name": "Cat", "color": "green"},
        ],
        "chips_per_player": 3,
        "first": name,
    }
    with tempfile.TemporaryDirectory() as folder:
        session = Session.create(Path(folder) / "table.sqlite", "so-long-sucker", setup)
        app = SuckerApp(session)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            await shown_soon(pilot, app, name)  # "NAME must play a chip.", the players
            await pilot.press("r", "space", "n", "enter")  # NAME plays red on a new pile
            await pilot.pause()
            assert session.state.awaiting.what != "play" or session.state.awaiting.player != name
            await shown_soon(pilot, app, name)  # the log's line, the panel
            await pilot.press("ctrl+z")
            await pilot.pause()
            await shown_soon(pilot, app, name)
            assert app.is_running
        session.close()
