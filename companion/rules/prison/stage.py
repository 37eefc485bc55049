"""The stage of a prison break: the clocks, the interview in progress, a search's reveal, and
the game master's acts on them (typed stage notes).

- An interview starts when the game master calls a prisoner in (:class:`CallIn`) and ends by
  the game master's hand (:class:`SendOut`: the console records the interview, then sends the
  prisoner out; or calls it off), with another call-in, or when the search starts. Recorded
  while the prisoner is still in (the warden's phone's deal), it is held from the room until
  then (:class:`~companion.rules.prison.room.PrisonRoom` ``ahead``).
- A search is *held*: the room sees the game as it was before it until the game master steps
  through its reveal (:class:`ShowReveal`): the warden searches X's cell… → CAUGHT or SAFE →
  who worked and the nights → the end of the game, if it ended.
- Once the game is over, the game master steps the room through the epilogue
  (:class:`ShowEpilogue`, :mod:`companion.rules.prison.epilogue`): a night a step, then the
  end. A game undone back to life shows none of it again.
- Clocks (the interview's, planning's) keep an absolute deadline, or the seconds left while
  paused, so every face counts down to the same moment.

Each act is written in the log as a ``stage`` note (``act``, ``at`` and its own fields), the
same notes earlier versions wrote, and read back by :func:`act_from`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from companion.rules.core.game import Entry
from companion.rules.prison.events import GameEnded, NightRevealed, PrisonEvent, Searched

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

    @property
    def shown_steps(self) -> tuple[Step, ...]:
        return self.steps[: self.shown]


SawKind = Literal["search", "interview", "close_planning", "accuse", "end_day"]


@dataclass(frozen=True)
class Saw:
    """What the room saw of one move: its kind, whom it was about and, for a search, how far
    its reveal went (the result, caught or safe, and the night's work)."""

    kind: SawKind
    prisoner: str = ""  # whom it was about (the accuser, for an accusation)
    accused: str = ""
    result: bool = False
    caught: bool = False
    night: bool = False


@dataclass(frozen=True)
class Stage:
    interview: InterviewNow | None = None
    taken_back: Saw | None = None  # what the room had seen of the move just undone
    planning: Clock | None = None
    reveal: Reveal | None = None  # today's latest search (held, or shown)
    seen: frozenset[int] = frozenset()  # searches (history entries) the room has been shown
    day_ended: float | None = None  # when the game master last ended a day
    # today's interviews: (prisoner, by whom); the console's to know, not the room's (two stages
    # that differ only in it look the same to the room)
    recorded_by: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    epilogue: int = 0  # the epilogue's steps the room has been shown (only once it is over)

    def clock(self, which: Which) -> Clock | None:
        if which == "interview":
            return self.interview.clock if self.interview else None
        return self.planning

    def running(self) -> Which | None:
        """The clock the room is watching: the interview's, else planning's."""
        if self.interview is not None:
            return "interview"
        return "planning" if self.planning is not None else None


# ---- the game master's acts (each a ``stage`` note) -------------------------------------------


@dataclass(frozen=True)
class _Act:
    at: float  # epoch seconds

    @property
    def what(self) -> str:
        return STAGE

    def body(self) -> dict[str, Any]:
        fields = asdict(self)
        return {"act": ACT_NAMES[type(self)], "at": fields.pop("at"), **fields}


@dataclass(frozen=True)
class CallIn(_Act):
    """``prisoner`` goes in to the warden for ``seconds``."""

    prisoner: str
    seconds: float


@dataclass(frozen=True)
class SendOut(_Act):
    """The interview in progress is called off (nothing is recorded in the game)."""


@dataclass(frozen=True)
class LimitPlanning(_Act):
    """Planning ends in ``seconds`` (``None``: no limit)."""

    seconds: float | None


@dataclass(frozen=True)
class Pause(_Act):
    which: Which


@dataclass(frozen=True)
class GoOn(_Act):
    which: Which


@dataclass(frozen=True)
class Extend(_Act):
    which: Which
    seconds: float


@dataclass(frozen=True)
class ShowReveal(_Act):
    """The room is shown the first ``shown`` steps of the search ``hseq``'s reveal."""

    hseq: int
    shown: int


@dataclass(frozen=True)
class ShowEpilogue(_Act):
    """The room is shown the first ``shown`` steps of the epilogue (the game is over)."""

    shown: int


StageAct = CallIn | SendOut | LimitPlanning | Pause | GoOn | Extend | ShowReveal | ShowEpilogue

ACT_NAMES: dict[type[_Act], str] = {
    CallIn: "call_in",
    SendOut: "send_out",
    LimitPlanning: "planning_limit",
    Pause: "pause",
    GoOn: "go_on",
    Extend: "extend",
    ShowReveal: "reveal",
    ShowEpilogue: "epilogue",
}


def act_from(body: Mapping[str, Any]) -> StageAct | None:
    """The act a ``stage`` note's body records (``None``: one this version does not know)."""
    act, at = body.get("act"), float(body.get("at", 0.0))
    which: Which = "planning" if body.get("which") == "planning" else "interview"
    if act == "call_in":
        return CallIn(at, str(body["prisoner"]), float(body["seconds"]))
    if act == "send_out":
        return SendOut(at)
    if act == "planning_limit":
        limit = body.get("seconds")
        return LimitPlanning(at, None if limit is None else float(limit))
    if act == "pause":
        return Pause(at, which)
    if act == "go_on":
        return GoOn(at, which)
    if act == "extend":
        return Extend(at, which, float(body["seconds"]))
    if act == "reveal":
        return ShowReveal(at, int(body["hseq"]), int(body["shown"]))
    if act == "epilogue":
        return ShowEpilogue(at, int(body["shown"]))
    return None


# ---- the stage after an act ---------------------------------------------------------------


def _with_clock(stage: Stage, act: Pause | GoOn | Extend, clock: Clock) -> Stage:
    if act.which == "interview" and stage.interview is not None:
        return replace(stage, interview=replace(stage.interview, clock=clock))
    if act.which == "planning" and stage.planning is not None:
        return replace(stage, planning=clock)
    return stage


def act_on(stage: Stage, act: StageAct) -> Stage:
    """The stage after the game master's ``act``."""
    at = act.at
    if isinstance(act, CallIn):
        called = InterviewNow(act.prisoner, at, Clock(act.seconds, at + act.seconds))
        return replace(stage, interview=called)
    if isinstance(act, SendOut):
        return replace(stage, interview=None)
    if isinstance(act, LimitPlanning):
        planning = None if act.seconds is None else Clock(act.seconds, at + act.seconds)
        return replace(stage, planning=planning)
    if isinstance(act, ShowEpilogue):
        return replace(stage, epilogue=max(stage.epilogue, act.shown))
    if isinstance(act, Pause | GoOn | Extend):
        clock = stage.clock(act.which)
        if clock is None:
            return stage
        if isinstance(act, Pause):
            return _with_clock(stage, act, clock.pause(at))
        if isinstance(act, GoOn):
            return _with_clock(stage, act, clock.go_on(at))
        return _with_clock(stage, act, clock.extend(act.seconds, at))
    reveal = stage.reveal
    if reveal is not None and reveal.hseq == act.hseq:
        shown = max(reveal.shown, min(act.shown, len(reveal.steps)))
        return replace(stage, reveal=replace(reveal, shown=shown), seen=stage.seen | {reveal.hseq})
    return stage


def reveal_of(entry: Entry[Any, PrisonEvent]) -> Reveal:
    """The reveal of the search ``entry``, none of it shown yet."""
    events = entry.events
    searched = next(e for e in events if isinstance(e, Searched))
    night = next((e for e in events if isinstance(e, NightRevealed)), None)
    ended = next((e for e in events if isinstance(e, GameEnded)), None)
    steps: list[Step] = ["search", "result"]
    if night is not None:
        steps.append("night")
    if ended is not None:
        steps.append("outcome")
    return Reveal(
        hseq=entry.seq,
        prisoner=searched.prisoner,
        caught=searched.caught,
        workers=tuple(night.workers) if night is not None else None,
        outcome=ended.outcome if ended is not None else None,
        winners=tuple(ended.winners) if ended is not None else (),
        steps=tuple(steps),
    )
