"""The prison break's part of the session layer: its seats (each player's secret link and seat
code) and creating its sessions; :data:`PrisonSession`, the type every prison face is handed."""

from __future__ import annotations

from typing_extensions import TypeIs

from companion.rules.prison import GAME
from companion.rules.prison.room import PrisonRoom
from companion.rules.prison.state import PrisonState
from companion.session.session import Session

PrisonSession = Session[PrisonState, PrisonRoom]  # a prison break's session, its room folded


def is_prison(session: Session) -> TypeIs[PrisonSession]:
    """Whether ``session`` (opened from a file, of any game) is a prison break's."""
    return session.game == GAME.name
