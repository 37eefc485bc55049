"""The dilemma warm-up's console, attached to the room's night's server, with the room's QR
poster on a key."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli import night, options, wiring
from companion.cli.options import apply_wifi, check_wifi
from companion.session.dilemma import DilemmaSession


def open_console(session: DilemmaSession, args: argparse.Namespace) -> int:
    """Run the dilemma console on an open session, closed afterwards (for ``companion dilemma``,
    ``resume`` and the picker: any ``args`` with ``data_dir`` and maybe the phone options)."""
    try:
        return _run(session, args)
    finally:
        session.close()


def _run(session: DilemmaSession, args: argparse.Namespace) -> int:
    from companion.tui.dilemma.app import DilemmaApp

    apply_wifi(session, check_wifi(args))  # for the board and the poster (P)
    lang = options.console_words(args)  # an unknown --lang is refused before anything opens
    wiring.check_terminal()

    running: dict[str, Any] = {}  # the night's server the console is attached to
    session = wiring.attached(night.hand_over(session, args), running)

    def poster(join_url: str) -> str:
        folder = session.store.path.parent
        path = folder / f"{session.name}-room-qr.pdf"
        return str(wiring.room_poster(session, path, join_url))

    network = wiring.network_check(args, running)
    app = DilemmaApp(session, poster=poster, lang=lang, network=network)
    try:
        app.run()
    finally:
        session.close()
    _ = lang
    wiring.say_still_served(session, _)
    if app.return_code:
        print("companion: " + _(
            "the console stopped after an error; the tournament is safe. Reopen it with: "
            "companion dilemma %(session)s", session=session.name,
        ))
        return 1
    return 0
