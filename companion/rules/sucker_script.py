"""Game scripts for So Long Sucker (spec, "Game scripts"): parse, play, report.

Pure: the caller reads the file; this module turns the parsed JSON into the final state, or
raises :class:`SuckerScriptError` with one sentence for a fatal problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.game import History, MalformedCommand, Refused
from companion.rules.sucker import SO_LONG_SUCKER, SetupError, initial_state
from companion.rules.sucker_commands import SuckerCommand
from companion.rules.sucker_views import script_result


class SuckerScriptError(ValueError):
    """A fatal problem with a game script: one sentence, naming the command index if any."""


SCRIPT_KEYS = {"game", "players", "chips_per_player", "first", "commands"}


def parse_commands(commands: object) -> list[SuckerCommand | None]:
    """The script's commands, ``None`` standing for ``undo``; fatal when one is malformed."""
    if not isinstance(commands, list):
        raise SuckerScriptError("The script's 'commands' must be a list.")
    parsed: list[SuckerCommand | None] = []
    for index, raw in enumerate(commands):
        if isinstance(raw, Mapping) and raw.get("do") == "undo":
            if set(raw) != {"do"}:
                raise SuckerScriptError(f"Command {index}: 'undo' takes no other fields.")
            parsed.append(None)
            continue
        try:
            parsed.append(SO_LONG_SUCKER.parse_command(raw))
        except MalformedCommand as error:
            raise SuckerScriptError(f"Command {index}: {error}.") from None
    return parsed


def play_sucker_script(data: Mapping[str, Any]) -> dict[str, Any]:
    extra = set(data) - SCRIPT_KEYS
    if extra:
        raise SuckerScriptError(f"The script has an unknown key {sorted(extra)[0]!r}; remove it.")
    for key in ("players", "first", "commands"):
        if key not in data:
            raise SuckerScriptError(f"The script is missing the key {key!r}.")
    try:
        state = initial_state(data)
    except SetupError as error:
        raise SuckerScriptError(str(error)) from None
    parsed = parse_commands(data["commands"])
    history = History(SO_LONG_SUCKER, state)
    rejected: list[dict[str, Any]] = []
    for index, command in enumerate(parsed):
        result = history.record_undo() if command is None else history.submit(command)
        if isinstance(result, Refused):
            rejected.append({"index": index, "error": result.reason})
    return {**script_result(history.state), "rejected": rejected}
