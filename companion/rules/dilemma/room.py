"""The warm-up's room: its round timers, as the room counts them down, folded from the notes.

When a round with a timer starts, the console records :class:`StartTimer` (a ``round_timer``
note with the round's number, its length and its deadline in epoch seconds), so that a resumed
session counts down to the same moment; :class:`SetRoundSeconds` (a ``round_seconds`` note) is
the game master's setting for the rounds to come (``seconds`` 0: no timer), over the
scenario's ``round_seconds``.

Undoing the reveal of a round opens it again, but its deadline has passed (or soon will): the
console then records :class:`TimerOff` for it (a ``round_timer`` note with ``seconds`` 0), and
the round has no timer from then on; the game master closes it.

:data:`ROOM` is the warm-up's room fold (:mod:`companion.rules.core.room`): the session keeps a
:class:`DilemmaRoom` up to date as each note is written or read back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from companion.rules.core.room import Happening, Noted, RoomRules
from companion.rules.dilemma.state import DilemmaState


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

    def timer(self, number: int) -> RoundTimer | None:
        """Round ``number``'s timer (``None`` when it has none, or it was turned off)."""
        return self.timers.get(number)

    def timer_off(self, number: int) -> bool:
        """Round ``number`` had a timer, turned off since (its reveal was undone)."""
        return number in self.timers and self.timers[number] is None


def start(state: DilemmaState) -> DilemmaRoom:
    return DilemmaRoom(seconds=state.rules.round_seconds)


def after(room: DilemmaRoom, happening: Happening, state: DilemmaState) -> DilemmaRoom:
    if not isinstance(happening, Noted):
        return room
    body = happening.body
    if happening.what == "round_timer":
        number, seconds = int(body["round"]), int(body["seconds"])
        timer = RoundTimer(number, seconds, float(body["deadline"])) if seconds else None
        return replace(room, timers={**room.timers, number: timer})
    if happening.what == "round_seconds":
        return replace(room, seconds=int(body["seconds"]) or None)
    return room


ROOM: RoomRules[DilemmaState, DilemmaRoom] = RoomRules(start, after)
