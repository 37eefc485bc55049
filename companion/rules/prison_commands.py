"""The prison break's commands, as a game master, a phone or a script states them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from companion.rules.game import MalformedCommand

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


def command_problem(error: ValidationError) -> str:
    """One sentence for a malformed command, from pydantic's first complaint."""
    first = error.errors()[0]
    loc = [str(part) for part in first["loc"]]
    field = loc[-1] if loc else ""
    kind = first["type"]
    if kind == "union_tag_invalid":
        return (
            f"unknown command {first['input'].get('do')!r}; use one of {', '.join(COMMAND_NAMES)}"
        )
    if kind == "union_tag_not_found":
        return "the command has no 'do' field"
    if kind == "missing":
        return f"the field '{field}' is missing"
    if kind == "extra_forbidden":
        return f"the field '{field}' is not part of this command"
    if kind == "literal_error":
        return f"'{field}' must be {first['msg'].removeprefix('Input should be ')}"
    if kind == "bool_type":
        return f"'{field}' must be true or false"
    if kind == "string_type":
        return f"'{field}' must be text"
    if kind in ("int_type", "int_parsing"):
        return f"'{field}' must be a whole number"
    return f"'{field}': {first['msg']}" if field else first["msg"]


def parse_command(data: Mapping[str, Any] | Any) -> PrisonCommand:
    if not isinstance(data, Mapping):
        raise MalformedCommand("a command must be a JSON object")
    try:
        return _ADAPTER.validate_python(dict(data))
    except ValidationError as error:
        raise MalformedCommand(command_problem(error)) from None


def command_to_dict(command: PrisonCommand) -> dict[str, Any]:
    return command.model_dump()
