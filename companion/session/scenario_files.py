"""Scenario files: find them, read them, validate them (the I/O around rules.scenario)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from companion.games import DEFAULT_GAME, UnknownGame, game_rules
from companion.rules.prison.scenario import PrisonRules, ScenarioError, rules_from_mapping

SCENARIO_DIR_ENV = "COMPANION_SCENARIOS"


def scenario_dir() -> Path:
    """Where the scenario files live: $COMPANION_SCENARIOS, else the repository's scenarios/."""
    env = os.environ.get(SCENARIO_DIR_ENV)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "scenarios"


def read_toml(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ScenarioError(f"There is no scenario file at {path}.") from None
    except IsADirectoryError:
        raise ScenarioError(f"{path} is a folder, not a scenario file.") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path} is not UTF-8 text; save it as UTF-8.") from None
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(f"{path} is not valid TOML: {error}.") from None
    except OSError as error:
        raise ScenarioError(f"{path} cannot be read: {error.strerror}.") from None


def load_rules_file(path: Path) -> PrisonRules:
    data = read_toml(path)
    return rules_from_mapping(data, str(path))


def scenario_path(name: str) -> Path:
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise ScenarioError(f"{name!r} is not a scenario name; use a name such as 'classic'.")
    return scenario_dir() / f"{name}.toml"


def load_scenario(name: str) -> PrisonRules:
    """The prison-break rules of the named scenario in scenarios/."""
    path = scenario_path(name)
    if not path.is_file():
        known = ", ".join(p.stem for p in list_scenario_files()) or "none"
        raise ScenarioError(f"There is no scenario called {name!r}; known scenarios: {known}.")
    data = read_toml(path)
    if data.get("game", "prison-break") != "prison-break":
        raise ScenarioError(
            f"The scenario {name!r} is for {data.get('game')}, not the prison break."
        )
    return rules_from_mapping(data, path.name)


def list_scenario_files() -> list[Path]:
    folder = scenario_dir()
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def check_scenario_file(path: Path) -> str:
    """Validate any game's scenario file; returns a one-line summary or raises ScenarioError."""
    data = read_toml(path)
    game = data.get("game", DEFAULT_GAME)
    try:
        check = game_rules(game).check_scenario if isinstance(game, str) else None
    except UnknownGame:
        check = None
    if check is None:
        raise ScenarioError(f'{path} names an unknown game {game!r}; use "prison-break".')
    return check(data, str(path))
