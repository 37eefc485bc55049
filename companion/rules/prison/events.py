"""The prison break's events: what an accepted command did, as the session log stores it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.rules.core.game import EventCodec
from companion.rules.prison.commands import Choice

Outcome = Literal["escape", "parole", "all_caught", "time_up"]


@dataclass(frozen=True)
class ChoiceMade:
    prisoner: str
    choice: Choice
    kind: Literal["choice_made"] = "choice_made"


@dataclass(frozen=True)
class PlanningClosed:
    kind: Literal["planning_closed"] = "planning_closed"


@dataclass(frozen=True)
class Interviewed:
    prisoner: str
    deal: bool
    kind: Literal["interviewed"] = "interviewed"


@dataclass(frozen=True)
class InformantNamed:
    """Whom an informant said was working, in the deal just made (secret until the end)."""

    informant: str
    named: tuple[str, ...]
    kind: Literal["informant_named"] = "informant_named"


@dataclass(frozen=True)
class Paroled:
    prisoner: str
    kind: Literal["paroled"] = "paroled"


@dataclass(frozen=True)
class Searched:
    prisoner: str
    caught: bool
    kind: Literal["searched"] = "searched"


@dataclass(frozen=True)
class NightRevealed:
    workers: tuple[str, ...]
    kind: Literal["night_revealed"] = "night_revealed"


@dataclass(frozen=True)
class Escaped:
    prisoners: tuple[str, ...]
    kind: Literal["escaped"] = "escaped"


@dataclass(frozen=True)
class Accused:
    accuser: str
    accused: str
    shived: bool
    kind: Literal["accused"] = "accused"


@dataclass(frozen=True)
class DayStarted:
    number: int
    kind: Literal["day_started"] = "day_started"


@dataclass(frozen=True)
class GameEnded:
    outcome: Outcome
    winners: tuple[str, ...]
    kind: Literal["game_ended"] = "game_ended"


PrisonEvent = (
    ChoiceMade
    | PlanningClosed
    | Interviewed
    | InformantNamed
    | Paroled
    | Searched
    | NightRevealed
    | Escaped
    | Accused
    | DayStarted
    | GameEnded
)
_CODEC: EventCodec[PrisonEvent] = EventCodec(
    ChoiceMade,
    PlanningClosed,
    Interviewed,
    InformantNamed,
    Paroled,
    Searched,
    NightRevealed,
    Escaped,
    Accused,
    DayStarted,
    GameEnded,
)


def event_to_dict(event: PrisonEvent) -> dict[str, Any]:
    return _CODEC.to_dict(event)


def event_from_dict(data: Mapping[str, Any]) -> PrisonEvent:
    return _CODEC.from_dict(data)
