"""A name that is an action in markup (``[@click=app.quit]Quitter[/]``) is letters in a notice:
nothing in it is clickable, and clicking it does not quit the console."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from companion.session.dilemma.seats import new_seat
from companion.session.session import Session
from companion.tui.dilemma.app import DilemmaApp
from tests.dilemma_helpers import scenario
from tests.web.forms import post_join

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


async def test_a_phone_joining_as_markup_through_the_phone_server(tmp_path: Path) -> None:
    """The phone page's join, through the real server in the console's loop: ``[/]`` joins,
    the console keeps running and its roster says ``[/]``."""
    import aiohttp

    from companion.web.dilemma.server import start_dilemma_server

    session = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario()})

    server = await start_dilemma_server(session, "127.0.0.1", 0)  # in the console's loop
    app = DilemmaApp(session, links=(server.join_url, server.board_url))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for _ in range(50):
            await pilot.pause(0.05)
            if app.join_url:
                break
        assert app.join_url
        async with aiohttp.ClientSession() as client:
            for name in ("[/]", "[/word]", QUITTER, "x" * 37 + "[/]"):
                answer = await post_join(client, app.join_url, {"name": name},
                                         allow_redirects=False)
                assert answer.status == 303, await answer.text()
        await pilot.pause(0.5)
        table = app.screen.query_one("#roster", DataTable)
        names = [str(cell) for key in table.rows for cell in table.get_row(key)]
        assert "[/]" in names and "[/word]" in names
        assert app.is_running
    await server.stop()
    session.close()
