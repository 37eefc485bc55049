"""The prison break's part of the session layer: its seats (each player's secret link and seat
code) and creating its sessions; :data:`PrisonSession`, the type every prison face is handed.

:data:`PrisonSession` is made when first asked for (PEP 562), so that reading the seats of a
session file (``companion links``) does not import the game's engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.prison import NAME

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from companion.rules.prison.room import PrisonRoom
    from companion.rules.prison.state import PrisonState
    from companion.session.session import Session

    PrisonSession = Session[PrisonState, PrisonRoom]  # a prison break's session, its room folded

__all__ = ["PrisonSession", "is_prison"]


def is_prison(session: Session) -> TypeIs[PrisonSession]:
    """Whether ``session`` (opened from a file, of any game) is a prison break's."""
    return session.game == NAME


def __getattr__(name: str) -> object:
    if name == "PrisonSession":
        from companion.rules.prison.room import PrisonRoom
        from companion.rules.prison.state import PrisonState
        from companion.session.session import Session

        return Session[PrisonState, PrisonRoom]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
