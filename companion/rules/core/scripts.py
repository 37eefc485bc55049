"""What every game script shares (spec, "Game scripts"): commands parsed up front, where a
malformed one is fatal, then played in order through a :class:`History`, where a refused one
is listed and the script goes on. ``undo`` is the history's, the same for every game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from companion.rules.core.game import Game, History, MalformedCommand, Refused

C = TypeVar("C")


class ScriptError(ValueError):
    """A fatal problem with a game script: one sentence, naming the command index if any."""


def check_keys(data: Mapping[str, Any], allowed: set[str], required: Sequence[str]) -> None:
    extra = set(data) - allowed
    if extra:
        raise ScriptError(f"The script has an unknown key {sorted(extra)[0]!r}; remove it.")
    for key in required:
        if key not in data:
            raise ScriptError(f"The script is missing the key {key!r}.")


def parse_commands(game: Game[Any, C, Any], commands: object) -> list[C | None]:
    """The script's commands, ``None`` standing for ``undo``; fatal when one is malformed."""
    if not isinstance(commands, list):
        raise ScriptError("The script's 'commands' must be a list.")
    parsed: list[C | None] = []
    for index, raw in enumerate(commands):
        if isinstance(raw, Mapping) and raw.get("do") == "undo":
            if set(raw) != {"do"}:
                raise ScriptError(f"Command {index}: 'undo' takes no other fields.")
            parsed.append(None)
            continue
        try:
            parsed.append(game.parse_command(raw))
        except MalformedCommand as error:
            raise ScriptError(f"Command {index}: {error}.") from None
    return parsed


def play_commands(
    history: History[Any, C, Any], parsed: Sequence[C | None]
) -> list[dict[str, Any]]:
    """Play the parsed commands in order; returns the rejected ones with their reasons."""
    rejected: list[dict[str, Any]] = []
    for index, command in enumerate(parsed):
        result = history.record_undo() if command is None else history.submit(command)
        if isinstance(result, Refused):
            rejected.append({"index": index, "error": result.reason})
    return rejected
