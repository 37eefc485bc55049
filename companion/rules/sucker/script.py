"""Game scripts for So Long Sucker (spec, "Game scripts"): parse, play, report.

Pure: the caller reads the file; this module turns the parsed JSON into the final state, or
raises :class:`~companion.rules.core.scripts.ScriptError` with one sentence for a fatal problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.core.game import History
from companion.rules.core.scripts import ScriptError, check_keys, parse_commands, play_commands
from companion.rules.sucker.engine import SO_LONG_SUCKER, SetupError, initial_state
from companion.rules.sucker.views import script_result

__all__ = ["ScriptError", "play_sucker_script"]


SCRIPT_KEYS = {"game", "players", "chips_per_player", "first", "commands"}


def play_sucker_script(data: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(data, SCRIPT_KEYS, ("players", "first", "commands"))
    try:
        state = initial_state(data)
    except SetupError as error:
        raise ScriptError(str(error)) from None
    parsed = parse_commands(SO_LONG_SUCKER, data["commands"])
    history = History(SO_LONG_SUCKER, state)
    rejected = play_commands(history, parsed)
    return {**script_result(history.state), "rejected": rejected}
