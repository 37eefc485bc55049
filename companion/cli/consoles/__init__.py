"""Each game's console, as the composition root opens it: ``cli/consoles/<package>.py`` for
every registered game with a console (see :mod:`companion.games`), each offering
``open_console(session, args) -> int`` (the exit status; the session is closed afterwards).
"""

from __future__ import annotations

import argparse
import importlib

from companion.errors import UserError
from companion.games import game_entry
from companion.session.session import Session


def open_by_game(session: Session, args: argparse.Namespace) -> int:
    """Open the console that fits the session's game (``resume`` and the picker use this)."""
    entry = game_entry(session.game)
    if "tui" not in entry.faces:
        session.close()
        raise UserError(
            f"The session {session.name!r} is a {session.game} game, which this version cannot "
            "open; update companion."
        )
    module = importlib.import_module(f"companion.cli.consoles.{entry.package}")
    status: int = module.open_console(session, args)
    return status
