"""The two-prisoner dilemma warm-up: commands, state, pairing, the engine and the views.

:data:`GAME` (in :mod:`companion.rules.dilemma.game`) is loaded when first asked for (PEP 562),
so that importing one of the game's modules imports only what that module needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.core.lazy import attributes

if TYPE_CHECKING:
    from companion.rules.dilemma.game import GAME

__all__ = ["GAME"]

__getattr__ = attributes(__name__, {name: ("game", name) for name in __all__})
