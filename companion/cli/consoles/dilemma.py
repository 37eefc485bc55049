"""The dilemma warm-up's console, with the room's phone server in its loop and the room's
QR poster on a key."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli import wiring
from companion.cli.options import (
    apply_wifi,
    check_port,
    check_public_url,
    check_wifi,
    port_problem,
)
from companion.session.contracts import RoomHost, Stopper
from companion.session.dilemma import DilemmaSession
from companion.session.links import DEFAULT_PORT


def open_console(session: DilemmaSession, args: argparse.Namespace) -> int:
    """Run the dilemma console on an open session, closed afterwards (for ``companion dilemma``,
    ``resume`` and the picker: any ``args`` with ``data_dir`` and maybe the phone options)."""
    try:
        return _run(session, args)
    finally:
        session.close()


def _run(session: DilemmaSession, args: argparse.Namespace) -> int:
    from companion.tui.dilemma.app import DilemmaApp

    host = getattr(args, "host", None) or "0.0.0.0"
    port = check_port(getattr(args, "port", None)) or DEFAULT_PORT
    public = getattr(args, "public_url", None)
    public = check_public_url(public) if public else None
    apply_wifi(session, check_wifi(args))  # for the board and the poster (P)
    lang = wiring.console_words(args)  # an unknown --lang is refused before anything opens
    wiring.check_terminal()

    running: dict[str, Any] = {}  # the phone server once it listens (the network test uses it)

    async def phones(app: RoomHost) -> Stopper:
        from companion.web.dilemma.joins import per_device
        from companion.web.dilemma.server import start_dilemma_server

        joins = per_device(getattr(args, "per_device", None))
        try:
            server = await start_dilemma_server(session, host, port, public, joins=joins)
        except OSError as error:
            raise port_problem(port, error) from None
        running["server"] = server
        app.show_room(server.join_url, server.board_url)

        async def stop() -> None:
            running.pop("server", None)
            await server.stop()

        return stop

    def poster(join_url: str) -> str:
        folder = session.store.path.parent
        path = folder / f"{session.name}-room-qr.pdf"
        return str(wiring.room_poster(session, path, join_url))

    services = [] if getattr(args, "no_phones", False) else [phones]
    network = wiring.network_check(args, running)
    app = DilemmaApp(session, services=services, poster=poster, lang=lang, network=network)
    app.run()
    if app.return_code:
        print(
            "companion: the console stopped after an error; the tournament is safe. "
            f"Reopen it with: companion dilemma {session.name}"
        )
        return 1
    return 0
