"""Game scripts for the prison break (spec, "Game scripts"): parse, play, report.

Pure: the caller reads the file and finds the scenario; this module turns the parsed JSON into
the final state, or raises :class:`ScriptError` with one sentence for a fatal problem.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.rules.core.game import History
from companion.rules.core.roster import RosterError, check_roster
from companion.rules.core.scenario import ScenarioError
from companion.rules.core.scripts import ScriptError, check_keys, parse_commands, play_commands
from companion.rules.prison.engine import PRISON_BREAK, new_game
from companion.rules.prison.scenario import PrisonRules, with_overrides
from companion.rules.prison.views import script_result

__all__ = ["ScriptError", "play_prison_script"]


SCRIPT_KEYS = {"game", "scenario", "rules", "warden", "prisoners", "commands"}


def play_prison_script(
    data: Mapping[str, Any], load_scenario: Callable[[str], PrisonRules]
) -> dict[str, Any]:
    check_keys(data, SCRIPT_KEYS, ("scenario", "warden", "prisoners", "commands"))
    name = data["scenario"]
    if not isinstance(name, str):
        raise ScriptError("The script's 'scenario' must be a scenario name such as \"classic\".")
    try:
        rules = load_scenario(name)
        overrides = data.get("rules") or {}
        if not isinstance(overrides, Mapping):
            raise ScriptError("The script's 'rules' must be an object of scenario parameters.")
        if overrides:
            rules = with_overrides(rules, overrides, "The script's 'rules'")
        warden, prisoners = check_roster(
            data["warden"], data["prisoners"], rules.min_prisoners, rules.max_prisoners
        )
    except (ScenarioError, RosterError) as error:
        raise ScriptError(str(error)) from None
    parsed = parse_commands(PRISON_BREAK, data["commands"])
    history = History(PRISON_BREAK, new_game(rules, warden, prisoners))
    rejected = play_commands(history, parsed)
    return {**script_result(history.state), "rejected": rejected}
