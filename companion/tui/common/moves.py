"""A move made from a console: done, or not done with the sentence that says why.

The rules may refuse it (``Refused``), or the session file may not take it (``StoreError``:
a full disk, a read-only file); either way nothing changed, and the console shows the sentence
in its language (:meth:`NotDone.said`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.language import Language
from companion.rules.core.game import Entry, Refused
from companion.session.store import StoreError


@dataclass(frozen=True)
class NotDone:
    reason: str  # in English (the rules' reason, or the session file's problem)
    unrecorded: bool  # the session file could not be written (not a refusal by the rules)
    refused: Refused | None = None  # the rules' refusal, when they refused it

    def said(self, lang: Language) -> str:
        """Why it was not done, in ``lang``: the rules' refusal translated (the session
        file's problem stays as the system says it)."""
        return lang.refused(self.refused) if self.refused is not None else self.reason


def attempt(move: Callable[[], Entry[Any, Any] | Refused]) -> Entry[Any, Any] | NotDone:
    """Run ``move`` (a session's submit or undo) and say how it went, never raising."""
    try:
        result = move()
    except StoreError as error:
        return NotDone(str(error), unrecorded=True)
    if isinstance(result, Refused):
        return NotDone(result.reason, unrecorded=False, refused=result)
    return result
