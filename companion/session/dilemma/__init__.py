"""The dilemma warm-up's part of the session layer: its players' secret links and opening or
creating its sessions; :data:`DilemmaSession`, the type every warm-up face is handed."""

from __future__ import annotations

from typing_extensions import TypeIs

from companion.rules.dilemma import GAME
from companion.rules.dilemma.room import DilemmaRoom
from companion.rules.dilemma.state import DilemmaState
from companion.session.session import Session

DilemmaSession = Session[DilemmaState, DilemmaRoom]  # a warm-up's session, its room folded


def is_dilemma(session: Session) -> TypeIs[DilemmaSession]:
    """Whether ``session`` (opened from a file, of any game) is a dilemma warm-up's."""
    return session.game == GAME.name
