"""The seams between the rules and the faces are typed: what a game's room fold and its views
return is a named type (a dataclass or a TypedDict), never ``Any`` nor a bare ``dict[str, Any]``
(mypy --strict then checks every face that reads them)."""

from __future__ import annotations

import importlib
import inspect
import typing
from types import ModuleType
from typing import Any

import pytest

from companion.games import GAMES, game_rules


def _loose(hint: Any) -> bool:
    """Whether ``hint`` lets anything through: Any, or a mapping of anything."""
    if hint is Any:
        return True
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (dict, typing.Mapping) or str(origin).endswith("Mapping'>"):
        return Any in args
    return any(_loose(a) for a in args) if origin in (typing.Union, type(int | str)) else False


def _returns(module: ModuleType) -> dict[str, Any]:
    found = {}
    for name, function in vars(module).items():
        if name.startswith("_") or not inspect.isfunction(function):
            continue
        if function.__module__ != module.__name__:
            continue
        found[name] = typing.get_type_hints(function).get("return")
    return found


@pytest.mark.parametrize("name", [entry.name for entry in GAMES])
def test_each_games_room_fold_returns_its_own_type(name: str) -> None:
    room = game_rules(name).room
    for part in (room.start, room.after):
        hint = typing.get_type_hints(part).get("return")
        assert hint is not None and not _loose(hint), f"{name}: {part.__name__} -> {hint}"


@pytest.mark.parametrize(
    "module",
    [
        f"companion.rules.{entry.package}.{part}"
        for entry in GAMES
        for part in ("views", "leaderboard", "room")
        if importlib.util.find_spec(f"companion.rules.{entry.package}.{part}") is not None
    ]
    + ["companion.web.prison.phones"],
)
def test_no_view_returns_anything(module: str) -> None:
    loose = {
        name: hint for name, hint in _returns(importlib.import_module(module)).items()
        if hint is not None and _loose(hint)
    }
    assert not loose, f"{module} returns untyped data from {sorted(loose)}"


def test_the_check_itself_sees_an_untyped_return() -> None:
    assert _loose(Any) and _loose(dict[str, Any]) and _loose(dict[str, Any] | None)
    assert not _loose(dict[str, int]) and not _loose(int | None)
