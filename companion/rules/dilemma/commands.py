"""The dilemma tournament's commands, as the console, a phone or a script states them: strict
pydantic models, stored as JSON in the session log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from companion.rules.core.parsing import CommandParser, StrictModel
from companion.rules.dilemma.strategies import Choice, Strategy

__all__ = ["Choice", "DilemmaCommand", "Strategy", "command_to_dict", "parse_command"]
PID = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,24}$")]


class Join(StrictModel):
    """A player joins with a name; ``pid`` is a fresh id chosen by whoever joins them."""

    do: Literal["join"] = "join"
    pid: PID
    name: str


class Rename(StrictModel):
    do: Literal["rename"] = "rename"
    pid: PID
    name: str


class Remove(StrictModel):
    """The player leaves the tournament (the game master removes the entry)."""

    do: Literal["remove"] = "remove"
    pid: PID


class RemoveMany(StrictModel):
    """Several players leave at once, in one step (the game master clears a flood of joins):
    as one command in the log, one undo brings them all back."""

    do: Literal["remove_many"] = "remove_many"
    pids: list[PID] = Field(max_length=1000)


class CloseDoors(StrictModel):
    """Nobody may join until the doors open again (players already in play on)."""

    do: Literal["close_doors"] = "close_doors"


class OpenDoors(StrictModel):
    do: Literal["open_doors"] = "open_doors"


class BringBack(StrictModel):
    do: Literal["bring_back"] = "bring_back"
    pid: PID


class StartRound(StrictModel):
    """Draw the pairs of the next round; ``seed`` is drawn outside the pure core."""

    do: Literal["start_round"] = "start_round"
    seed: int = Field(ge=0, lt=2**63)


class Choose(StrictModel):
    do: Literal["choose"] = "choose"
    pid: PID
    choice: Choice


class CloseRound(StrictModel):
    """Reveal now: whoever has not chosen gives no answer; ``timed_out`` when the round's
    time ran out (the console's timer says so)."""

    do: Literal["close_round"] = "close_round"
    timed_out: bool = False


class SetHouse(StrictModel):
    """The house player's strategy from now on (between rounds)."""

    do: Literal["set_house"] = "set_house"
    strategy: Strategy


class Finish(StrictModel):
    """End the tournament before the last round."""

    do: Literal["finish"] = "finish"


DilemmaCommand = Annotated[
    Join
    | Rename
    | Remove
    | RemoveMany
    | CloseDoors
    | OpenDoors
    | BringBack
    | StartRound
    | Choose
    | CloseRound
    | SetHouse
    | Finish,
    Field(discriminator="do"),
]
_COMMANDS: TypeAdapter[DilemmaCommand] = TypeAdapter(DilemmaCommand)
COMMAND_NAMES = (
    "join",
    "rename",
    "remove",
    "remove_many",
    "close_doors",
    "open_doors",
    "bring_back",
    "start_round",
    "choose",
    "close_round",
    "set_house",
    "finish",
)


_PARSER = CommandParser(
    _COMMANDS, COMMAND_NAMES, fields={"pid": "'pid' must be 1 to 24 letters, digits, '-' or '_'"}
)


def parse_command(data: Mapping[str, Any] | Any) -> DilemmaCommand:
    return _PARSER.parse(data)


def command_to_dict(command: DilemmaCommand) -> dict[str, Any]:
    return command.model_dump()
