"""So Long Sucker as the rest of the companion sees it: its :data:`GAME` (the engine, the room,
which sees everything, and the script player)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.core.registry import GameRules, ScenarioLoader
from companion.rules.core.room import Happening, RoomRules
from companion.rules.sucker.engine import SO_LONG_SUCKER, initial_state
from companion.rules.sucker.script import play_sucker_script
from companion.rules.sucker.state import SuckerState


def play_script(data: Mapping[str, Any], load_scenario: ScenarioLoader, /) -> dict[str, Any]:
    """A So Long Sucker script (it names no scenario)."""
    return play_sucker_script(data)


def _room_start(state: SuckerState) -> SuckerState:
    return state


def _room_after(room: SuckerState, happening: Happening, state: SuckerState) -> SuckerState:
    """Everything at a So Long Sucker table is in plain sight: the room sees the game."""
    return state


ROOM: RoomRules[SuckerState, SuckerState] = RoomRules(_room_start, _room_after)


GAME = GameRules(
    name="so-long-sucker",
    title="So Long Sucker",
    engine=SO_LONG_SUCKER,
    initial_state=initial_state,
    room=ROOM,
    is_over=lambda state: state.over,
    play_script=play_script,
)
