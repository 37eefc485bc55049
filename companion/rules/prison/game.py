"""The prison break as the rest of the companion sees it: its :data:`GAME` (the engine, the room
fold, the scenario check and the script player), and its first state from a session's setup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.core.registry import GameRules
from companion.rules.prison.engine import PRISON_BREAK, new_game
from companion.rules.prison.room import ROOM
from companion.rules.prison.scenario import PrisonRules, rules_from_mapping
from companion.rules.prison.script import play_prison_script
from companion.rules.prison.state import PrisonState


def initial_state(setup: Mapping[str, Any]) -> PrisonState:
    """The first state from a session setup ``{"rules": ..., "warden": ..., "prisoners": ...}``."""
    rules = PrisonRules.model_validate(setup["rules"])
    return new_game(rules, setup["warden"], list(setup["prisoners"]))


def check_scenario(data: Mapping[str, Any], where: str) -> str:
    """Validate a parsed prison-break scenario; a one-line summary, or ScenarioError."""
    r = rules_from_mapping(data, where)
    return (
        f"prison break for {r.min_prisoners}-{r.max_prisoners} prisoners, "
        f"{r.nights_to_escape} nights to escape, {r.parole_tokens_to_win} parole tokens to win"
    )


GAME = GameRules(
    name="prison-break",  # the package's NAME, which a test keeps equal
    title="The Prisoner's Dilemma (prison break)",
    engine=PRISON_BREAK,
    initial_state=initial_state,
    room=ROOM,
    is_over=lambda state: state.over,
    check_scenario=check_scenario,
    play_script=play_prison_script,
)
