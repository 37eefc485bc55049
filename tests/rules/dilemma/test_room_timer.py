"""The warm-up room's timers: more time for the open round (the console's +, and the time given
back after a crash), what the log last heard, and what an undo does to a round's timer."""

from __future__ import annotations

from pathlib import Path

from companion.rules.core.room import Noted
from companion.rules.dilemma.engine import initial_state
from companion.rules.dilemma.room import (
    ROOM,
    ExtendTimer,
    RoundTimer,
    StartTimer,
    TimerOff,
    more_time,
    time_to_give_back,
)
from companion.session.session import Session
from tests.dilemma_helpers import scenario


def _noted(act: StartTimer | TimerOff | ExtendTimer, at: float) -> Noted:
    return Noted(act.what, act.body(), at)


def test_an_extension_moves_the_rounds_deadline_and_adds_to_its_length() -> None:
    state = initial_state({"rules": scenario(round_seconds=60)})
    room = ROOM.start(state)
    room = ROOM.after(room, _noted(StartTimer(1, 60, 1060.0), 1000.0), state)
    room = ROOM.after(room, _noted(ExtendTimer(1, 30, 1090.0), 1010.0), state)
    assert room.timer(1) == RoundTimer(1, 90, 1090.0)
    assert room.last_row_at == 1010.0
    assert room.timer(1).left(1080.0) == 10.0  # type: ignore[union-attr]


def test_more_time_counts_from_the_deadline_or_from_now_when_it_has_passed() -> None:
    timer = RoundTimer(2, 60, 1060.0)
    assert more_time(2, timer, 30, 1040.0) == ExtendTimer(2, 30, 1090.0)  # 20 s left: 50 s
    assert more_time(2, timer, 30, 1100.0) == ExtendTimer(2, 30, 1130.0)  # ran out: now + 30
    assert more_time(2, None, 30, 1100.0) == ExtendTimer(2, 30, 1130.0)  # its timer was off


def test_an_extension_gives_a_timer_turned_off_a_deadline_again() -> None:
    state = initial_state({"rules": scenario()})
    room = ROOM.start(state)
    room = ROOM.after(room, _noted(StartTimer(1, 20, 1020.0), 1000.0), state)
    room = ROOM.after(room, _noted(TimerOff(1), 1030.0), state)
    assert room.timer_off(1)
    room = ROOM.after(room, _noted(more_time(1, room.timer(1), 30, 1040.0), 1040.0), state)
    assert room.timer(1) == RoundTimer(1, 30, 1070.0) and not room.timer_off(1)


def test_the_time_given_back_is_what_was_left_when_the_log_last_heard() -> None:
    state = initial_state({"rules": scenario()})
    room = ROOM.start(state)
    room = ROOM.after(room, _noted(StartTimer(1, 60, 1060.0), 1000.0), state)
    room = ROOM.after(room, Noted("peek", {"round": 1}, 1035.5), state)  # the last row
    room = ROOM.after(room, Noted("language", {"before": "en", "after": "de"}, 1500.0), state)
    assert room.last_row_at == 1035.5  # the command line's language note is not the room's
    timer = room.timer(1)
    assert time_to_give_back(room, timer, 2000.0) == 24  # 24.5 s left, rounded down
    assert time_to_give_back(room, timer, 1050.0) == 0  # its time has not run out yet
    assert time_to_give_back(room, None, 2000.0) == 0  # no timer
    late = ROOM.after(room, Noted("peek", {"round": 1}, 1061.0), state)  # seen after zero
    assert time_to_give_back(late, timer, 2000.0) == 0


def test_undoing_a_rounds_start_forgets_its_timer_and_the_log_keeps_the_notes(
    tmp_path: Path,
) -> None:
    s = Session.create(tmp_path / "t.sqlite", "dilemma", {"rules": scenario()})
    for i, name in enumerate(["Ann", "Bob"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    s.submit({"do": "start_round", "seed": 1})
    s.stage(StartTimer(1, 60, 5000.0))
    s.stage(ExtendTimer(1, 30, 5030.0))
    assert s.room.timer(1) == RoundTimer(1, 90, 5030.0)
    s.undo()
    assert s.state.open_round() is None and s.room.timer(1) is None
    assert not s.room.timer_off(1)  # forgotten, not turned off: round 1 drawn again gets its own
    s.submit({"do": "start_round", "seed": 2})
    assert s.room.timer(1) is None  # no timer this time: nothing closes it
    assert [row.body["what"] for row in s.notes("round_extended")] == ["round_extended"]
    path = s.store.path
    room = s.room
    s.close()
    reopened = Session.open(path)
    try:
        assert reopened.room == room
    finally:
        reopened.close()


def test_a_round_held_is_not_due_until_its_time_is_given_back() -> None:
    """Whatever counts the rounds down holds the open round whose time ran out while nothing
    counted (it had time left when the log last heard); a held round is never due; giving the
    time back (or more time) ends the hold, and the round is due again at its new zero."""
    from companion.rules.dilemma.room import HoldTimer, due, to_hold
    from tests.dilemma_helpers import ok, tournament

    h = tournament(["Ann", "Bob"])
    ok(h, {"do": "start_round", "seed": 1})
    state = h.state
    room = ROOM.start(state)
    room = ROOM.after(room, _noted(StartTimer(1, 60, 1060.0), 1000.0), state)
    room = ROOM.after(room, Noted("peek", {"round": 1}, 1040.0), state)  # 20 s left
    assert due(state, room, 1050.0) is None  # its time has not run out
    assert to_hold(state, room, 1050.0, "server") is None
    assert due(state, room, 1060.0) == 1  # ran out while counted: closed now
    hold = to_hold(state, room, 2000.0, "server")  # ran out while nothing counted
    assert hold == HoldTimer(1, 20, 1040.0, "server")
    room = ROOM.after(room, Noted(hold.what, hold.body(), 2000.0), state)
    assert room.held(1) == hold and due(state, room, 2000.0) is None
    assert to_hold(state, room, 2001.0, "server") is None  # held once, not again
    given = ExtendTimer(1, 20, 2020.0, "given back")
    room = ROOM.after(room, _noted(given, 2000.5), state)
    assert room.held(1) is None
    assert due(state, room, 2010.0) is None and due(state, room, 2020.0) == 1
