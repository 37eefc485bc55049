"""A move made from a console: done, or not done with the sentence that says why.

The rules may refuse it (``Refused``), or the session file may not take it (``StoreError``:
a full disk, a read-only file); either way nothing changed, and the console shows the sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.rules.core.game import Entry, Refused
from companion.session.store import StoreError


@dataclass(frozen=True)
class NotDone:
    reason: str
    unrecorded: bool  # the session file could not be written (not a refusal by the rules)


def attempt(move: Callable[[], Entry[Any, Any] | Refused]) -> Entry[Any, Any] | NotDone:
    """Run ``move`` (a session's submit or undo) and say how it went, never raising."""
    try:
        result = move()
    except StoreError as error:
        return NotDone(str(error), unrecorded=True)
    if isinstance(result, Refused):
        return NotDone(result.reason, unrecorded=False)
    return result
