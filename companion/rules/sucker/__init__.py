"""So Long Sucker: commands, state, the engine, the views and the scripts.

:data:`GAME` (in :mod:`companion.rules.sucker.game`) is loaded when first asked for (PEP 562),
so that importing one of the game's modules imports only what that module needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.rules.sucker.game import GAME, ROOM, play_script

__all__ = ["GAME", "ROOM", "play_script"]


def __getattr__(name: str) -> object:
    if name in __all__:
        return getattr(importlib.import_module("companion.rules.sucker.game"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
