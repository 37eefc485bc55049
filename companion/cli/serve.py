"""``companion serve NAME``: the phone server alone, without the console (for testing, or to
serve phones from a second laptop)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import UserError


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="serve the players' phones for a session, without the console")
    p.add_argument("name", help="the session's name")
    add_phone_options(p)
    p.set_defaults(func=run_serve)


def add_phone_options(p: Any) -> None:
    """--host, --port and --public-url, for ``serve`` and every command that opens the console."""
    p.add_argument("--host", default="0.0.0.0", help="phones: listen here (default: all)")
    p.add_argument("--port", type=int, default=None, help="phones: this port (default: 8765)")
    p.add_argument("--public-url", metavar="URL", help="phones: pin the links' base URL")


def port_problem(port: int, error: OSError) -> UserError:
    import errno

    if error.errno == errno.EADDRINUSE or "in use" in str(error):
        why, fix = "it is already in use", "pick another with --port or stop the program using it"
    elif error.errno == errno.EACCES:
        why, fix = "permission denied", "pick a port above 1023 with --port"
    elif error.errno == errno.EADDRNOTAVAIL or "assign" in str(error):
        why, fix = "this laptop has no such address", "check --host or leave it out"
    else:
        why, fix = error.strerror or str(error), "pick another with --port"
    return UserError(f"The phone server cannot listen on port {port}: {why}; {fix}.")


def phone_service(args: argparse.Namespace) -> tuple[Any, Any]:
    """The phone server as a console service, and the extra links for the Seats screen.

    Returns ``(start, links)``: ``await start(app)`` starts the server on ``app.session`` inside
    the console's loop and returns its async stopper; ``links()`` lists the board, the join page
    and the laptop's other addresses (for --public-url when phones cannot reach the first one).
    """
    from companion.cli.links import check_port, check_public_url
    from companion.session.links import DEFAULT_PORT

    port = check_port(getattr(args, "port", None)) or DEFAULT_PORT
    host = getattr(args, "host", None) or "0.0.0.0"
    given = getattr(args, "public_url", None)
    public_url = check_public_url(given) if given else None
    running: dict[str, Any] = {}

    async def start(app: Any) -> Any:
        from companion.session.links import address_changed, printed_base
        from companion.web.prison.server import start_phone_server

        try:
            server = await start_phone_server(app.session, host, port, public_url)
        except OSError as error:
            raise port_problem(port, error) from None
        running["server"] = server
        if address_changed(app.session):
            app.notify(
                f"The cards were printed with {printed_base(app.session)} but the links now start "
                f"with {server.base_url}; the banner at the top says what to do.",
                title="The address changed",
                severity="warning",
                timeout=15,
            )
        return server.stop

    def links() -> list[dict[str, str]]:
        from companion.session.seats import board_url, join_url
        from companion.web.common.address import base_url, candidates

        server = running.get("server")
        if server is None:
            return []
        base = server.base_url
        out = [{"label": "Board", "url": board_url(base)}, {"label": "Join", "url": join_url(base)}]
        if host in ("0.0.0.0", "::", ""):
            for c in candidates():
                other = base_url(c.address, server.port)
                if other != base and not c.address.startswith("127."):
                    out.append({"label": f"Also reachable ({c.interface})", "url": other})
        return out

    return start, links


def run_serve(args: argparse.Namespace) -> int:
    import asyncio
    import signal

    from companion.cli.links import check_port, check_public_url
    from companion.cli.sessions import open_session
    from companion.session.links import DEFAULT_PORT
    from companion.session.paths import data_dir
    from companion.session.seats import board_url, join_url, seat_url, seats_of
    from companion.web.prison.server import start_phone_server

    port = check_port(args.port) or DEFAULT_PORT
    public_url = check_public_url(args.public_url) if args.public_url else None
    session = open_session(data_dir(args.data_dir), args.name, holder="companion serve")

    async def serve() -> None:
        try:
            server = await start_phone_server(session, args.host, port, public_url)
        except OSError as error:
            raise port_problem(port, error) from None
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
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
