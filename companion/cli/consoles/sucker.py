"""The So Long Sucker referee's console."""

from __future__ import annotations

import argparse

from companion.cli import night, options, wiring
from companion.session.sucker import SuckerSession


def open_console(session: SuckerSession, args: argparse.Namespace) -> int:
    """The referee on an open session (closed afterwards)."""
    from companion.tui.sucker.app import SuckerApp

    try:
        lang = options.console_words(args)  # an unknown --lang is refused first
        wiring.check_terminal()
        session = night.hand_over(session, args)
        app = SuckerApp(session, lang=lang)
        app.run()
    finally:
        session.close()
    _ = lang
    wiring.say_still_served(session, _)
    if app.return_code:
        print("companion: " + _(
            "the referee stopped after an error; the game is safe. Reopen it with: companion "
            "resume %(session)s", session=session.name,
        ))
        return app.return_code
    return 0
