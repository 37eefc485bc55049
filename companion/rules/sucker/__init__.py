"""So Long Sucker: commands, state, the engine, the views and the scripts.

:data:`GAME` (in :mod:`companion.rules.sucker.game`) is loaded when first asked for (PEP 562),
so that importing one of the game's modules imports only what that module needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.core.lazy import attributes

if TYPE_CHECKING:
    from companion.rules.sucker.game import GAME, ROOM, play_script

__all__ = ["GAME", "ROOM", "play_script"]

__getattr__ = attributes(__name__, {name: ("game", name) for name in __all__})
