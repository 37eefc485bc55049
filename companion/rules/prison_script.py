"""Game scripts for the prison break (spec, "Game scripts"): parse, play, report.

Pure: the caller reads the file and finds the scenario; this module turns the parsed JSON into
the final state, or raises :class:`ScriptError` with one sentence for a fatal problem.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.rules.game import History, MalformedCommand, Refused
from companion.rules.prison import PRISON_BREAK, new_game
from companion.rules.prison_commands import PrisonCommand
from companion.rules.prison_views import script_result
from companion.rules.roster import RosterError, check_roster
from companion.rules.scenario import PrisonRules, ScenarioError, with_overrides


class ScriptError(ValueError):
    """A fatal problem with a game script: one sentence, naming the command index if any."""


SCRIPT_KEYS = {"scenario", "rules", "warden", "prisoners", "commands"}


def play_prison_script(
    data: Mapping[str, Any], load_scenario: Callable[[str], PrisonRules]
) -> dict[str, Any]:
    extra = set(data) - SCRIPT_KEYS - {"game"}
    if extra:
        raise ScriptError(f"The script has an unknown key {sorted(extra)[0]!r}; remove it.")
    for key in ("scenario", "warden", "prisoners", "commands"):
        if key not in data:
            raise ScriptError(f"The script is missing the key {key!r}.")
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
    commands = data["commands"]
    if not isinstance(commands, list):
        raise ScriptError("The script's 'commands' must be a list.")
    parsed: list[PrisonCommand | None] = []
    for index, raw in enumerate(commands):
        if isinstance(raw, Mapping) and raw.get("do") == "undo":
            if set(raw) != {"do"}:
                raise ScriptError(f"Command {index}: 'undo' takes no other fields.")
            parsed.append(None)
            continue
        try:
            parsed.append(PRISON_BREAK.parse_command(raw))
        except MalformedCommand as error:
            raise ScriptError(f"Command {index}: {error}.") from None

    history = History(PRISON_BREAK, new_game(rules, warden, prisoners))
    rejected: list[dict[str, Any]] = []
    for index, command in enumerate(parsed):
        result = history.record_undo() if command is None else history.submit(command)
        if isinstance(result, Refused):
            rejected.append({"index": index, "error": result.reason})
    return {**script_result(history.state), "rejected": rejected}
