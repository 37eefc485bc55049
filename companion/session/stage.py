"""The stage: what the room is being shown of a prison break now, beside the rules.

The rules say what happened; the stage says how far the room has been shown it, and what the
room is waiting on: who is in with the warden and until when, the planning time limit, and
how far the game master has stepped through a search's reveal. It is session state, recorded
in the log as ``stage`` notes (never inside the rules core) and read back by folding those
notes together with the game's own rows, so it is the same on the console, the warden's phone
and the board, and comes back as it was after ``resume``.

- An interview starts when the game master calls a prisoner in (``call_in``) and ends when
  that prisoner's interview is recorded (deal or not, from the console or the warden's phone),
  when it is cancelled (``send_out``), or when the search starts.
- A search is *held*: the room's views (:func:`room_state`) show the game as it was before it
  until the game master steps through its reveal (:func:`step_reveal`): the warden searches X's
  cell… → CAUGHT or SAFE → who worked and the nights → the end of the game, if it ended.
- Clocks (the interview's, planning's) keep an absolute deadline, or the seconds left while
  paused, so every face counts down to the same moment.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal, TypedDict
from weakref import WeakKeyDictionary

from companion.session.session import Session
from companion.session.store import Row

STAGE = "stage"  # the notes' "what"
Which = Literal["interview", "planning"]
Step = Literal["search", "result", "night", "outcome"]


@dataclass(frozen=True)
class Clock:
    """A countdown: running towards ``deadline`` (epoch seconds), or paused with ``left``."""

    seconds: float  # its whole length, extensions included
    deadline: float | None
    left: float | None = None

    @property
    def paused(self) -> bool:
        return self.deadline is None

    def remaining(self, now: float) -> float:
        if self.deadline is None:
            return max(0.0, self.left or 0.0)
        return max(0.0, self.deadline - now)

    def pause(self, now: float) -> Clock:
        if self.deadline is None:
            return self
        return Clock(self.seconds, None, self.remaining(now))

    def go_on(self, now: float) -> Clock:
        if self.deadline is not None:
            return self
        return Clock(self.seconds, now + (self.left or 0.0))

    def extend(self, seconds: float, now: float) -> Clock:
        left = self.remaining(now) + seconds  # a clock at zero starts again from zero
        if self.deadline is None:
            return Clock(self.seconds + seconds, None, left)
        return Clock(self.seconds + seconds, now + left)


@dataclass(frozen=True)
class InterviewNow:
    """The prisoner in with the warden now."""

    prisoner: str
    since: float
    clock: Clock


@dataclass(frozen=True)
class Reveal:
    """One search's reveal: what it found, and how many of its steps the room has seen."""

    hseq: int  # the search's entry in the game's history
    prisoner: str
    caught: bool
    workers: tuple[str, ...] | None  # when this was the day's last search
    outcome: str | None
    winners: tuple[str, ...]
    steps: tuple[Step, ...]
    shown: int = 0

    @property
    def held(self) -> bool:
        """Whether the room has not yet been shown all of it."""
        return self.shown < len(self.steps)

    @property
    def step(self) -> Step | None:
        """The last step the room has seen (``None``: none yet)."""
        return self.steps[self.shown - 1] if self.shown else None


@dataclass(frozen=True)
class Stage:
    interview: InterviewNow | None = None
    planning: Clock | None = None
    reveal: Reveal | None = None  # today's latest search (held, or shown)
    seen: frozenset[int] = frozenset()  # searches (history entries) the room has been shown
    day_ended: float | None = None  # when the game master last ended a day

    def clock(self, which: Which) -> Clock | None:
        if which == "interview":
            return self.interview.clock if self.interview else None
        return self.planning

    def running(self) -> Which | None:
        """The clock the room is watching: the interview's, else planning's."""
        if self.interview is not None:
            return "interview"
        return "planning" if self.planning is not None else None


# ---- reading: the fold ---------------------------------------------------------------------


