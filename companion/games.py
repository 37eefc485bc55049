"""The games the companion knows: one registration line per game.

A game's packages are named after its entry's ``package`` in every layer: its rules in
``companion.rules.<package>`` (which exposes ``GAME``, a
:class:`~companion.rules.core.registry.GameRules`), and, for each layer listed in ``faces``,
``companion.tui.<package>``, ``companion.web.<package>`` or ``companion.printing.<package>``.
Adding a game means adding its packages and one line to :data:`GAMES`.

Standard library only, and nothing from companion at import time, so that every layer above
the rules may read it.
"""

from __future__ import annotations

import importlib

from companion.rules.core.words import N_

TYPE_CHECKING = False  # typing would cost `companion sessions` 0.2x (benchmarks/cli.py)
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Literal

    from companion.rules.core.registry import GameRules, ScriptPlayer

    Face = Literal["tui", "web", "printing"]


class GameEntry:
    """A game's registration (a plain class: `companion sessions` starts without typing's
    NamedTuple and without dataclasses)."""

    __slots__ = ("name", "package", "label", "faces")

    def __init__(self, name: str, package: str, label: str, faces: tuple[Face, ...]) -> None:
        self.name = name  # as written in session files, scenario files and scripts
        self.package = package  # the game's package in each layer
        self.label = label  # what the list of sessions calls it (a message, translated where said)
        self.faces = faces  # the layers besides the rules with a package for it

    def __repr__(self) -> str:
        return f"GameEntry({self.name!r})"


GAMES = (
    GameEntry("prison-break", "prison", N_("prison break"), ("tui", "web", "printing")),
    GameEntry("dilemma", "dilemma", N_("dilemma warm-up"), ("tui", "web", "printing")),
    GameEntry("so-long-sucker", "sucker", N_("So Long Sucker"), ("tui", "web", "printing")),
)

DEFAULT_GAME = "prison-break"  # what a scenario file or a script without "game" is for


class UnknownGame(KeyError):
    """No game of that name is registered."""


def game_entry(name: str) -> GameEntry:
    for entry in GAMES:
        if entry.name == name:
            return entry
    raise UnknownGame(f"unknown game {name!r}")


def game_package(layer: str, name: str) -> ModuleType:
    """The package of the game called ``name`` in ``layer`` ("rules", "tui", "web"...)."""
    return importlib.import_module(f"companion.{layer}.{game_entry(name).package}")


def game_rules(name: str) -> GameRules[Any]:
    """The rules (``GAME``) of the game called ``name``; :class:`UnknownGame` if none."""
    from companion.rules.core.registry import rules_in

    return rules_in(game_package("rules", name))


def script_player(name: str) -> ScriptPlayer | None:
    """``game_rules(name).play_script`` (what ``companion replay`` plays), found as the game's
    rules package offers it, without loading the rest of its rules (the room fold of a prison
    break, say) where the package loads them lazily; ``None`` for a game without scripts."""
    player: ScriptPlayer | None = getattr(game_package("rules", name), "play_script", None)
    return player
