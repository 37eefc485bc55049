"""A name that is an action in markup (``[@click=app.quit]Quitter[/]``) is letters in a notice:
nothing in it is clickable, and clicking it does not quit the console."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from companion.session.dilemma_seats import new_seat
from companion.session.session import Session
from companion.tui.dilemma.app import DilemmaApp
from tests.dilemma_helpers import scenario

QUITTER = "[@click=app.quit]Quitter[/]"


async def test_a_name_in_a_notice_is_not_a_link(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario()})
    for name in ("Ada", QUITTER):
        session.submit({"do": "join", "pid": new_seat(session)[0], "name": name}, by="phone:join")
    app = DilemmaApp(session)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await pilot.pause(0.2)
        table = app.screen.query_one("#roster", DataTable)
        pid = next(p.pid for p in session.state.players if p.name == QUITTER)
        table.move_cursor(row=table.get_row_index(pid))
        await pilot.press("x", "y")
        await pilot.pause(0.2)
        toasts = [t for t in app.screen.query("Toast") if QUITTER in str(t.render())]
        assert len(toasts) == 1
        notice = toasts[0].render()
        assert f"{QUITTER} has left the tournament" in str(notice)
        assert not [s for s in getattr(notice, "spans", []) if "click" in repr(s.style)]
        for x in range(2, 30, 3):  # across the notice's words, the name among them
            await pilot.click(toasts[0], offset=(x, 1))
            await pilot.pause()
        assert app.is_running
        assert app.return_code is None
    session.close()
