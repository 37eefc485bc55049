"""Opening a So Long Sucker session; another game's session is refused in one sentence."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import UserError
from companion.session.create import open_session
from companion.session.session import Session

if TYPE_CHECKING:
    from companion.rules.sucker.state import SuckerState


def open_sucker_session(
    folder: Path, name: str, *, holder: str | None = None
) -> Session[SuckerState]:
    """The saved So Long Sucker session ``name``; another game's session is refused."""
    session = open_session(folder, name, holder=holder)
    if session.game != "so-long-sucker":
        session.close()
        raise UserError(
            f"The session {name!r} is a {session.game} game, not So Long Sucker; "
            "open it with 'companion resume' or pick another name."
        )
    return session
