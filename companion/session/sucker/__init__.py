"""So Long Sucker's part of the session layer: opening its sessions; :data:`SuckerSession`,
the type the referee's console is handed."""

from __future__ import annotations

from typing_extensions import TypeIs

from companion.rules.sucker import GAME
from companion.rules.sucker.state import SuckerState
from companion.session.session import Session

SuckerSession = Session[SuckerState, SuckerState]  # the table is its own room: all is public


def is_sucker(session: Session) -> TypeIs[SuckerSession]:
    """Whether ``session`` (opened from a file, of any game) is a So Long Sucker game's."""
    return session.game == GAME.name
