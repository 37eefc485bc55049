"""The prison break's console: the picker, the set-up screen and the live game, handed the
phone service, the printer, the laptop's addresses and the Balance screen."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli import wiring
from companion.cli.consoles import open_by_game
from companion.cli.options import apply_wifi, check_wifi
from companion.session.contracts import Links, NetworkCheck, Service
from companion.session.create import game_label, open_session
from companion.session.paths import data_dir, session_path
from companion.session.prison import PrisonSession
from companion.session.prison.create import create_prison_session

HOLDER = wiring.HOLDER


def open_console(
    session: PrisonSession | None,
    args: argparse.Namespace,
    *,
    new: tuple[str, str | None] | None = None,
) -> int:
    """Run the game master's console: on ``session``, or the set-up screen for ``new``
    (name, scenario; scenario ``None`` for automatic: balanced for the group's size as the
    names are typed), or the session picker when both are ``None``; with the phone server in
    the console's loop unless ``--no-phones``. The Wi-Fi the options name is kept in the
    session (a new one's as its phone server starts)."""
    wifi = check_wifi(args)  # a bad combination is refused before the console opens
    if session is not None:
        apply_wifi(session, wifi)
    running: dict[str, Any] = {}  # the phone server once it listens (the network test uses it)
    network = wiring.network_check(args, running)
    if getattr(args, "no_phones", False):
        return run_console(args, session, services=[], new=new, network=network)
    start_phones, links = wiring.phone_service(args, running)
    return run_console(
        args, session, services=[start_phones], links=links, new=new, network=network
    )


def run_console(
    args: argparse.Namespace,
    session: PrisonSession | None,
    *,
    services: list[Service],
    links: Links | None = None,
    new: tuple[str, str | None] | None = None,
    network: NetworkCheck | None = None,
) -> int:
    """Build and run the console; if it stops on an error, say how to get back in. A session
    of another game picked there opens in its own console."""
    from companion.tui.prison.app import ConsoleApp, SessionShelf

    words = wiring.console_words(args)  # an unknown --lang is refused before anything opens
    wiring.check_terminal()
    folder = data_dir(args.data_dir)
    lang = words.code if getattr(args, "lang", None) else None  # sessions made here get it too

    def create(name: str, scenario: str, warden: str, prisoners: list[str]) -> PrisonSession:
        made = create_prison_session(folder, name, scenario, warden, prisoners, holder=HOLDER)
        if lang is not None:
            made.store.set_meta("lang", lang)
        return made

    shelf = SessionShelf(
        folder=folder,
        create=create,
        open=lambda name: open_session(folder, name, holder=HOLDER),
        game_of=lambda name: game_label(session_path(folder, name)),
    )
    notice = None
    pool = wiring.LazyPool()
    for _attempt in range(4):
        app = ConsoleApp(
            session,
            shelf=shelf,
            new=new,
            services=services,
            links=links,
            printer=wiring.print_cards,
            addresses=wiring.laptop_addresses(args),
            balance=wiring.balance_screen(pool, wiring.table_rates([folder])),
            notice=notice,
            lang=words,
            network=network,
        )
        try:
            app.run()
        finally:
            pool.close()
        if app.crashed is None or not app.has_session:
            break
        # One screen failed: the log is the truth, so reopen the session from it and go on.
        name = app.session.name
        app.session.close()
        session, new = open_session(folder, name, holder=HOLDER), None
        where = f" Details are in {app.crash_log}." if app.crash_log else ""
        notice = (
            f"The console recovered from an error ({app.crashed}); the game is as the log "
            f"left it.{where}"
        )
    if app.left_for is not None:
        # A session of another game was picked: its own console takes over.
        return open_by_game(app.left_for, args)
    if app.return_code:
        held = app.session.name if app.has_session else None
        again = f" Reopen it with: companion resume {held}" if held else ""
        print(
            f"companion: the console stopped after an error; the game is safe.{again}",
            file=sys.stderr,
        )
        return app.return_code
    return 0
