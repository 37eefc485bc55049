"""The rounds' timer lives on the night's server: a round closes at zero with no console open,
and a round whose time ran out while the server was not running is held, offered back on the
game master's phone (and every console), never closed behind the game master's back."""

from __future__ import annotations

import time
from pathlib import Path

from companion.rules.dilemma.room import HoldTimer, StartTimer
from companion.session.night import phone_secret
from companion.session.session import Session
from tests.dilemma_helpers import crashed_long_ago, scenario
from tests.game_master_helpers import Page
from tests.night_helpers import serving
from tests.web.dilemma.test_game_master import sees, until


def _room(tmp_path: Path, **rules: object) -> Session:
    s = Session.create(tmp_path / "timed.sqlite", "dilemma", {"rules": scenario(**rules)})
    for i, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    return s


def _last_by(s: Session) -> object:
    """Who made the log's last command."""
    return next(r.body["by"] for r in reversed(s.rows) if r.kind == "command")


def _notes(path: Path, what: str) -> list[dict[str, object]]:
    s = Session.open(path)
    try:
        return [r.body for r in s.rows if r.kind == "note" and r.body.get("what") == what]
    finally:
        s.close()


def test_the_server_closes_the_round_at_zero_with_no_console_open(tmp_path: Path) -> None:
    s = _room(tmp_path)
    s.submit({"do": "start_round", "seed": 1})
    s.stage(StartTimer(1, 2, time.time() + 1.5))
    s.submit({"do": "choose", "pid": "p0", "choice": "silent"}, by="phone")
    path = s.store.path
    s.close()
    with serving(path) as night:
        server = night.session
        assert server is not None
        assert server.state.phase == "choosing"  # nothing to hold: its time has not run out
        until(lambda: server.state.phase == "revealed", seconds=10)
        (r,) = server.state.rounds
        assert r.timed_out  # closed by its time, whoever had not chosen gave no answer
        assert _last_by(server) == "timer"
        console = night.attach()  # a console opened afterwards finds it revealed
        try:
            assert console.state.phase == "revealed"
        finally:
            console.close()
    assert _notes(path, "round_held") == []


def test_an_attached_console_sees_the_close_it_did_not_make(tmp_path: Path) -> None:
    s = _room(tmp_path)
    path = s.store.path
    s.close()
    with serving(path) as night:
        console = night.attach()
        try:
            console.submit({"do": "start_round", "seed": 1})
            console.stage(StartTimer(1, 1, time.time() + 0.8))
            sees(console, lambda: console.state.phase == "revealed")
            assert _last_by(console) == "timer"
        finally:
            console.close()


def test_time_that_ran_out_while_the_server_was_down_is_offered_back(tmp_path: Path) -> None:
    path = crashed_long_ago(_room(tmp_path), left_at_crash=15.4)
    with serving(path) as night:
        server = night.session
        assert server is not None
        hold = server.room.held(1)
        assert hold is not None and (hold.round, hold.seconds, hold.by) == (1, 15, "server")
        time.sleep(0.6)  # the timer looks several times: a held round stays open
        assert server.state.phase == "choosing"
        page = Page(night, phone_secret(path))
        html = page.look()
        assert "Round 1&#39;s time ran out while the night&#39;s server was not running." in html
        assert "when round 1 had 15 s left" in html and "Give 15 s back" in html
        assert page.does("give_back", "1") == (
            "Round 1 has 15 s again to choose (noted in the log)."
        )
        assert server.room.held(1) is None
        timer = server.room.timer(1)
        assert timer is not None and 13 < timer.left(time.time()) <= 15
        assert "Give 15 s back" not in page.look()
        assert page.refused("give_back", "1") == (
            "That offer has been answered already (from the console, or this page)."
        )
    (given,) = _notes(path, "round_extended")
    assert given["seconds"] == 15 and given["why"] == "given back"


def test_the_game_master_may_close_the_held_round_instead(tmp_path: Path) -> None:
    path = crashed_long_ago(_room(tmp_path), left_at_crash=15.4)
    with serving(path) as night:
        server = night.session
        assert server is not None
        page = Page(night, phone_secret(path), lang="fr")
        assert "Rendre 15 s" in page.look()
        assert page.does("close_held", "1") == "Le temps est écoulé\u00a0: la manche 1 est révélée."
        assert server.state.phase == "revealed" and server.state.rounds[0].timed_out


def test_a_held_round_stays_held_when_the_server_starts_again(tmp_path: Path) -> None:
    path = crashed_long_ago(_room(tmp_path), left_at_crash=15.4)
    with serving(path):
        pass
    with serving(path) as night:
        server = night.session
        assert server is not None
        time.sleep(0.6)
        assert server.state.phase == "choosing"
        assert server.room.held(1) == HoldTimer(1, 15, server.room.held(1).heard, "server")  # type: ignore[union-attr]
    assert len(_notes(path, "round_held")) == 1


def test_a_round_whose_time_ran_out_before_the_last_row_closes_at_once(tmp_path: Path) -> None:
    """The log heard from the room after the deadline (the server stopped as it closed it):
    nothing to give back, and the server closes it as it starts."""
    path = crashed_long_ago(_room(tmp_path), left_at_crash=-2)
    with serving(path) as night:
        server = night.session
        assert server is not None
        until(lambda: server.state.phase == "revealed")
    assert _notes(path, "round_held") == []


# ---- the console attached ------------------------------------------------------------------


async def test_the_console_offers_the_held_time_and_the_phone_answer_ends_its_offer(
    tmp_path: Path,
) -> None:
    from companion.tui.common.dialogs import ConfirmScreen
    from companion.tui.dilemma.app import DilemmaApp
    from tests.night_helpers import until as settled
    from tests.tui.dilemma.test_console import text, wait_for

    path = crashed_long_ago(_room(tmp_path), left_at_crash=15.4)
    with serving(path) as night:
        attached = night.attach()
        app = DilemmaApp(attached, seed=lambda: 7)  # type: ignore[arg-type]
        async with app.run_test(size=(120, 36)) as pilot:
            await settled(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
            await wait_for(pilot, app, "Give 15 s back")
            shown = text(app)
            assert "Round 1's time ran out while the night's server was not running." in shown
            assert "y Give 15 s back" in shown and "n Close it now" in shown
            page = Page(night, phone_secret(path))
            assert page.does("give_back", "1").startswith("Round 1 has 15 s again")
            await settled(lambda: not isinstance(app.screen, ConfirmScreen), pilot=pilot)
            assert attached.room.held(1) is None and attached.state.phase == "choosing"
            assert len(_notes(path, "round_extended")) == 1  # given back once, by the phone
            await app.action_quit()
        attached.close()


async def test_an_attached_console_answers_the_offer_itself(tmp_path: Path) -> None:
    from companion.tui.common.dialogs import ConfirmScreen
    from companion.tui.dilemma.app import DilemmaApp
    from tests.night_helpers import until as settled

    path = crashed_long_ago(_room(tmp_path), left_at_crash=15.4)
    with serving(path) as night:
        attached = night.attach()
        app = DilemmaApp(attached, seed=lambda: 7)  # type: ignore[arg-type]
        async with app.run_test(size=(120, 36)) as pilot:
            await settled(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
            await pilot.press("n")  # close it now
            await settled(lambda: attached.state.phase == "revealed", pilot=pilot)
            assert attached.state.rounds[0].timed_out
            assert not isinstance(app.screen, ConfirmScreen)
            await app.action_quit()
        attached.close()