def _reveal_of(body: Mapping[str, Any]) -> Reveal:
    events = body["events"]
    searched = next(e for e in events if e["kind"] == "searched")
    night = next((e for e in events if e["kind"] == "night_revealed"), None)
    ended = next((e for e in events if e["kind"] == "game_ended"), None)
    steps: list[Step] = ["search", "result"]
    if night is not None:
        steps.append("night")
    if ended is not None:
        steps.append("outcome")
    return Reveal(
        hseq=int(body["hseq"]),
        prisoner=str(searched["prisoner"]),
        caught=bool(searched["caught"]),
        workers=tuple(night["workers"]) if night is not None else None,
        outcome=str(ended["outcome"]) if ended is not None else None,
        winners=tuple(ended["winners"]) if ended is not None else (),
        steps=tuple(steps),
    )


def _with_clock(stage: Stage, which: Which, clock: Clock) -> Stage:
    if which == "interview" and stage.interview is not None:
        return replace(stage, interview=replace(stage.interview, clock=clock))
    if which == "planning" and stage.planning is not None:
        return replace(stage, planning=clock)
    return stage


def _note(stage: Stage, body: Mapping[str, Any]) -> Stage:
    act, at = body.get("act"), float(body.get("at", 0.0))
    which: Which = "planning" if body.get("which") == "planning" else "interview"
    clock = stage.clock(which)
    if act == "call_in":
        seconds = float(body["seconds"])
        return replace(
            stage, interview=InterviewNow(str(body["prisoner"]), at, Clock(seconds, at + seconds))
        )
    if act == "send_out":
        return replace(stage, interview=None)
    if act == "planning_limit":
        limit = body.get("seconds")
        planning = None if limit is None else Clock(float(limit), at + float(limit))
        return replace(stage, planning=planning)
    if act in ("pause", "go_on", "extend") and clock is not None:
        if act == "pause":
            return _with_clock(stage, which, clock.pause(at))
        if act == "go_on":
            return _with_clock(stage, which, clock.go_on(at))
        return _with_clock(stage, which, clock.extend(float(body["seconds"]), at))
    if act == "reveal" and stage.reveal is not None and stage.reveal.hseq == body.get("hseq"):
        shown = max(stage.reveal.shown, min(int(body["shown"]), len(stage.reveal.steps)))
        return replace(
            stage, reveal=replace(stage.reveal, shown=shown), seen=stage.seen | {stage.reveal.hseq}
        )
    return stage


def _command(stage: Stage, body: Mapping[str, Any]) -> Stage:
    command = body["command"]
    do = command.get("do")
    if do == "close_planning":
        return replace(stage, planning=None)
    if do == "interview":
        if stage.interview is not None and stage.interview.prisoner == command.get("prisoner"):
            return replace(stage, interview=None)
        return stage
    if do == "search":
        return replace(stage, interview=None, planning=None, reveal=_reveal_of(body))
    if do == "end_day":
        return Stage(seen=stage.seen, day_ended=None)
    return stage


def fold(rows: Iterable[Row]) -> Stage:
    """The stage after ``rows`` (a session's log, in order)."""
    stage = Stage()
    commands: dict[int, Mapping[str, Any]] = {}
    for row in rows:
        body = row.body
        if row.kind == "command":
            commands[int(body["hseq"])] = body
            stage = _command(stage, body)
            if body["command"].get("do") == "end_day":
                stage = replace(stage, day_ended=_epoch(row.at))
        elif row.kind == "undo":
            reverts = int(body["reverts"])
            if stage.reveal is not None and stage.reveal.hseq == reverts:
                stage = replace(stage, reveal=None, seen=stage.seen - {reverts})
        elif row.kind == "note" and body.get("what") == STAGE:
            stage = _note(stage, body)
    return stage


def _epoch(at: str) -> float:
    try:
        return datetime.fromisoformat(at).timestamp()
    except ValueError:
        return 0.0


_CACHE: WeakKeyDictionary[Session, tuple[int, Stage]] = WeakKeyDictionary()


def stage_of(session: Session) -> Stage:
    """The session's stage now (folded again only when the log grew)."""
    count = len(session.rows)
    cached = _CACHE.get(session)
    if cached is not None and cached[0] == count:
        return cached[1]
    stage = fold(session.rows)
    _CACHE[session] = (count, stage)
    return stage


def held_reveal(session: Session) -> Reveal | None:
    """The search whose reveal the room has not seen in full, if any."""
    reveal = stage_of(session).reveal
    return reveal if reveal is not None and reveal.held else None


