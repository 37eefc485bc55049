"""The warm-up's room: its round timers, as the room counts them down, folded from the notes.

When a round with a timer starts, the console records :class:`StartTimer` (a ``round_timer``
note with the round's number, its length and its deadline in epoch seconds), so that a resumed
session counts down to the same moment; :class:`SetRoundSeconds` (a ``round_seconds`` note) is
the game master's setting for the rounds to come (``seconds`` 0: no timer), over the
scenario's ``round_seconds``.

Undoing the reveal of a round opens it again, but its deadline has passed (or soon will): the
console then records :class:`TimerOff` for it (a ``round_timer`` note with ``seconds`` 0), and
the round has no timer from then on; the game master closes it.

:class:`ExtendTimer` (a ``round_extended`` note) gives the open round more time: the console's
``+`` (:func:`more_time`: 30 s after its deadline, or after now if that has passed, a timer
turned off included), or, when a console reopens on a round whose deadline passed while it was
closed, the time the round had left when the log last heard from the room
(:func:`time_to_give_back`). :attr:`DilemmaRoom.last_row_at` is that moment: the time of the
last row of the log (a command, an undo, a note), but for a ``language`` note, which the
command line writes when a console opens.

Whatever counts the rounds down (the night's server; a console on its own with ``--no-phones``)
closes the open round when its time runs out (:func:`due`). When it starts and finds that the
open round's time ran out while nothing counted, and the round had time left when the log last
heard from the room, it closes nothing: it records :class:`HoldTimer` (a ``round_held`` note,
:func:`to_hold`), and every console and the game master's phone offer to give that time back
(:class:`ExtendTimer`, ``"given back"``) or to close the round now. A held round is closed by
nothing else; an extension of it, or its timer turned off, ends the hold.

:class:`~companion.rules.dilemma.finale.ShowFinale` (a ``finale`` note) is how many of the
finale's steps the room has been shown; an undo that brings the tournament back to life sets
it back to none.

Undoing a round's start forgets its timer (a round drawn again under that number gets its own,
or none); undoing its reveal turns it off as above. A note is never undone: an extension stays
in the log, and the game master closes the round with ``c`` if it was a mistake.

:data:`ROOM` is the warm-up's room fold (:mod:`companion.rules.core.room`): the session keeps a
:class:`DilemmaRoom` up to date as each note is written or read back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from companion.rules.core.room import Happening, Noted, RoomRules, TakenBack
from companion.rules.dilemma.events import RoundStarted
from companion.rules.dilemma.state import DilemmaState

MORE_SECONDS = 30  # what the console's + adds


class RoundTimer(NamedTuple):
    round: int
    seconds: int
    deadline: float  # epoch seconds

    def left(self, now: float) -> float:
        return max(0.0, self.deadline - now)


@dataclass(frozen=True)
class StartTimer:
    """Round ``round`` runs for ``seconds``, until ``deadline`` (epoch seconds)."""

    round: int
    seconds: int
    deadline: float
    what: str = field(default="round_timer", init=False)

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "seconds": self.seconds, "deadline": self.deadline}


@dataclass(frozen=True)
class TimerOff:
    """Round ``round`` has no timer from now on (its reveal was undone)."""

    round: int
    what: str = field(default="round_timer", init=False)

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "seconds": 0, "deadline": None, "why": "reveal undone"}


@dataclass(frozen=True)
class ExtendTimer:
    """Round ``round`` gets ``seconds`` more: it now runs until ``deadline`` (epoch seconds).
    ``why``: ``"more time"`` (the console's ``+``) or ``"given back"`` (the time it had left
    when the console stopped)."""

    round: int
    seconds: int
    deadline: float
    why: str = "more time"
    what: str = field(default="round_extended", init=False)

    def body(self) -> dict[str, Any]:
        return {
            "round": self.round, "seconds": self.seconds, "deadline": self.deadline,
            "why": self.why,
        }


@dataclass(frozen=True)
class HoldTimer:
    """Round ``round``'s time ran out while nothing counted it down (``by``: ``"server"``, the
    night's server was not running, or ``"console"``, a console on its own was closed); it had
    ``seconds`` left at ``heard`` (epoch seconds), when the log last heard from the room. It is
    held: nothing closes it until the game master gives that time back or closes it."""

    round: int
    seconds: int
    heard: float
    by: str = "server"
    what: str = field(default="round_held", init=False)

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "seconds": self.seconds, "heard": self.heard, "by": self.by}


@dataclass(frozen=True)
class SetRoundSeconds:
    """Seconds per round for the rounds to come (0: no timer)."""

    seconds: int
    what: str = field(default="round_seconds", init=False)

    def body(self) -> dict[str, Any]:
        return {"seconds": self.seconds}


@dataclass(frozen=True)
class DilemmaRoom:
    """The rounds' timers as the room counts them down, and the setting for the next round."""

    timers: Mapping[int, RoundTimer | None] = field(default_factory=dict)  # None: turned off
    seconds: int | None = None  # per round, for the next round; None: no timer
    last_row_at: float | None = None  # epoch seconds of the log's last row (see the module's doc)
    finale: int = 0  # the finale's steps the room has been shown (rules/dilemma/finale.py)
    holds: Mapping[int, HoldTimer] = field(default_factory=dict)  # the rounds held, by number

    def timer(self, number: int) -> RoundTimer | None:
        """Round ``number``'s timer (``None`` when it has none, or it was turned off)."""
        return self.timers.get(number)

    def timer_off(self, number: int) -> bool:
        """Round ``number`` had a timer, turned off since (its reveal was undone)."""
        return number in self.timers and self.timers[number] is None

    def held(self, number: int) -> HoldTimer | None:
        """Round ``number``'s hold, while its time waits to be given back or the round closed."""
        return self.holds.get(number)


