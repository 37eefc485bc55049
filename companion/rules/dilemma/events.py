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
    kind: Literal["joined"] = "joined"
    pid: str
    name: str


class Renamed(StrictModel):
    kind: Literal["renamed"] = "renamed"
    pid: str
    name: str


class Left(StrictModel):
    """A player left; ``partner`` (if a round was open) faces the house seat ``house`` in their
    place (in logs from before house players, ``house`` is ``None`` and the partner sat out)."""

    kind: Literal["left"] = "left"
    pid: str
    partner: str | None = None
    house: str | None = None


class DoorsClosed(StrictModel):
    kind: Literal["doors_closed"] = "doors_closed"


class DoorsOpened(StrictModel):
    kind: Literal["doors_opened"] = "doors_opened"


class CameBack(StrictModel):
    kind: Literal["came_back"] = "came_back"
    pid: str


class RoundStarted(StrictModel):
    kind: Literal["round_started"] = "round_started"
    number: int
    pairs: tuple[tuple[str, str], ...]
    sitting_out: tuple[str, ...]
    plan: tuple[str | None, ...] | None = None  # a round-robin plan, while the roster holds
    plan_step: int = 0
    seed: int = 0  # the house player's Random draws from it


class HouseChose(StrictModel):
    """The house player's choice in its seat, made from that seat's history at the reveal."""

    kind: Literal["house_chose"] = "house_chose"
    seat: str
    choice: Choice
    strategy: Strategy


class HouseSet(StrictModel):
    """The house player plays ``strategy`` from the next choice it makes."""

    kind: Literal["house_set"] = "house_set"
    strategy: Strategy


class Chose(StrictModel):
    kind: Literal["chose"] = "chose"
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
    kind: Literal["round_revealed"] = "round_revealed"
    number: int
    outcomes: tuple[Outcome, ...]
    sitting_out_months: int
    closed_early: bool = False
    timed_out: bool = False  # closed because the round's time ran out


class Ended(StrictModel):
    kind: Literal["ended"] = "ended"
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
    Field(discriminator="kind"),
]
_EVENTS: TypeAdapter[DilemmaEvent] = TypeAdapter(DilemmaEvent)


def event_to_dict(event: DilemmaEvent) -> dict[str, Any]:
    return event.model_dump(mode="json")


def event_from_dict(data: Mapping[str, Any]) -> DilemmaEvent:
    """An event from the log (a warm-up's log may name an event's kind ``type``, as its
    first version wrote them: read as ``kind``, the word every game's events use)."""
    event = dict(data)
    if "kind" not in event and "type" in event:
        event["kind"] = event.pop("type")
    return _EVENTS.validate_python(event, strict=False)
