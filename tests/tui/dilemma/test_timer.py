"""The console's round timer and house player: the deadline is in the log, the round closes at
zero (also after a resume), and the game master picks the house's strategy."""

from __future__ import annotations

import time
from pathlib import Path

from companion.session.session import Session
from companion.tui.common.dialogs import PickScreen, TextScreen
from companion.tui.dilemma.app import DilemmaApp
from tests.dilemma_helpers import scenario
from tests.tui.dilemma.test_console import text, wait_for


def _room(tmp_path: Path, **rules: object) -> Session:
    s = Session.create(tmp_path / "t.sqlite", "dilemma", {"rules": scenario(**rules)})
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    return s


async def test_a_round_with_a_timer_counts_down_and_closes_at_zero(tmp_path: Path) -> None:
    s = _room(tmp_path, round_seconds=60)
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, app, "Rounds last 60 s")
        await pilot.press("n")
        await wait_for(pilot, app, "left] Round 1 of 5")
        (note,) = [row.body for row in s.notes("round_timer")]
        assert note["round"] == 1 and note["seconds"] == 60
        assert 55 < note["deadline"] - time.time() <= 60
        assert s.state.phase == "choosing"
        s.note("round_timer", round=1, seconds=60, deadline=time.time() - 1)  # time runs out
        await wait_for(pilot, app, "Round 1 of 5 is revealed")
        await wait_for(pilot, app, "Round 1 (time ran out):")
        assert s.rows[-1].body["by"] == "timer"
        (o, *_) = [o for o in s.state.current.outcomes if "~house1" not in (o.a, o.b)]
        assert not o.answered_a and not o.answered_b  # no answer, said as such
    s.close()


async def test_a_resumed_console_closes_a_round_whose_time_ran_out(tmp_path: Path) -> None:
    s = _room(tmp_path)
    s.submit({"do": "start_round", "seed": 1})
    s.note("round_timer", round=1, seconds=30, deadline=time.time() - 5)  # the laptop was off
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, "is revealed")
    assert s.state.phase == "revealed"
    s.close()


async def test_the_game_master_sets_the_timer_and_the_house(tmp_path: Path) -> None:
    s = _room(tmp_path)
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, app, "Players are joining")
        await pilot.press("t")
        for _ in range(100):  # the dialog opens from a worker: wait for it, on a busy machine too
            await pilot.pause(0.02)
            if isinstance(app.screen, TextScreen):
                break
        assert isinstance(app.screen, TextScreen)
        await pilot.press("5", "enter")  # too short: said, nothing changes
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and not s.notes("round_seconds")
        await pilot.press("0", "enter")
        await wait_for(pilot, app, "Rounds last 50 s")
        await pilot.press("o")
        for _ in range(100):
            await pilot.pause(0.02)
            if isinstance(app.screen, PickScreen):
                break
        assert isinstance(app.screen, PickScreen)
        await pilot.press("down", "enter")  # Always Betray
        for _ in range(100):
            await pilot.pause(0.02)
            if s.state.house == "always_betray":
                break
        assert s.state.house == "always_betray"
        await pilot.press("n")
        await wait_for(pilot, app, "left] Round 1")
        assert "House" in text(app)
    s.close()


async def test_a_redraw_that_comes_due_as_the_console_closes_is_dropped(tmp_path: Path) -> None:
    """A phone's change sets a redraw timer; if it comes due while the console is closing (its
    widgets already gone), it draws nothing instead of failing. While the console runs, a
    missing widget is still an error."""
    import pytest
    from textual.css.query import NoMatches

    s = _room(tmp_path)
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, app, "Players are joining")
        await app.room.query_one("#room").remove()
        with pytest.raises(NoMatches):
            app.room.redraw()
        app.exit()
        app.room.redraw()  # closing: dropped
    s.close()


def shown(app: DilemmaApp) -> str:
    """What the console shows in its words and its notices, through Textual's public API."""
    from textual.widgets import Static

    said = [str(w.render()) for w in app.screen.query(Static) if w.display]
    said += [str(toast.render()) for toast in app.screen.query("Toast")]  # the notices
    return " ".join(" ".join(said).split())


async def until_shown(pilot: object, app: DilemmaApp, phrase: str) -> None:
    for _ in range(150):
        await pilot.pause(0.02)  # type: ignore[attr-defined]
        if phrase in shown(app):
            return
    raise AssertionError(f"never shown: {phrase}\n{shown(app)}")


async def test_undoing_a_timed_out_reveal_opens_the_round_with_its_timer_off(
    tmp_path: Path,
) -> None:
    """The round's deadline has passed: once its reveal is undone the timer must not close it
    again by itself; the console says the timer is off and the game master closes it."""
    from tests.dilemma_helpers import scenario as rules

    s = Session.create(tmp_path / "t.sqlite", "dilemma", {"rules": rules(round_seconds=10)})
    for i, name in enumerate(["Ann", "Bob"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await until_shown(pilot, app, "Rounds last 10 s")
        await pilot.press("n")
        await until_shown(pilot, app, "left] Round 1 of 5")
        s.note("round_timer", round=1, seconds=10, deadline=time.time() - 1)  # time runs out
        await until_shown(pilot, app, "Round 1 (time ran out):")
        await pilot.press("u")
        await until_shown(pilot, app, "Undo round 1's reveal?")
        await pilot.press("y")
        await until_shown(pilot, app, "Round 1 is open again; its timer is off")
        await until_shown(pilot, app, "Round 1 of 5: 0 of 2 have chosen. Its timer is off")
        await pilot.pause(2.5)  # the timer ticks each second: it would have closed it by now
        assert "Round 1 of 5: 0 of 2 have chosen." in shown(app)
        assert "Round 1 of 5 is revealed" not in shown(app) and "left]" not in shown(app)
        assert "No round revealed yet." in shown(app)
        assert s.state.phase == "choosing"
        await pilot.press("c", "y")  # the game master decides
        await until_shown(pilot, app, "Round 1 of 5 is revealed")
        assert not s.state.current.timed_out  # type: ignore[union-attr]
    s.close()


async def test_the_last_round_keeps_the_house_that_played_it(tmp_path: Path) -> None:
    """After the house player is changed between rounds, the console's last round still names
    the strategy that played it; the notice names the new one, for the next round."""
    s = _room(tmp_path)
    s.submit({"do": "start_round", "seed": 1})
    s.submit({"do": "close_round"})
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await until_shown(pilot, app, "Round 1 of 5 is revealed")

        def last() -> str:  # the side panel's last round
            from textual.widgets import Static

            return str(app.screen.query_one("#last", Static).render())

        assert "House (Tit" in last()
        await pilot.press("o")
        await until_shown(pilot, app, "The house player")
        await pilot.press("down", "enter")  # Always Betray
        await until_shown(pilot, app, "The house player is now House (Always Betray).")
        assert s.state.house == "always_betray"
        assert "House (Tit" in last() and "House (Always" not in last()
    s.close()
