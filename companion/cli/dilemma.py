"""``companion dilemma NAME``: the two-prisoner dilemma warm-up, a tournament for the whole room.

Creates the session the first time (from ``scenarios/dilemma.toml``), reopens it after that
(also after a crash: the log holds every join and choice), runs the phone server inside the
console's event loop and shows the room's QR code. ``--poster FILE`` writes a one-page PDF of
the room's QR code instead.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.errors import UserError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "dilemma", help="the two-prisoner dilemma warm-up: a tournament on the room's phones"
    )
    p.add_argument("name", help="the session's name (created the first time, reopened after)")
    p.add_argument("--host", default="0.0.0.0", help="listen on this address (default: all)")
    p.add_argument("--port", type=int, default=None, help="listen on this port (default: 8765)")
    p.add_argument("--rounds", type=int, default=None, help="rounds to play (new sessions only)")
    p.add_argument("--scenario", default="dilemma", help="the scenario file (default: dilemma)")
    p.add_argument("--public-url", metavar="URL", help="pin the room link's base URL")
    p.add_argument("--no-phones", action="store_true", help="run without the phone server")
    p.add_argument("--poster", metavar="FILE.pdf", help="write the room's QR poster and exit")
    p.set_defaults(func=run_dilemma)


def load_dilemma_rules(scenario: str, rounds: int | None) -> Any:
    """The rules of a dilemma scenario file, with ``rounds`` if given; UserError otherwise."""
    from companion.rules.dilemma.scenario import rules_from_mapping, with_rounds
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.scenario_files import read_toml, scenario_path

    try:
        path = scenario_path(scenario)
        data = read_toml(path)
        if data.get("game") != "dilemma":
            raise ScenarioError(
                f"The scenario {scenario!r} is for {data.get('game', 'prison-break')!r}, "
                "not the dilemma; use --scenario dilemma."
            )
        rules = rules_from_mapping(data, path.name)
        if rounds is not None:
            rules = with_rounds(rules, rounds, "--rounds")
    except ScenarioError as error:
        raise UserError(str(error)) from None
    return rules


def open_or_create(
    folder: Path, name: str, scenario: str, rounds: int | None, *, holder: str | None = None
) -> Any:
    """The dilemma session called ``name``: reopened if it exists, else created (held for
    ``holder`` alone while open, see ``open_session``)."""
    from companion.cli.sessions import hold_session, open_session
    from companion.session.paths import session_path
    from companion.session.session import Session
    from companion.session.store import StoreError

    path = session_path(folder, name)
    if path.exists():
        session = open_session(folder, name, holder=holder)
        if session.game != "dilemma":
            session.close()
            raise UserError(
                f"The session {name!r} is a {session.kind.title} session; "
                f"open it with 'companion resume {name}' or pick another name."
            )
        have = session.state.rules.rounds
        if rounds is not None and rounds != have:
            session.close()
            raise UserError(
                f"The session {name!r} already exists with {have} rounds; --rounds applies only "
                "to a new session (leave it out to resume, or pick another name)."
            )
        return session
    rules = load_dilemma_rules(scenario, rounds)
    try:
        setup = {"scenario": scenario, "rules": rules.model_dump()}
        return Session.create(path, "dilemma", setup, lock=hold_session(path, holder))
    except StoreError as error:
        raise UserError(str(error)) from None


def room_poster(session: Any, path: Path, join_url: str) -> Path:
    from companion.printing.dilemma.poster import write_poster
    from companion.rules.dilemma.views import board

    return write_poster(path, join_url, board(session.state)["sentences"])


def run_dilemma(args: argparse.Namespace) -> int:
    from companion.cli.links import check_port, check_public_url
    from companion.session.links import DEFAULT_PORT
    from companion.session.paths import data_dir

    port = check_port(args.port) or DEFAULT_PORT
    public_url = check_public_url(args.public_url) if args.public_url else None
    if args.rounds is not None and not 1 <= args.rounds <= 100:
        raise UserError(f"--rounds {args.rounds} is out of range; play 1 to 100 rounds.")
    folder = data_dir(args.data_dir)
    session = open_or_create(
        folder, args.name, args.scenario, args.rounds, holder="companion dilemma"
    )
    try:
        if args.poster:
            from companion.web.common.address import base_url

            base = public_url or session.meta().get("public_url") or base_url(args.host, port)
            path = room_poster(session, Path(args.poster), f"{str(base).rstrip('/')}/join-room")
            print(f"Wrote the room's QR poster to {path}.")
            return 0
        return open_dilemma_console(session, args)
    finally:
        session.close()


def open_dilemma_console(session: Any, args: argparse.Namespace) -> int:
    """Run the dilemma console on an open session (also for ``companion resume`` and the
    picker: any ``args`` with ``data_dir`` and, optionally, the phone options)."""
    from companion.cli.links import check_port, check_public_url
    from companion.cli.start import check_terminal
    from companion.session.links import DEFAULT_PORT
    from companion.tui.dilemma.app import DilemmaApp

    host = getattr(args, "host", None) or "0.0.0.0"
    port = check_port(getattr(args, "port", None)) or DEFAULT_PORT
    public = getattr(args, "public_url", None)
    public = check_public_url(public) if public else None
    check_terminal()

    async def phones(app: Any) -> Any:
        from companion.cli.serve import port_problem
        from companion.web.dilemma.server import start_dilemma_server

        try:
            server = await start_dilemma_server(session, host, port, public)
        except OSError as error:
            raise port_problem(port, error) from None
        app.show_room(server.join_url, server.board_url)
        return server.stop

    def poster(join_url: str) -> str:
        folder = session.store.path.parent
        return str(room_poster(session, folder / f"{session.name}-room-qr.pdf", join_url))

    services = [] if getattr(args, "no_phones", False) else [phones]
    app = DilemmaApp(session, services=services, poster=poster)
    app.run()
    if app.return_code:
        print(
            "companion: the console stopped after an error; the tournament is safe. "
            f"Reopen it with: companion dilemma {session.name}"
        )
        return 1
    return 0
