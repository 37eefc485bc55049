"""So Long Sucker's commands, as the game master or a script states them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from companion.rules.game import MalformedCommand


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Play(_Command):
    """The player to move plays a chip of ``color`` on pile ``pile`` or on a ``"new"`` one."""

    do: Literal["play"] = "play"
    player: str
    color: str
    pile: int | Literal["new"]


class Next(_Command):
    """The mover names the next player."""

    do: Literal["next"] = "next"
    player: str


class Kill(_Command):
    """The capturing player names the color of the chip to kill from the captured pile."""

    do: Literal["kill"] = "kill"
    player: str
    color: str


class Transfer(_Command):
    do: Literal["transfer"] = "transfer"
    player: str
    color: str
    to: str


class KillPrisoner(_Command):
    do: Literal["kill_prisoner"] = "kill_prisoner"
    player: str
    color: str


class Refuse(_Command):
    """A holder of prisoners declines to rescue the player awaiting rescue."""

    do: Literal["refuse"] = "refuse"
    player: str


SuckerCommand = Annotated[
    Play | Next | Kill | Transfer | KillPrisoner | Refuse, Field(discriminator="do")
]
_ADAPTER: TypeAdapter[SuckerCommand] = TypeAdapter(SuckerCommand)
COMMAND_NAMES = ("play", "next", "kill", "transfer", "kill_prisoner", "refuse", "undo")


def command_problem(error: ValidationError) -> str:
    """One sentence for a malformed command, from pydantic's first complaint."""
    first = error.errors()[0]
    loc = [str(part) for part in first["loc"] if not str(part).startswith(("int", "literal"))]
    field = loc[-1] if loc else ""
    kind = first["type"]
    if kind == "union_tag_invalid":
        names = ", ".join(COMMAND_NAMES)
        return f"unknown command {first['input'].get('do')!r}; use one of {names}"
    if kind == "union_tag_not_found":
        return "the command has no 'do' field"
    if kind == "missing":
        return f"the field '{field}' is missing"
    if kind == "extra_forbidden":
        return f"the field '{field}' is not part of this command"
    if field == "pile":
        return "'pile' must be a pile number or \"new\""
    if kind == "string_type":
        return f"'{field}' must be text"
    return f"'{field}': {first['msg']}" if field else str(first["msg"])


def parse_command(data: Mapping[str, Any] | Any) -> SuckerCommand:
    if not isinstance(data, Mapping):
        raise MalformedCommand("a command must be a JSON object")
    try:
        return _ADAPTER.validate_python(dict(data))
    except ValidationError as error:
        raise MalformedCommand(command_problem(error)) from None


def command_to_dict(command: SuckerCommand) -> dict[str, Any]:
    return command.model_dump()
