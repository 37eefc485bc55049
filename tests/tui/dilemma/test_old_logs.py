"""A warm-up logged by an earlier version, which took any name: it opens, and each name shows
as it was typed, markup as letters and controls as visible escapes (never raw)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from textual.widgets import DataTable

from companion.session.dilemma.seats import new_seat
from companion.session.session import Session
from companion.tui.dilemma.app import DilemmaApp
from tests.dilemma_helpers import scenario
from tests.tui.support import seen

OLD_NAMES = {"Old1": "[/]", "Old2": "Eve\u202eevil\x1b[31m"}  # what an earlier version took


def old_log(path: Path) -> None:
    """A tournament whose players joined under names the rules now refuse: joined under
    stand-ins, then the log's rows written with the old names, as the old version wrote them."""
    s = Session.create(path, "dilemma", {"rules": scenario(rounds=2)})
    for name in ("Ada", *OLD_NAMES):
        s.submit({"do": "join", "pid": new_seat(s)[0], "name": name}, by="phone:join")
    s.close()
    with sqlite3.connect(path) as db:
        for stand_in, old in OLD_NAMES.items():
            db.execute(
                "UPDATE log SET body = replace(body, ?, ?)", (stand_in, json.dumps(old)[1:-1])
            )


async def test_an_old_log_with_markup_and_controls_in_names_opens(tmp_path: Path) -> None:
    path = tmp_path / "warm.sqlite"
    old_log(path)
    session = Session.open(path)
    assert {p.name for p in session.state.players} == {"Ada", *OLD_NAMES.values()}
    app = DilemmaApp(session)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await pilot.pause(0.2)
        text = seen(app)
        assert "[/]" in text
        assert "Eve\\u202eevil" in text  # the controls shown, not sent (the column cuts it)
        assert "\x1b" not in text and "\u202e" not in text
        table = app.screen.query_one("#roster", DataTable)
        pid = next(p.pid for p in session.state.players if p.name == OLD_NAMES["Old2"])
        table.move_cursor(row=table.get_row_index(pid))
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause(0.2)
        text = seen(app)
        assert "Eve\\u202eevil\\x1b[31m has left the tournament" in text  # the notice
        assert "\x1b" not in text and "\u202e" not in text
        assert app.is_running
    session.close()
