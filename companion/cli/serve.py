"""``companion serve NAME``: the phone server alone, without the console (for testing, or to
serve phones from a second laptop)."""

from __future__ import annotations

import argparse

from companion.cli.options import (
    PORT_AS_BEFORE,
    check_port,
    check_public_url,
    phone_options,
    port_problem,
    served_as_before,
)
from companion.errors import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        parents=[phone_options(None, "listen here (default: where the session served last)",
                               PORT_AS_BEFORE.removeprefix("phones: "))],
        help="serve the players' phones for a session, without the console",
    )
    p.add_argument("name", help="the session's name")
    p.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    import asyncio

    from companion.cli.wiring import stop_on_signals
    from companion.session.create import open_session
    from companion.session.links import DEFAULT_PORT
    from companion.session.paths import data_dir
    from companion.session.prison import is_prison
    from companion.session.prison.seats import board_url, join_url, seat_url, seats_of
    from companion.web.prison.server import start_phone_server

    session = open_session(data_dir(args.data_dir), args.name, holder="companion serve")
    try:
        if not is_prison(session):
            raise UserError(
                f"The session {args.name!r} is a {session.game} game; 'companion serve' serves "
                "prison-break sessions (the warm-up's phones come with 'companion dilemma')."
            )
        served_as_before(args, session)
        port = check_port(args.port) or DEFAULT_PORT
        public_url = check_public_url(args.public_url) if args.public_url else None
    except Exception:
        session.close()
        raise

    async def serve() -> None:
        try:
            server = await start_phone_server(session, args.host, port, public_url)
        except OSError as error:
            raise port_problem(port, error) from None
        stop = asyncio.Event()
        stop_on_signals(asyncio.get_running_loop(), stop)
        base = server.base_url
        print(f"Serving phones for {args.name} on {args.host}:{server.port}.", flush=True)
        for seat in seats_of(session):
            print(f"  {seat.name} ({seat.role}): {seat_url(base, seat)}  code {seat.code}")
        print(f"Board: {board_url(base)}   Join with a seat code: {join_url(base)}")
        print("Press Ctrl+C to stop.", flush=True)
        try:
            await stop.wait()
        finally:
            await server.stop()

    try:
        asyncio.run(serve())
    finally:
        session.close()
    print("Stopped.")
    return 0
