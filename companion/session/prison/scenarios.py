"""The prison break's scenarios: a named or given file read as :class:`PrisonRules`, refused in
one sentence (:class:`ScenarioError`), and the scenario balanced for a group's size."""

from __future__ import annotations

from pathlib import Path

from companion.rules.core.scenario import ScenarioError
from companion.rules.prison.scenario import PrisonRules, rules_from_mapping
from companion.session.scenario_files import (
    is_scenario_path,
    list_scenario_files,
    read_toml,
    scenario_path,
)

DEFAULT_SCENARIO = "classic"


def load_rules_file(path: Path) -> PrisonRules:
    data = read_toml(path)
    return rules_from_mapping(data, str(path))


def load_scenario(name: str) -> PrisonRules:
    """The prison-break rules of the named scenario (see :func:`scenario_path`), or of a file."""
    path = scenario_path(name)
    if not path.is_file() and not is_scenario_path(name):
        known = ", ".join(p.stem for p in list_scenario_files()) or "none"
        raise ScenarioError(f"There is no scenario called {name!r}; known scenarios: {known}.")
    data = read_toml(path)
    if data.get("game", "prison-break") != "prison-break":
        raise ScenarioError(
            f"The scenario {name!r} is for {data.get('game')}, not the prison break."
        )
    return rules_from_mapping(data, path.name)


def load_named_scenario(name: str) -> PrisonRules:
    """:func:`load_scenario` for a name only (a game script names its scenario; no paths)."""
    if is_scenario_path(name):
        raise ScenarioError(f"{name!r} is not a scenario name; use a name such as 'classic'.")
    return load_scenario(name)


def scenario_for(prisoners: int) -> str:
    """The scenario balanced for a group of ``prisoners``: classic when it fits (four), else
    ``balanced-N`` where there is one, else classic (whose roster check then says what to do)."""
    for name in (DEFAULT_SCENARIO, f"balanced-{prisoners}"):
        try:
            rules = load_scenario(name)
        except ScenarioError:
            continue
        if rules.min_prisoners <= prisoners <= rules.max_prisoners:
            return name
    return DEFAULT_SCENARIO
