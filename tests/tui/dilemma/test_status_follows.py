"""The console's status line follows the phones: a choice recorded through the session (as the
phone server records it, the moment the phone reads "Saved") is on the status line after the
notification that change sends, not after the redraw throttle or the timer's tick."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from companion.rules.dilemma.commands import Choose
from companion.session.session import Session
from companion.tui.dilemma.app import DilemmaApp
from companion.web.common.context import submit_for_phone
from tests.dilemma_helpers import scenario
from tests.tui.dilemma.test_console import wait_for


def _status(app: DilemmaApp) -> str:
    return " ".join(str(app.screen.query_one("#status", Static).render()).split())


async def test_a_phone_s_choice_is_on_the_status_line_on_its_notification(
    tmp_path: Path,
) -> None:
    s = Session.create(tmp_path / "t.sqlite", "dilemma", {"rules": scenario()})
    for i, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    app = DilemmaApp(s, seed=lambda: 7)
    # The throttle would draw the room again only a minute after the last drawing: what shows
    # sooner is drawn on the notification itself.
    app.redrawing.seconds = 60.0
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, app, "Players are joining")
        await pilot.press("n")
        await wait_for(pilot, app, "0 of 4 have chosen")
        assert "Ann" in _status(app) and "Bob" in _status(app)
        submit_for_phone(s, Choose(pid="p0", choice="silent"), "phone")
        await pilot.pause()
        status = _status(app)
        assert "1 of 4 has chosen" in status, status
        assert "Ann" not in status and "Bob" in status, status
        for pid in ("p1", "p2"):
            submit_for_phone(s, Choose(pid=pid, choice="betray"), "phone")
        await pilot.pause()
        status = _status(app)
        assert "3 of 4 have chosen" in status and "Waiting for Dee." in status, status
    s.close()
