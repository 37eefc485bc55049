"""``companion check-network``: the venue preflight. Lists the laptop's addresses (which one the
phones should use, and why), opens the game's port, serves a test page with its QR code in the
terminal, and says "reached from 192.168.1.23 in 40 ms" when a phone opens it; after a minute
without one, the likely causes with the fix for this laptop's system. Ctrl+C stops it."""

from __future__ import annotations

import argparse

from companion.cli.commands import summary
from companion.cli.options import check_port, port_problem

GREEN, RESET = "\033[32m", "\033[0m"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "check-network",
        help=summary("check-network"),
        description="Serve a test page on the game's port and show its QR code; open it on "
        "your phone, on the players' Wi-Fi, to see whether the phones will reach the game.",
    )
    p.add_argument("--host", default="0.0.0.0", help="listen here (default: all)")
    p.add_argument("--port", type=int, default=None,
                   help="the port the game will use (default: 8765)")
    p.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                   help="list the likely causes after this long without a phone (default: 60)")
    p.set_defaults(func=run_check_network)


def run_check_network(args: argparse.Namespace) -> int:
    import asyncio
    import sys

    from companion.cli.wiring import stop_on_signals
    from companion.session.links import DEFAULT_PORT
    from companion.tui.common import network
    from companion.tui.common.qr import qr_lines
    from companion.web.common.address import base_url, candidates
    from companion.web.common.preflight import CHECK_PATH, Reached, start_check_server

    port = check_port(args.port) or DEFAULT_PORT
    wait = network.WAIT_SECONDS if args.wait is None else max(0.0, args.wait)
    wildcard = args.host in ("0.0.0.0", "::", "")
    # the laptop's own addresses, whatever it listens on (the links use them)
    found = network.addresses_of([(c.interface, c.address) for c in candidates()])
    colour = sys.stdout.isatty()

    def say(line: str = "") -> None:
        print(line, flush=True)

    async def check() -> int:
        say("This laptop's addresses:")
        for line in network.address_lines(found):
            say(f"  {line}")
        if not wildcard:
            for line in network.listening_lines(args.host, found):
                say(line)
        try:
            server = await start_check_server(args.host, port)
        except OSError as error:
            raise port_problem(port, error) from None
        chosen = network.best(found)
        host = chosen.address if chosen is not None and wildcard else args.host
        url = f"{base_url(host, server.port)}{CHECK_PATH}"
        say(f"Port {server.port} is open.")
        say()
        for line in qr_lines(url):
            say(f"  {line}")
        say(f"  {url}")
        say()
        say(network.waiting_line(url))
        def reached(visit: Reached) -> None:
            line = network.reached_line(visit.address, visit.ms)
            green = colour and not network.is_loopback(visit.address)
            say(f"{GREEN}{line}{RESET}" if green else line)

        server.probe.listen(reached)
        phone = asyncio.Event()  # a visit from anything but this laptop itself
        server.probe.listen(lambda visit: None if network.is_loopback(visit.address)
                            else phone.set())
        stop = asyncio.Event()
        stop_on_signals(asyncio.get_running_loop(), stop)
        try:
            waiting = asyncio.ensure_future(stop.wait())
            done, _pending = await asyncio.wait(
                {waiting, asyncio.ensure_future(phone.wait())}, timeout=wait,
                return_when=asyncio.FIRST_COMPLETED,
            )
            if not done:
                say()
                for line in network.cause_lines(sys.platform, server.port):
                    say(line)
                say()
                say(network.waiting_line(url))
            say("Press Ctrl+C to stop.")
            await waiting
        finally:
            await server.close()
        return 0 if phone.is_set() else 1

    status = asyncio.run(check())
    print("Stopped.")
    return status
