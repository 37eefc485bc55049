"""The prison break's commands, as a game master, a phone or a script states them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from companion.rules.core.parsing import CommandParser, StrictModel

Choice = Literal["work", "rest"]


class Choose(StrictModel):
    do: Literal["choose"] = "choose"
    prisoner: str
    choice: Choice


class ClosePlanning(StrictModel):
    do: Literal["close_planning"] = "close_planning"


class Interview(StrictModel):
    do: Literal["interview"] = "interview"
    prisoner: str
    deal: bool
    named: list[str] = Field(default_factory=list)  # with a deal: whom the informant names


class Search(StrictModel):
    do: Literal["search"] = "search"
    prisoner: str


class Accuse(StrictModel):
    do: Literal["accuse"] = "accuse"
    accuser: str
    accused: str


class EndDay(StrictModel):
    do: Literal["end_day"] = "end_day"


PrisonCommand = Annotated[
    Choose | ClosePlanning | Interview | Search | Accuse | EndDay, Field(discriminator="do")
]
_ADAPTER: TypeAdapter[PrisonCommand] = TypeAdapter(PrisonCommand)
COMMAND_NAMES = ("choose", "close_planning", "interview", "search", "accuse", "end_day")


_PARSER = CommandParser(
    _ADAPTER, COMMAND_NAMES, {"named": "'named' must be a list of prisoners' names"}
)


def parse_command(data: Mapping[str, Any] | Any) -> PrisonCommand:
    return _PARSER.parse(data)


def command_to_dict(command: PrisonCommand) -> dict[str, Any]:
    data = command.model_dump()
    if isinstance(command, Interview) and not command.named:
        del data["named"]  # an interview without it reads as it always has
    return data
