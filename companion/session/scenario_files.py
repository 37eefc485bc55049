"""Scenario files: find them, read them, validate them (the I/O around rules.scenario).

Two folders hold them: the shipped ones, which come with the app (inside the installed package;
in a source checkout, the repository's ``scenarios/``, their source), and the user's own (see
:func:`companion.session.paths.user_scenario_dir`; ``companion balance`` writes there). A name
is looked up in the user's folder first, so a scenario the user balanced replaces the shipped
one of the same name. Wherever a scenario is asked for, the path of a ``.toml`` file works too.
A game's own reading of its files is in its package (``companion.session.prison.scenarios``).
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import NamedTuple

from companion.games import DEFAULT_GAME, UnknownGame, game_rules
from companion.rules.core.scenario import ScenarioError
from companion.session.paths import user_scenario_dir


def shipped_scenario_dir() -> Path:
    """The scenarios that come with the app: ``companion/scenarios`` in an installed package
    (the wheel's build copies them there), else the source checkout's ``scenarios/``."""
    package = Path(__file__).resolve().parents[1]  # (importlib.resources: a tenth of the start)
    packaged = package / "scenarios"
    if packaged.is_dir():
        return packaged
    return package.parent / "scenarios"


class ScenarioFile(NamedTuple):  # (not a dataclass: `companion scenarios` starts without them)
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
