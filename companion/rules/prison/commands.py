"""The prison break's commands, as a game master, a phone or a script states them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from companion.rules.core.parsing import CommandParser

Choice = Literal["work", "rest"]


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Choose(_Command):
    do: Literal["choose"] = "choose"
    prisoner: str
    choice: Choice


class ClosePlanning(_Command):
    do: Literal["close_planning"] = "close_planning"


class Interview(_Command):
    do: Literal["interview"] = "interview"
    prisoner: str
    deal: bool


class Search(_Command):
    do: Literal["search"] = "search"
    prisoner: str


class Accuse(_Command):
    do: Literal["accuse"] = "accuse"
    accuser: str
    accused: str


class EndDay(_Command):
    do: Literal["end_day"] = "end_day"


PrisonCommand = Annotated[
    Choose | ClosePlanning | Interview | Search | Accuse | EndDay, Field(discriminator="do")
]
_ADAPTER: TypeAdapter[PrisonCommand] = TypeAdapter(PrisonCommand)
COMMAND_NAMES = ("choose", "close_planning", "interview", "search", "accuse", "end_day")


_PARSER = CommandParser(_ADAPTER, COMMAND_NAMES)


def parse_command(data: Mapping[str, Any] | Any) -> PrisonCommand:
    return _PARSER.parse(data)


def command_to_dict(command: PrisonCommand) -> dict[str, Any]:
    return command.model_dump()
