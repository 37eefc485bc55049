"""What the room may see of a game: one pure fold per game, beside the rules.

The rules say what happened; the room says how far the room has been shown it and what it is
waiting on (who is in with the warden, a round's timer, how far a search's reveal has gone).
The session tells a game's :class:`RoomRules` about every row it logs, as one typed
:class:`Happening` (a command played, a command taken back, a note written), and keeps the
room it returns; every face reads that room and renders it, and nothing else derives it.

A game's stage notes (the game master's call-ins, timers, the reveal's steps) are typed acts
(:class:`StageAct`): the session writes ``act.what`` with ``act.body()`` as a note, and the
fold reads the same body back, so a resumed session comes back to the same room.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from companion.rules.core.game import Entry

S = TypeVar("S")
R = TypeVar("R")


@dataclass(frozen=True)
class Played:
    """A command was accepted: its entry, the state just before it, who made it, and when
    (epoch seconds of its row)."""

    entry: Entry[Any, Any]
    before: Any
    by: str
    at: float


@dataclass(frozen=True)
class TakenBack:
    """An undo took back ``entry`` (the command, as it was played)."""

    entry: Entry[Any, Any]
    at: float


@dataclass(frozen=True)
class Noted:
    """A note was written in the log: its ``what`` and the rest of its body."""

    what: str
    body: Mapping[str, Any]
    at: float


Happening = Played | TakenBack | Noted


class StageAct(Protocol):
    """A game master's act on the stage, written in the log as a note."""

    @property
    def what(self) -> str: ...

    def body(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class RoomRules(Generic[S, R]):
    """One game's fold of what the room may see: ``start`` from the game's first state, then
    ``after`` each happening, with the game's state as it is after it."""

    start: Callable[[S], R]
    after: Callable[[R, Happening, S], R]
