"""More time for the open round from the warm-up console: ``+`` adds 30 s (noted in the log),
and a console reopened on a round whose time ran out while it was closed offers to give it
back the time it had left, before anything closes it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from companion.language import Language, available, language
from companion.rules.dilemma.room import StartTimer, TimerOff
from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.dilemma.app import DilemmaApp
from tests.dilemma_helpers import crashed_long_ago, scenario
from tests.tui.dilemma.test_console import footer_text, text
from tests.tui.dilemma.test_timer import shown
from tests.tui.terminal import notices

# Patient waits (the words come a moment after the keys, later on a busy machine); each
# returns as soon as the words are there.
TRIES = 400


async def wait_for(pilot: Any, app: DilemmaApp, phrase: str) -> None:
    """Until the terminal (or a widget's words) shows ``phrase``."""
    for _ in range(TRIES):
        await pilot.pause(0.02)
        if phrase in text(app):
            return
    raise AssertionError(f"never shown: {phrase}\n{text(app)}")


async def until_shown(pilot: Any, app: DilemmaApp, phrase: str) -> None:
    """Until the console's words or its notices show ``phrase``."""
    for _ in range(TRIES):
        await pilot.pause(0.02)
        if phrase in shown(app):
            return
    raise AssertionError(f"never shown: {phrase}\n{shown(app)}")


def _room(tmp_path: Path, **rules: object) -> Session:
    s = Session.create(tmp_path / "t.sqlite", "dilemma", {"rules": scenario(**rules)})
    for i, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    return s


async def footer_shows(pilot: Any, app: DilemmaApp, words: str) -> str:
    """The footer once it shows ``words`` (it is drawn a moment after the room, and recomposed
    a moment after the bindings change); as it is after a while if it never does."""
    for _ in range(TRIES):
        await pilot.pause(0.02)
        if words in footer_text(app):
            break
    return footer_text(app)


def _extensions(s: Session) -> list[dict[str, Any]]:
    return [row.body for row in s.notes("round_extended")]


async def test_plus_gives_the_open_round_thirty_more_seconds(tmp_path: Path) -> None:
    s = _room(tmp_path, round_seconds=60)
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await wait_for(pilot, app, "Rounds last 60 s")
        # no round open: not offered
        assert "30 s more" not in await footer_shows(pilot, app, "q Quit")
        await pilot.press("n")
        await wait_for(pilot, app, "left] Round 1 of 5")
        assert "+ 30 s more" in await footer_shows(pilot, app, "+ 30 s more")
        (start,) = [row.body for row in s.notes("round_timer")]
        await pilot.press("plus")
        await until_shown(pilot, app, "Round 1 has 30 s more:")
        (extended,) = _extensions(s)
        assert extended["round"] == 1 and extended["seconds"] == 30
        assert extended["deadline"] == start["deadline"] + 30 and extended["why"] == "more time"
        assert s.room.timer(1).deadline == extended["deadline"]  # type: ignore[union-attr]
        await wait_for(pilot, app, "[1:")  # the status counts down from about 1:30
    s.close()


async def test_plus_on_a_round_whose_timer_was_turned_off_counts_from_now(
    tmp_path: Path,
) -> None:
    s = _room(tmp_path)
    s.submit({"do": "start_round", "seed": 1})
    s.stage(StartTimer(1, 20, time.time() - 100))
    s.stage(TimerOff(1))  # its reveal was undone: the timer is off
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await wait_for(pilot, app, "Its timer is off")
        assert "+ 30 s more" in await footer_shows(pilot, app, "+ 30 s more")
        before = time.time()
        await pilot.press("plus")
        await until_shown(pilot, app, "Round 1 has 30 s more:")
        (extended,) = _extensions(s)
        assert before + 30 <= extended["deadline"] <= time.time() + 30
        await wait_for(pilot, app, "left] Round 1 of 5")
        assert s.state.phase == "choosing"
    s.close()


async def test_plus_without_a_timer_says_so_and_records_nothing(tmp_path: Path) -> None:
    s = _room(tmp_path)
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await wait_for(pilot, app, "Players are joining")
        await pilot.press("plus")
        await until_shown(pilot, app, "No round is open; n starts the next one.")
        await pilot.press("n")
        await wait_for(pilot, app, "Round 1 of 5: 0 of 4 have chosen")
        assert "30 s more" not in await footer_shows(pilot, app, "c Close round")
        await pilot.press("plus")
        await until_shown(pilot, app, "Round 1 has no timer (t sets one from the next round).")
        assert _extensions(s) == []
    s.close()


CASES = [pytest.param(code, id=code) for code in available()]


@pytest.mark.parametrize("code", CASES)
async def test_a_timed_rounds_footer_keeps_its_keys_at_80_columns(
    tmp_path: Path, code: str
) -> None:
    lang = language(code)
    s = _room(tmp_path)
    s.submit({"do": "start_round", "seed": 1})
    s.stage(StartTimer(1, 60, time.time() + 600))
    app = DilemmaApp(s, seed=lambda: 7, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        footer = await footer_shows(pilot, app, f"+ {lang('30 s more')}")
        for key, does in [("c", "Close round"), ("+", "30 s more"), ("u", "Undo"),
                          ("?", "Keys"), ("q", "Quit")]:
            said = f"{key} {lang(does)}"
            assert said in footer, f"{code}: {said!r} is not whole in {footer!r}"
        assert footer.rstrip().endswith(f"^p {lang('palette')}"), footer
    s.close()


# ---- the console reopened after a crash ----------------------------------------------------


async def _offered(pilot: Any, app: DilemmaApp) -> None:
    for _ in range(TRIES):
        await pilot.pause(0.02)
        if isinstance(app.screen, ConfirmScreen):
            return
    raise AssertionError(f"no offer on screen:\n{text(app)}")


async def test_a_reopened_console_gives_the_round_back_the_time_it_had_left(
    tmp_path: Path,
) -> None:
    s = Session.open(crashed_long_ago(_room(tmp_path), left_at_crash=15.4))
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _offered(pilot, app)
        shown = text(app)
        assert "Round 1's time ran out while the console was closed." in shown
        assert "had 15 s left" in shown and "y Give 15 s back" in shown
        assert "n Close it now" in shown
        await pilot.pause(1.5)  # the timer ticks each second: it closes nothing meanwhile
        assert s.state.phase == "choosing" and isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await until_shown(pilot, app, "Round 1 has 15 s again to choose (noted in the log).")
        (given,) = _extensions(s)
        assert given["seconds"] == 15 and given["why"] == "given back"
        assert 0 < given["deadline"] - time.time() <= 15
        await wait_for(pilot, app, "left] Round 1 of 5: 1 of 4 has chosen.")
        assert s.state.phase == "choosing"
    s.close()


async def test_a_reopened_console_closes_the_round_if_the_game_master_says_so(
    tmp_path: Path,
) -> None:
    s = Session.open(crashed_long_ago(_room(tmp_path), left_at_crash=15.4))
    app = DilemmaApp(s, seed=lambda: 7, lang=language("fr"))
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _offered(pilot, app)
        assert "Rendre 15 s" in text(app) and "La clore maintenant" in text(app)
        await pilot.press("n")
        await wait_for(pilot, app, "La manche 1 sur 5 est révélée")
    assert s.state.phase == "revealed" and s.state.current.timed_out  # type: ignore[union-attr]
    assert s.rows[-1].body["by"] == "timer" and _extensions(s) == []
    s.close()


async def test_nothing_is_offered_when_the_round_had_run_out_before_the_console_stopped(
    tmp_path: Path,
) -> None:
    """The log heard from the room after the deadline: there is nothing to give back, and the
    round closes at once, as before."""
    s = Session.open(crashed_long_ago(_room(tmp_path), left_at_crash=-2))
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, "is revealed")
    assert s.state.phase == "revealed" and _extensions(s) == []
    s.close()


async def test_the_offer_and_the_key_leave_no_english(tmp_path: Path, qps: Language) -> None:
    """Through the pseudo-locale: every word of the offer, its keys, the footer's + and the
    notices after it comes from the catalog."""
    from tests import pseudo_locale

    s = Session.open(crashed_long_ago(_room(tmp_path), left_at_crash=15.4))
    app = DilemmaApp(s, seed=lambda: 7, lang=qps)
    names = ["Ann", "Bob", "Cy", "Dee", s.name, "Esc", "esc"]
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _offered(pilot, app)
        offer = " ".join(str(w.render()) for w in app.screen.query(".dialog Static"))
        assert "[!!" in offer and pseudo_locale.leftovers(offer, names) == []
        await pilot.press("y")
        await until_shown(pilot, app, "15")
        await pilot.press("plus")
        footer = await footer_shows(pilot, app, "+ [!!")
        for _ in range(TRIES):
            await pilot.pause(0.02)
            if len(notices(app)) >= 2:
                break
        said = "\n".join(notices(app))
        assert "[!!" in said and pseudo_locale.leftovers(said, names) == [], said
        plus = footer[footer.index("+ [!!") :].split("]", 1)[0]
        assert pseudo_locale.leftovers(plus, names) == [], footer
    s.close()
