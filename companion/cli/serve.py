"""``companion serve NAME``: the night's server in the foreground.

The one process that owns a night: it holds the session's lock, is the only writer of its log,
and serves the phones and the board (the prison break's and the warm-up's pages) and the game
master's desk (:mod:`companion.web.common.desk`), which every console attaches to. The console's
commands (``resume``, ``new``, ``demo``, ``dilemma``, ``sucker``, ``rehearse``) start this same
server detached from the terminal (:mod:`companion.cli.night`) when the night is not served yet.

It stops on Ctrl+C or a terminate signal, on ``companion stop NAME`` (the desk's stop), when
its session file disappears, and once its game is over and no console has been attached for
``COMPANION_UNWATCHED_STOP`` seconds (default 600).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from companion.cli.commands import summary
from companion.cli.options import (
    PHONE_GAMES,
    PORT_AS_BEFORE,
    check_port,
    check_public_url,
    phone_options,
    port_problem,
    served_as_before,
)

HOLDER = "the night's server"
UNWATCHED_ENV = "COMPANION_UNWATCHED_STOP"
UNWATCHED_SECONDS = 600.0
WATCH_SECONDS = 1.0  # how often the server looks at its session file and its consoles


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        parents=[phone_options(None, "listen here (default: where the session served last)",
                               PORT_AS_BEFORE.removeprefix("phones: "))],
        help=summary("serve"),
    )
    p.add_argument("name", help="the session's name")
    p.add_argument("--per-device", type=int, default=None, metavar="N",
                   help="warm-up: players present at once from one address (0: no limit)")
    p.add_argument("--quiet", action="store_true",
                   help="print nothing but errors (as when a console starts it)")
    # a rehearsal's bots, played by this server (companion rehearse sets them)
    p.add_argument("--bots", metavar="MIX", help=argparse.SUPPRESS)
    p.add_argument("--bots-seed", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--bots-pace", type=float, default=4.0, help=argparse.SUPPRESS)
    p.set_defaults(func=run_serve)


def unwatched_seconds() -> float:
    try:
        return float(os.environ.get(UNWATCHED_ENV, UNWATCHED_SECONDS))
    except ValueError:
        return UNWATCHED_SECONDS


def run_serve(args: argparse.Namespace) -> int:
    import asyncio

    from companion.session.create import open_session
    from companion.session.paths import data_dir

    session = open_session(data_dir(args.data_dir), args.name, holder=HOLDER)
    try:
        served_as_before(args, session)  # the printed links keep working
        if session.game not in PHONE_GAMES:
            game_master_only(args, session)
        check_port(args.port)
        if args.public_url:
            check_public_url(args.public_url)
        asyncio.run(_serve(session, args))
    finally:
        session.close()
    if not args.quiet:
        from companion.cli.options import cli_words

        _ = cli_words(args)
        print(_("Stopped."))
    return 0


def game_master_only(args: argparse.Namespace, session: Any) -> None:
    """A game without players' phones (So Long Sucker) still serves the game master's phone:
    on the laptop's Wi-Fi (all its addresses, as the phones' games; ``--host 127.0.0.1`` keeps
    it to this laptop), on the port it had last time when it listened there, so the phone's
    link outlives a restart of the night's server."""
    from companion.session.links import served_on

    args.host = args.host or "0.0.0.0"
    last = served_on(session)
    if args.port is None and last is not None and last[0] == args.host:
        args.port = last[1]