def room_state(session: Session) -> Any:
    """The game as the room may see it: while a search's reveal is held, as it was just
    before that search (the reveal's steps tell the rest, one by one)."""
    reveal = held_reveal(session)
    if reveal is None:
        return session.state
    before = session.history.state_before(reveal.hseq)
    return session.state if before is None else before


# ---- changing: each is a note in the log, committed before it is shown ----------------------


def _record(session: Session, act: str, now: float | None, **data: Any) -> Row:
    return session.note(STAGE, act=act, at=time.time() if now is None else now, **data)


def call_in(session: Session, prisoner: str, seconds: float, *, now: float | None = None) -> Row:
    """``prisoner`` goes in to the warden for ``seconds``."""
    return _record(session, "call_in", now, prisoner=prisoner, seconds=seconds)


def send_out(session: Session, *, now: float | None = None) -> Row:
    """The interview in progress is called off (nothing is recorded in the game)."""
    return _record(session, "send_out", now)


def limit_planning(session: Session, seconds: float | None, *, now: float | None = None) -> Row:
    """Planning ends in ``seconds`` (``None``: no limit)."""
    return _record(session, "planning_limit", now, seconds=seconds)


def pause(session: Session, which: Which, *, now: float | None = None) -> Row:
    return _record(session, "pause", now, which=which)


def go_on(session: Session, which: Which, *, now: float | None = None) -> Row:
    return _record(session, "go_on", now, which=which)


def extend(session: Session, which: Which, seconds: float, *, now: float | None = None) -> Row:
    return _record(session, "extend", now, which=which, seconds=seconds)


def step_reveal(
    session: Session, *, to_end: bool = False, now: float | None = None
) -> Reveal | None:
    """Show the room the next step of the held reveal (``to_end``: all of it); the reveal as
    the room now sees it, or ``None`` when none is held."""
    reveal = held_reveal(session)
    if reveal is None:
        return None
    shown = len(reveal.steps) if to_end else reveal.shown + 1
    _record(session, "reveal", now, hseq=reveal.hseq, shown=shown)
    return stage_of(session).reveal


# ---- the room's view of the stage -----------------------------------------------------------


class ClockView(TypedDict):
    seconds: float  # its whole length
    left: float  # seconds left when this view was made
    paused: bool


class InterviewView(TypedDict):
    prisoner: str
    clock: ClockView


class RevealView(TypedDict):
    """What the room has been shown of a search: each field only once its step is shown."""

    prisoner: str
    shown: list[Step]
    held: bool
    caught: bool | None
    workers: list[str] | None
    nights_added: int | None
    outcome: str | None
    winners: list[str]


class StageView(TypedDict):
    interview: InterviewView | None
    planning: ClockView | None
    reveal: RevealView | None


def clock_view(clock: Clock, now: float) -> ClockView:
    return {
        "seconds": round(clock.seconds, 1),
        "left": round(clock.remaining(now), 1),
        "paused": clock.paused,
    }


def reveal_view(reveal: Reveal) -> RevealView:
    shown = list(reveal.steps[: reveal.shown])
    night = "night" in shown and reveal.workers is not None
    return {
        "prisoner": reveal.prisoner,
        "shown": shown,
        "held": reveal.held,
        "caught": reveal.caught if "result" in shown else None,
        "workers": list(reveal.workers or ()) if night else None,
        "nights_added": len(reveal.workers or ()) if night else None,
        "outcome": reveal.outcome if "outcome" in shown else None,
        "winners": list(reveal.winners) if "outcome" in shown else [],
    }


def stage_view(stage: Stage, now: float | None = None) -> StageView:
    """The stage as anyone in the room may see it (the board, every phone)."""
    now = time.time() if now is None else now
    interview = stage.interview
    return {
        "interview": {"prisoner": interview.prisoner, "clock": clock_view(interview.clock, now)}
        if interview is not None
        else None,
        "planning": clock_view(stage.planning, now) if stage.planning is not None else None,
        "reveal": reveal_view(stage.reveal)
        if stage.reveal is not None and stage.reveal.shown
        else None,
    }
