"""The dilemma warm-up as the rest of the companion sees it: its :data:`GAME` (the engine, the
room fold and the scenario check)."""

from __future__ import annotations

from companion.rules.core.registry import GameRules
from companion.rules.dilemma.engine import DILEMMA, initial_state
from companion.rules.dilemma.room import ROOM
from companion.rules.dilemma.scenario import check_scenario

GAME = GameRules(
    name="dilemma",
    title="The two-prisoner dilemma",
    engine=DILEMMA,
    initial_state=initial_state,
    room=ROOM,
    is_over=lambda state: state.phase == "over",
    check_scenario=check_scenario,
)
