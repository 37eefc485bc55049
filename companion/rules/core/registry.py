"""The games the companion plays, by name, and how each builds its first state from a setup.

A session's setup is plain JSON (stored in the session log); ``initial_state`` turns it back
into the engine's first state, so a reopened session needs nothing but its own file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.core.game import Game


@dataclass(frozen=True)
class GameKind:
    name: str
    title: str
    engine: Game[Any, Any, Any]
    initial_state: Callable[[Mapping[str, Any]], Any]


def _prison() -> GameKind:
    from companion.rules.prison.engine import PRISON_BREAK, new_game
    from companion.rules.prison.scenario import PrisonRules

    def initial(setup: Mapping[str, Any]) -> Any:
        rules = PrisonRules.model_validate(setup["rules"])
        return new_game(rules, setup["warden"], list(setup["prisoners"]))

    return GameKind("prison-break", "The Prisoner's Dilemma (prison break)", PRISON_BREAK, initial)


_FACTORIES: dict[str, Callable[[], GameKind]] = {"prison-break": _prison}


def register(name: str, factory: Callable[[], GameKind]) -> None:
    _FACTORIES[name] = factory


def game_kind(name: str) -> GameKind:
    if name not in _FACTORIES:
        _load_builtin(name)
    try:
        return _FACTORIES[name]()
    except KeyError:
        raise KeyError(f"unknown game {name!r}") from None


def _load_builtin(name: str) -> None:
    """Other games register themselves when their module is imported."""
    import importlib

    module = {
        "so-long-sucker": "companion.rules.sucker.engine",
        "dilemma": "companion.rules.dilemma.engine",
    }
    if name in module:
        importlib.import_module(module[name])
