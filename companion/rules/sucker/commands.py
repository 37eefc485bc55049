"""So Long Sucker's commands, as the game master or a script states them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from companion.rules.core.parsing import CommandParser, StrictModel


class Play(StrictModel):
    """The player to move plays a chip of ``color`` on pile ``pile`` or on a ``"new"`` one."""

    do: Literal["play"] = "play"
    player: str
    color: str
    pile: int | Literal["new"]


class Next(StrictModel):
    """The mover names the next player."""

    do: Literal["next"] = "next"
    player: str


class Kill(StrictModel):
    """The capturing player names the color of the chip to kill from the captured pile."""

    do: Literal["kill"] = "kill"
    player: str
    color: str


class Transfer(StrictModel):
    do: Literal["transfer"] = "transfer"
    player: str
    color: str
    to: str


class KillPrisoner(StrictModel):
    do: Literal["kill_prisoner"] = "kill_prisoner"
    player: str
    color: str


class Refuse(StrictModel):
    """A holder of prisoners declines to rescue the player awaiting rescue."""

    do: Literal["refuse"] = "refuse"
    player: str


SuckerCommand = Annotated[
    Play | Next | Kill | Transfer | KillPrisoner | Refuse, Field(discriminator="do")
]
_ADAPTER: TypeAdapter[SuckerCommand] = TypeAdapter(SuckerCommand)
COMMAND_NAMES = ("play", "next", "kill", "transfer", "kill_prisoner", "refuse", "undo")


_PARSER = CommandParser(
    _ADAPTER, COMMAND_NAMES, fields={"pile": "'pile' must be a pile number or \"new\""}
)


def parse_command(data: Mapping[str, Any] | Any) -> SuckerCommand:
    return _PARSER.parse(data)


def command_to_dict(command: SuckerCommand) -> dict[str, Any]:
    return command.model_dump()
