"""The two-prisoner dilemma warm-up: commands, state, pairing, the engine and the views.

:data:`GAME` (in :mod:`companion.rules.dilemma.game`) is loaded when first asked for (PEP 562),
so that importing one of the game's modules imports only what that module needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.rules.dilemma.game import GAME

__all__ = ["GAME"]


def __getattr__(name: str) -> object:
    if name in __all__:
        return getattr(importlib.import_module("companion.rules.dilemma.game"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
