"""Scenario files: find them, read them, validate them (the I/O around rules.scenario).

Two folders hold them: the shipped ones, which come with the app (inside the installed package;
in a source checkout, the repository's ``scenarios/``, their source), and the user's own (see
:func:`companion.session.paths.user_scenario_dir`; ``companion balance`` writes there). A name
is looked up in the user's folder first, so a scenario the user balanced replaces the shipped
one of the same name. Wherever a scenario is asked for, the path of a ``.toml`` file works too.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from companion.games import DEFAULT_GAME, UnknownGame, game_rules
from companion.rules.prison.scenario import PrisonRules, ScenarioError, rules_from_mapping
from companion.session.paths import user_scenario_dir

DEFAULT_SCENARIO = "classic"


def shipped_scenario_dir() -> Path:
    """The scenarios that come with the app: ``companion/scenarios`` in an installed package
    (the wheel's build copies them there), else the source checkout's ``scenarios/``."""
    packaged = Path(str(resources.files("companion").joinpath("scenarios")))
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "scenarios"


@dataclass(frozen=True)
class ScenarioFile:
    """One scenario file as ``companion scenarios`` lists it."""

    name: str
    path: Path
    shipped: bool
    replaces_shipped: bool = False  # the user's file of a shipped scenario's name


def _natural(path: Path) -> list[int | str]:
    """Sorts balanced-4 before balanced-10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.stem)]


def _toml_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.toml"), key=_natural) if folder.is_dir() else []


def list_scenarios() -> list[ScenarioFile]:
    """Every scenario file: the shipped ones, then the user's own, each sorted by name."""
    shipped = [ScenarioFile(p.stem, p, shipped=True) for p in _toml_files(shipped_scenario_dir())]
    names = {s.name for s in shipped}
    own = [
        ScenarioFile(p.stem, p, shipped=False, replaces_shipped=p.stem in names)
        for p in _toml_files(user_scenario_dir())
    ]
    return shipped + own


def list_scenario_files() -> list[Path]:
    """The scenario file each name stands for (the user's where both have it), by name."""
    chosen: dict[str, Path] = {}
    for scenario in list_scenarios():
        chosen[scenario.name] = scenario.path  # the user's come last and win
    return sorted(chosen.values(), key=_natural)


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


def is_scenario_path(text: str) -> bool:
    """Whether ``--scenario`` was given a file rather than a name."""
    separators = {"/", "\\", os.sep, os.altsep or os.sep}
    return text.lower().endswith(".toml") or any(s in text for s in separators)


def scenario_name(text: str) -> str:
    """What a session records as its scenario: the name, or a file's name without .toml."""
    return Path(text).stem if is_scenario_path(text) else text


def scenario_path(name: str) -> Path:
    """The file a scenario name (the user's folder first, then the shipped ones) or a path
    stands for; it may not exist."""
    if name and is_scenario_path(name):
        return Path(name).expanduser()
    if not name or name.startswith("."):
        raise ScenarioError(f"{name!r} is not a scenario name; use a name such as 'classic'.")
    own = user_scenario_dir() / f"{name}.toml"
    return own if own.is_file() else shipped_scenario_dir() / f"{name}.toml"


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
