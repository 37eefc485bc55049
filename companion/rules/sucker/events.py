"""So Long Sucker's events: what an accepted command did, as the session log stores it.

Events are deliberately plain: ``decide`` (in :mod:`companion.rules.sucker.engine`) works out every
consequence of a command (captures, rescues, cascading defeats) and states each one as an event,
so folding them back needs no rule knowledge at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.rules.core.game import EventCodec


@dataclass(frozen=True)
class ChipPlayed:
    """``player`` played a chip of ``color`` on ``pile`` (a new pile when ``new``)."""

    player: str
    color: str
    pile: int
    new: bool
    kind: Literal["chip_played"] = "chip_played"


@dataclass(frozen=True)
class ChoiceAwaited:
    """The mover must name the next player (among those whose color is not in ``pile``)."""

    mover: str
    pile: int
    kind: Literal["choice_awaited"] = "choice_awaited"


@dataclass(frozen=True)
class MoveGiven:
    """``player`` has the move; ``by`` gave it (``None`` for a return or a rebound)."""

    player: str
    by: str | None
    kind: Literal["move_given"] = "move_given"


@dataclass(frozen=True)
class CaptureAwaited:
    """``pile`` is captured by ``capturer``, who must kill one chip; ``by`` played the chip."""

    capturer: str
    pile: int
    by: str
    kind: Literal["capture_awaited"] = "capture_awaited"


@dataclass(frozen=True)
class PileTaken:
    """The capturer killed one chip of ``killed`` from ``pile`` and took the rest."""

    player: str
    pile: int
    killed: str
    kind: Literal["pile_taken"] = "pile_taken"


@dataclass(frozen=True)
class PileKilled:
    """A capture by a defeated player's color: the whole pile leaves the game."""

    pile: int
    kind: Literal["pile_killed"] = "pile_killed"


@dataclass(frozen=True)
class RescueAwaited:
    player: str
    kind: Literal["rescue_awaited"] = "rescue_awaited"


@dataclass(frozen=True)
class RescueRefused:
    holder: str
    kind: Literal["rescue_refused"] = "rescue_refused"


@dataclass(frozen=True)
class PrisonerTransferred:
    player: str
    color: str
    to: str
    kind: Literal["prisoner_transferred"] = "prisoner_transferred"


@dataclass(frozen=True)
class PrisonerKilled:
    player: str
    color: str
    kind: Literal["prisoner_killed"] = "prisoner_killed"


@dataclass(frozen=True)
class PlayerDefeated:
    player: str
    kind: Literal["player_defeated"] = "player_defeated"


@dataclass(frozen=True)
class GameWon:
    player: str
    kind: Literal["game_won"] = "game_won"


SuckerEvent = (
    ChipPlayed
    | ChoiceAwaited
    | MoveGiven
    | CaptureAwaited
    | PileTaken
    | PileKilled
    | RescueAwaited
    | RescueRefused
    | PrisonerTransferred
    | PrisonerKilled
    | PlayerDefeated
    | GameWon
)
_CODEC: EventCodec[SuckerEvent] = EventCodec(
    ChipPlayed,
    ChoiceAwaited,
    MoveGiven,
    CaptureAwaited,
    PileTaken,
    PileKilled,
    RescueAwaited,
    RescueRefused,
    PrisonerTransferred,
    PrisonerKilled,
    PlayerDefeated,
    GameWon,
)


def event_to_dict(event: SuckerEvent) -> dict[str, Any]:
    return _CODEC.to_dict(event)


def event_from_dict(data: Mapping[str, Any]) -> SuckerEvent:
    return _CODEC.from_dict(data)
