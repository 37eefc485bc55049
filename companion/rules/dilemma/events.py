"""The dilemma tournament's events: what an accepted command did, as strict pydantic models
stored as JSON in the session log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from companion.rules.dilemma.commands import Choice


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)



class Joined(_Strict):
    type: Literal["joined"] = "joined"
    pid: str
    name: str


class Renamed(_Strict):
    type: Literal["renamed"] = "renamed"
    pid: str
    name: str


class Left(_Strict):
    """A player left; ``partner`` (if a round was open) now sits that round out."""

    type: Literal["left"] = "left"
    pid: str
    partner: str | None = None


class CameBack(_Strict):
    type: Literal["came_back"] = "came_back"
    pid: str


class RoundStarted(_Strict):
    type: Literal["round_started"] = "round_started"
    number: int
    pairs: tuple[tuple[str, str], ...]
    sitting_out: tuple[str, ...]
    plan: tuple[str | None, ...] | None = None  # a round-robin plan, while the roster holds
    plan_step: int = 0


class Chose(_Strict):
    type: Literal["chose"] = "chose"
    pid: str
    choice: Choice


class Outcome(_Strict):
    """One pair's revealed round; ``answered_*`` is false when silence was by default."""

    a: str
    b: str
    choice_a: Choice
    choice_b: Choice
    months_a: int
    months_b: int
    answered_a: bool = True
    answered_b: bool = True


class RoundRevealed(_Strict):
    type: Literal["round_revealed"] = "round_revealed"
    number: int
    outcomes: tuple[Outcome, ...]
    sitting_out_months: int
    closed_early: bool = False


class Ended(_Strict):
    type: Literal["ended"] = "ended"
    early: bool = False


DilemmaEvent = Annotated[
    Joined | Renamed | Left | CameBack | RoundStarted | Chose | RoundRevealed | Ended,
    Field(discriminator="type"),
]
_EVENTS: TypeAdapter[DilemmaEvent] = TypeAdapter(DilemmaEvent)


def event_to_dict(event: DilemmaEvent) -> dict[str, Any]:
    return event.model_dump(mode="json")


def event_from_dict(data: Mapping[str, Any]) -> DilemmaEvent:
    return _EVENTS.validate_python(dict(data), strict=False)