async def _serve(session: Any, args: argparse.Namespace) -> None:
    import asyncio
    import contextlib
    import time

    from companion.cli.wiring import stop_on_signals
    from companion.session.links import DEFAULT_PORT
    from companion.session.night import (
        NightRecord,
        clear_record,
        game_master_key,
        phone_secret,
        reach_address,
        write_record,
    )
    from companion.web.common.desk import Desk

    port = check_port(args.port) or (DEFAULT_PORT if session.game in PHONE_GAMES else 0)
    public_url = check_public_url(args.public_url) if args.public_url else None
    path = session.store.path
    stop = asyncio.Event()
    stop_on_signals(asyncio.get_running_loop(), stop)
    links: dict[str, str] = {}
    desk = Desk(session, game_master_key(path), lambda: dict(links), stop.set,
                phone=phone_secret(path))
    try:
        server = await _start(session, args.host, port, public_url, desk, args)
    except OSError as error:
        raise port_problem(port, error) from None
    links.update(server.links())
    record = NightRecord(os.getpid(), args.host, server.port, reach_address(args.host),
                         time.time())
    write_record(path, record)
    if not args.quiet:
        _say_served(session, args, server)
    bots = None
    if getattr(args, "bots", None):
        from companion.cli.night import play_bots

        bots = asyncio.create_task(
            play_bots(session, record.url, args.bots, args.bots_seed, args.bots_pace)
        )
    unwatched = unwatched_seconds()
    try:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), WATCH_SECONDS)
            if not path.exists():
                break  # the session was deleted: nothing left to serve
            if session.rules.is_over(session.state) and desk.unwatched_for() >= unwatched:
                break  # the game is over and nobody watches it
    finally:
        if bots is not None:
            bots.cancel()
            with contextlib.suppress(BaseException):
                await bots
        desk.close()
        await asyncio.sleep(0)  # the streams say goodbye
        await server.stop()
        clear_record(path, os.getpid())


class _Served:
    """The running server of any game, as the night needs it."""

    def __init__(self, server: Any, links: dict[str, str]) -> None:
        self.server = server
        self.port: int = server.port
        self._links = links

    def links(self) -> dict[str, str]:
        return dict(self._links)

    async def stop(self) -> None:
        await self.server.stop()


async def _start(
    session: Any, host: str, port: int, public_url: str | None, desk: Any,
    args: argparse.Namespace,
) -> _Served:
    """The game's own server (phones and board) with the desk; for a game without players'
    phones (So Long Sucker), the desk and the game master's phone's page."""
    if session.game == "prison-break":
        from companion.session.prison.seats import board_url, join_url
        from companion.web.prison.server import start_phone_server

        server = await start_phone_server(session, host, port, public_url, desk=desk)
        base = server.base_url
        return _Served(server, {"base": base, "board": board_url(base), "join": join_url(base)})
    if session.game == "dilemma":
        from companion.web.dilemma.joins import per_device
        from companion.web.dilemma.server import start_dilemma_server

        joins = per_device(getattr(args, "per_device", None))
        dilemma = await start_dilemma_server(session, host, port, public_url, joins=joins,
                                             desk=desk)
        return _Served(dilemma, {"base": dilemma.base_url, "board": dilemma.board_url,
                                 "join": dilemma.join_url})
    from companion.web.sucker.server import start_sucker_server

    referee = await start_sucker_server(session, host, port, desk)
    return _Served(referee, {"base": referee.base_url})


def _say_served(session: Any, args: argparse.Namespace, server: _Served) -> None:
    from companion.cli.options import cli_words
    from companion.cli.wiring import ROLES

    _ = cli_words(args)
    links = server.links()
    said = {"session": args.name, "host": args.host, "port": str(server.port)}
    if "board" in links:
        print(_("Serving phones for %(session)s on %(host)s:%(port)s.", **said), flush=True)
    else:
        print(_("Serving %(session)s on %(host)s:%(port)s.", **said), flush=True)
    if session.game == "prison-break":
        from companion.session.prison.seats import seat_url, seats_of

        for seat in seats_of(session):
            role = _(ROLES.get(seat.role, seat.role))
            code = _("code %(code)s", code=seat.code)
            print(f"  {seat.name} ({role}): {seat_url(links['base'], seat)}  {code}")
    if "board" in links:
        print(_("Board: %(board)s   Join: %(join)s", board=links["board"], join=links["join"]))
    print(_("Press Ctrl+C to stop."), flush=True)

