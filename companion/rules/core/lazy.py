"""A game package's names loaded when first asked for (PEP 562): importing one module of a game
imports only what that module needs, and ``package.GAME`` still works."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def attributes(package: str, where: Mapping[str, tuple[str, str]]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: each name in ``where`` is read from
    ``(submodule, its name there)`` the first time it is asked for."""

    def __getattr__(name: str) -> object:
        if name in where:
            module, attribute = where[name]
            return getattr(importlib.import_module(f"{package}.{module}"), attribute)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