def more_time(number: int, timer: RoundTimer | None, seconds: int, now: float) -> ExtendTimer:
    """Round ``number`` (its timer ``timer``, ``None`` when it was turned off) gets ``seconds``
    more: after its deadline, or after ``now`` when that has passed."""
    deadline = max(timer.deadline, now) if timer is not None else now
    return ExtendTimer(number, seconds, deadline + seconds)


def time_to_give_back(room: DilemmaRoom, timer: RoundTimer | None, now: float) -> int:
    """Whole seconds to offer back to a round whose deadline passed while no console ran:
    what it had left when the log last heard from the room (:attr:`DilemmaRoom.last_row_at`,
    rounded down). 0 when there is nothing to give back: no timer, its deadline not passed
    yet, or passed before that last row (a console saw it run out)."""
    if timer is None or timer.deadline > now or room.last_row_at is None:
        return 0
    return max(0, int(timer.deadline - room.last_row_at))


def due(state: DilemmaState, room: DilemmaRoom, now: float) -> int | None:
    """The open round to close now: its timer has run out and it is not held (``None``: none)."""
    r = state.open_round()
    if r is None or room.held(r.number) is not None:
        return None
    timer = room.timer(r.number)
    return r.number if timer is not None and timer.left(now) <= 0 else None


def to_hold(state: DilemmaState, room: DilemmaRoom, now: float, by: str) -> HoldTimer | None:
    """What whatever counts the rounds down (``by``) records when it starts: the open round
    held, if its time ran out while nothing counted and it had time left when the log last
    heard from the room (:func:`time_to_give_back`); ``None`` when there is nothing to hold
    (then :func:`due` closes a round whose time ran out)."""
    r = state.open_round()
    if r is None or room.held(r.number) is not None or room.last_row_at is None:
        return None
    seconds = time_to_give_back(room, room.timer(r.number), now)
    return HoldTimer(r.number, seconds, room.last_row_at, by) if seconds else None


def start(state: DilemmaState) -> DilemmaRoom:
    return DilemmaRoom(seconds=state.rules.round_seconds)


def after(room: DilemmaRoom, happening: Happening, state: DilemmaState) -> DilemmaRoom:
    if not (isinstance(happening, Noted) and happening.what == "language"):
        room = replace(room, last_row_at=happening.at)
    if isinstance(happening, TakenBack) and state.phase != "over" and room.finale:
        room = replace(room, finale=0)  # back to life: the finale starts again at its end
    if isinstance(happening, TakenBack):
        started = [e.number for e in happening.entry.events if isinstance(e, RoundStarted)]
        if any(number in room.timers for number in started):
            timers = {n: t for n, t in room.timers.items() if n not in started}
            holds = {n: h for n, h in room.holds.items() if n not in started}
            return replace(room, timers=timers, holds=holds)
        return room
    if not isinstance(happening, Noted):
        return room
    body = happening.body
    if happening.what == "round_timer":
        number, seconds = int(body["round"]), int(body["seconds"])
        timer = RoundTimer(number, seconds, float(body["deadline"])) if seconds else None
        return replace(room, timers={**room.timers, number: timer}, holds=_unheld(room, number))
    if happening.what == "round_extended":
        number, added = int(body["round"]), int(body["seconds"])
        before = room.timers.get(number)
        length = (before.seconds if before is not None else 0) + added
        timer = RoundTimer(number, length, float(body["deadline"]))
        return replace(room, timers={**room.timers, number: timer}, holds=_unheld(room, number))
    if happening.what == "round_held":
        number = int(body["round"])
        hold = HoldTimer(number, int(body["seconds"]), float(body["heard"]),
                         str(body.get("by", "server")))
        return replace(room, holds={**room.holds, number: hold})
    if happening.what == "round_seconds":
        return replace(room, seconds=int(body["seconds"]) or None)
    if happening.what == "finale":
        return replace(room, finale=max(0, int(body["shown"])))
    return room


def _unheld(room: DilemmaRoom, number: int) -> Mapping[int, HoldTimer]:
    return {n: h for n, h in room.holds.items() if n != number}


ROOM: RoomRules[DilemmaState, DilemmaRoom] = RoomRules(start, after)
