"""What a game's rules offer the rest of the companion: one :class:`GameRules` per game.

Each game's rules package (``companion.rules.<package>``) exposes one ``GAME``; the name that
finds it is registered once, in :mod:`companion.games`. A session's setup is plain JSON (kept in
the session log); ``initial_state`` turns it back into the engine's first state, so a reopened
session needs nothing but its own file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar

from companion.rules.core.game import Game
from companion.rules.core.room import RoomRules

S = TypeVar("S")


class ScenarioLoader(Protocol):
    """Finds a named scenario's rules (the session layer reads the files)."""

    def __call__(self, name: str, /) -> Any: ...


class ScriptPlayer(Protocol):
    """Plays a parsed game script (``companion replay``) to its final state as JSON data."""

    def __call__(
        self, data: Mapping[str, Any], load_scenario: ScenarioLoader, /
    ) -> dict[str, Any]: ...


class ScenarioChecker(Protocol):
    """Validates a parsed scenario file; a one-line summary, or ``ScenarioError``."""

    def __call__(self, data: Mapping[str, Any], where: str, /) -> str: ...


@dataclass(frozen=True)
class GameRules(Generic[S]):
    """One game's rules, as the session, the faces and ``replay`` use them."""

    name: str  # as written in session files, scenario files and scripts
    title: str
    engine: Game[S, Any, Any]
    initial_state: Callable[[Mapping[str, Any]], S]
    room: RoomRules[S, Any]  # what the room may see of it (rules/core/room.py)
    is_over: Callable[[S], bool]  # the game has ended (its night's server may stop)
    check_scenario: ScenarioChecker | None = None  # the game has scenario files
    play_script: ScriptPlayer | None = None  # ``companion replay`` plays its scripts


def rules_in(package: ModuleType) -> GameRules[Any]:
    """The ``GAME`` a game's rules package exposes."""
    game = getattr(package, "GAME", None)
    if not isinstance(game, GameRules):
        raise TypeError(f"{package.__name__} exposes no GAME of type GameRules")
    return game
