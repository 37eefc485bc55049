"""The mix learned from real tables (``companion playtests fit``), kept beside the user's own
scenarios as ``table-mix.json`` so that ``simulate``, ``balance`` and the Balance screen can play
it with ``--mix table``, and every process of a pool reads the same file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.session.paths import user_scenario_dir
from companion.sim.strategies.mixes import MIXES, Mix
from companion.sim.strategies.prisoners import Habits
from companion.sim.strategies.warden import SEARCH

TABLE = "table"
FILE_NAME = "table-mix.json"

_cache: dict[Path, tuple[float, Mix]] = {}


class MixError(LookupError):
    """A mix cannot be had: one sentence for the user."""


def mix_path() -> Path:
    return user_scenario_dir() / FILE_NAME


def table_mix(habits: Habits, search: str, description: str) -> Mix:
    """A whole table of habitual prisoners, with the warden's measured search habit; deals are
    offered at random until one is taken."""
    return Mix(TABLE, description, 1.0, 0.0, 0.0, "all", "table", search, "random", habits)


def save_mix(mix: Mix, basis: dict[str, Any]) -> Path:
    """Write the learned mix (and what it rests on) where ``--mix table`` finds it."""
    assert mix.habits is not None
    path = mix_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "mix": TABLE,
        "description": mix.description,
        "work": mix.habits.work,
        "accept": mix.habits.accept,
        "accuse": mix.habits.accuse,
        "search": mix.search,
        "basis": basis,
    }
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    _cache.pop(path, None)
    return path


def read_saved(path: Path) -> dict[str, Any]:
    """The saved file as JSON, or one sentence on what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MixError(
            "There is no mix learned from real tables yet; run 'companion playtests fit' first."
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        raise MixError(
            f"{path} is damaged; run 'companion playtests fit' again to rewrite it."
        ) from None
    if not isinstance(data, dict):
        raise MixError(f"{path} is damaged; run 'companion playtests fit' again to rewrite it.")
    return data


def load_table_mix(path: Path | None = None) -> Mix:
    path = path or mix_path()
    data = read_saved(path)
    try:
        habits = Habits(float(data["work"]), float(data["accept"]), float(data["accuse"]))
        search = str(data["search"])
        description = str(data.get("description", "learned from real tables"))
    except (KeyError, TypeError, ValueError):
        raise MixError(
            f"{path} is damaged; run 'companion playtests fit' again to rewrite it."
        ) from None
    if search not in SEARCH or not all(0 <= p <= 1 for p in (habits.work, habits.accept,
                                                              habits.accuse)):
        raise MixError(f"{path} is damaged; run 'companion playtests fit' again to rewrite it.")
    return table_mix(habits, search, description)


def mix_named(name: str) -> Mix:
    """A named mix: one of the bots' own, or ``table`` (read from its file, cached while the
    file is unchanged); MixError in one sentence otherwise."""
    if name in MIXES:
        return MIXES[name]
    if name != TABLE:
        raise MixError(
            f"There is no mix called {name!r}; use one of {', '.join([*MIXES, TABLE])}."
        )
    path = mix_path()
    try:
        stamp = path.stat().st_mtime
    except OSError:
        stamp = -1.0
    cached = _cache.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    mix = load_table_mix(path)
    _cache[path] = (stamp, mix)
    return mix
