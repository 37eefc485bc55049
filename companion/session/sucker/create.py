"""Opening a So Long Sucker session; another game's session is refused in one sentence."""

from __future__ import annotations

from pathlib import Path

from companion.errors import UserError
from companion.session.create import open_session
from companion.session.sucker import SuckerSession, is_sucker


def open_sucker_session(
    folder: Path, name: str, *, holder: str | None = None
) -> SuckerSession:
    """The saved So Long Sucker session ``name``; another game's session is refused."""
    session = open_session(folder, name, holder=holder)
    if not is_sucker(session):
        session.close()
        raise UserError(
            f"The session {name!r} is a {session.game} game, not So Long Sucker; "
            "open it with 'companion resume' or pick another name."
        )
    return session
