"""The game master's acts on a prison break's stage, as the tests make them: each is the typed
act (companion/rules/prison/stage.py) recorded with ``Session.stage``, as the console and the
warden's phone record it, and the room is read from ``Session.room``, the one fold."""

from __future__ import annotations

import time
from typing import Any

from companion.rules.prison import room
from companion.rules.prison.stage import (
    CallIn,
    Extend,
    GoOn,
    LimitPlanning,
    Pause,
    Reveal,
    SendOut,
    Stage,
    Which,
)
from companion.session.session import Session
from companion.session.store import Row


def _now(now: float | None) -> float:
    return time.time() if now is None else now


def stage_view(stage: Stage, now: float | None = None) -> room.StageView:
    return room.stage_view(stage, _now(now))


def stage_of(session: Session) -> Stage:
    return session.room.stage


def held_reveal(session: Session) -> Reveal | None:
    return session.room.held


def room_state(session: Session) -> Any:
    return session.room.game


def call_in(session: Session, prisoner: str, seconds: float, *, now: float | None = None) -> Row:
    return session.stage(CallIn(_now(now), prisoner, seconds))


def send_out(session: Session, *, now: float | None = None) -> Row:
    return session.stage(SendOut(_now(now)))


def limit_planning(session: Session, seconds: float | None, *, now: float | None = None) -> Row:
    return session.stage(LimitPlanning(_now(now), seconds))


def pause(session: Session, which: Which, *, now: float | None = None) -> Row:
    return session.stage(Pause(_now(now), which))


def go_on(session: Session, which: Which, *, now: float | None = None) -> Row:
    return session.stage(GoOn(_now(now), which))


def extend(session: Session, which: Which, seconds: float, *, now: float | None = None) -> Row:
    return session.stage(Extend(_now(now), which, seconds))


def step_reveal(
    session: Session, *, to_end: bool = False, now: float | None = None
) -> Reveal | None:
    """Show the room the next step of the held reveal (``to_end``: all of it), as the console
    does; the reveal as the room now sees it, or ``None`` when none is held."""
    act = session.room.next_step(to_end=to_end, at=_now(now))
    if act is None:
        return None
    session.stage(act)
    return session.room.stage.reveal
