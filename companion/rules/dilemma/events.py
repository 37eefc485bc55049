"""The dilemma tournament's events: what an accepted command did, as strict pydantic models
stored as JSON in the session log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from companion.rules.core.parsing import StrictModel
from companion.rules.dilemma.commands import Choice
from companion.rules.dilemma.strategies import Strategy


class Joined(StrictModel):
    type: Literal["joined"] = "joined"
    pid: str
    name: str


class Renamed(StrictModel):
    type: Literal["renamed"] = "renamed"
    pid: str
    name: str


class Left(StrictModel):
    """A player left; ``partner`` (if a round was open) faces the house seat ``house`` in their
    place (in logs from before house players, ``house`` is ``None`` and the partner sat out)."""

    type: Literal["left"] = "left"
    pid: str
    partner: str | None = None
    house: str | None = None


class DoorsClosed(StrictModel):
    type: Literal["doors_closed"] = "doors_closed"


class DoorsOpened(StrictModel):
    type: Literal["doors_opened"] = "doors_opened"


class CameBack(StrictModel):
    type: Literal["came_back"] = "came_back"
    pid: str


class RoundStarted(StrictModel):
    type: Literal["round_started"] = "round_started"
    number: int
    pairs: tuple[tuple[str, str], ...]
    sitting_out: tuple[str, ...]
    plan: tuple[str | None, ...] | None = None  # a round-robin plan, while the roster holds
    plan_step: int = 0
    seed: int = 0  # the house player's Random draws from it


class HouseChose(StrictModel):
    """The house player's choice in its seat, made from that seat's history at the reveal."""

    type: Literal["house_chose"] = "house_chose"
    seat: str
    choice: Choice
    strategy: Strategy


class HouseSet(StrictModel):
    """The house player plays ``strategy`` from the next choice it makes."""

    type: Literal["house_set"] = "house_set"
    strategy: Strategy


class Chose(StrictModel):
    type: Literal["chose"] = "chose"
    pid: str
    choice: Choice


class Outcome(StrictModel):
    """One pair's revealed round; ``answered_*`` is false when silence was by default."""

    a: str
    b: str
    choice_a: Choice
    choice_b: Choice
    months_a: int
    months_b: int
    answered_a: bool = True
    answered_b: bool = True


class RoundRevealed(StrictModel):
    type: Literal["round_revealed"] = "round_revealed"
    number: int
    outcomes: tuple[Outcome, ...]
    sitting_out_months: int
    closed_early: bool = False
    timed_out: bool = False  # closed because the round's time ran out


class Ended(StrictModel):
    type: Literal["ended"] = "ended"
    early: bool = False


DilemmaEvent = Annotated[
    Joined
    | Renamed
    | Left
    | CameBack
    | DoorsClosed
    | DoorsOpened
    | RoundStarted
    | Chose
    | HouseChose
    | HouseSet
    | RoundRevealed
    | Ended,
    Field(discriminator="type"),
]
_EVENTS: TypeAdapter[DilemmaEvent] = TypeAdapter(DilemmaEvent)


def event_to_dict(event: DilemmaEvent) -> dict[str, Any]:
    return event.model_dump(mode="json")


def event_from_dict(data: Mapping[str, Any]) -> DilemmaEvent:
    return _EVENTS.validate_python(dict(data), strict=False)
