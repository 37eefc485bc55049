"""The prison break (The Prisoner's Dilemma people game): commands, events and state, the engine,
the views and the scripts.

Importing one of its modules imports only what that module needs: :data:`GAME` and the rest of
:mod:`companion.rules.prison.game` are loaded when first asked for (PEP 562), so that listing
the scenarios or reading a session's links does not build the engine's models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.rules.prison.game import GAME, check_scenario, initial_state

__all__ = ["GAME", "NAME", "check_scenario", "initial_state"]
_LAZY = ("GAME", "check_scenario", "initial_state")  # in companion.rules.prison.game

NAME = "prison-break"  # as written in session files, scenario files and scripts


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(importlib.import_module("companion.rules.prison.game"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
