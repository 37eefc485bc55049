"""The prison break (The Prisoner's Dilemma people game): commands, events and state, the engine,
the views and the scripts.

Importing one of its modules imports only what that module needs: :data:`GAME` and the rest of
:mod:`companion.rules.prison.game` are loaded when first asked for (PEP 562), so that listing
the scenarios or reading a session's links does not build the engine's models, and
``play_script`` (``GAME.play_script``) without the room fold, so that a replay does not either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.core.lazy import attributes

if TYPE_CHECKING:
    from companion.rules.prison.game import GAME, check_scenario, initial_state
    from companion.rules.prison.script import play_prison_script as play_script

__all__ = ["GAME", "NAME", "check_scenario", "initial_state", "play_script"]
_LAZY = {  # name: (module, its name there)
    "GAME": ("game", "GAME"),
    "check_scenario": ("game", "check_scenario"),
    "initial_state": ("game", "initial_state"),
    "play_script": ("script", "play_prison_script"),
}

NAME = "prison-break"  # as written in session files, scenario files and scripts

__getattr__ = attributes(__name__, _LAZY)
