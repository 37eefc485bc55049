"""The prison break's console: the picker, the set-up screen and the live game, attached to
each session's night's server, handed the printer, the laptop's addresses and the Balance
screen."""

from __future__ import annotations

import argparse
import sys
from typing import Any, cast

from companion.cli import night, options, wiring
from companion.cli.consoles import open_by_game
from companion.cli.options import apply_wifi, check_wifi
from companion.session.create import game_label, open_session
from companion.session.paths import data_dir, session_path
from companion.session.prison import PrisonSession
from companion.session.prison.create import create_prison_session
from companion.tui.common.contracts import NetworkCheck

HOLDER = wiring.HOLDER


def open_console(
    session: PrisonSession | None,
    args: argparse.Namespace,
    *,
    new: tuple[str, str | None] | None = None,
) -> int:
    """Run the game master's console: on ``session``, or the set-up screen for ``new``
    (name, scenario; scenario ``None`` for automatic: balanced for the group's size as the
    names are typed), or the session picker when both are ``None``. Each session the console
    plays is served by its night's server (started detached if need be), which the console
    attaches to, unless ``--no-phones``. The Wi-Fi the options name is kept in the session."""
    wifi = check_wifi(args)  # a bad combination is refused before the console opens
    running: dict[str, Any] = {}  # the night's server the console is attached to
    if session is not None:
        apply_wifi(session, wifi)
        session = wiring.attached(night.hand_over(session, args), running)
    network = wiring.network_check(args, running)
    return run_console(args, session, running, new=new, network=network, wifi=wifi)


def run_console(
    args: argparse.Namespace,
    session: PrisonSession | None,
    running: dict[str, Any] | None = None,
    *,
    new: tuple[str, str | None] | None = None,
    network: NetworkCheck | None = None,
    wifi: Any = None,
) -> int:
    """Build and run the console; if it stops on an error, say how to get back in. A session
    of another game picked there opens in its own console."""
    from companion.tui.prison.app import ConsoleApp, SessionShelf

    words = options.console_words(args)  # an unknown --lang is refused before anything opens
    wiring.check_terminal()
    folder = data_dir(args.data_dir)
    lang = words.code if getattr(args, "lang", None) else None  # sessions made here get it too

    running = {} if running is None else running

    def serve(held: Any) -> Any:
        """A session opened or made here, handed to its night's server."""
        if wifi is not None:
            apply_wifi(held, wifi)
        return wiring.attached(night.hand_over(held, args), running)

    def create(name: str, scenario: str, warden: str, prisoners: list[str]) -> PrisonSession:
        made = create_prison_session(folder, name, scenario, warden, prisoners, holder=HOLDER)
        if lang is not None:
            made.set("lang", lang)
        return cast("PrisonSession", serve(made))

    def reopen(name: str) -> Any:
        return night.served_session(folder, name, args) or serve(
            open_session(folder, name, holder=HOLDER)
        )

    shelf = SessionShelf(
        folder=folder,
        create=create,
        open=reopen,
        game_of=lambda name: game_label(session_path(folder, name)),
    )
    notice = None
    pool = wiring.LazyPool()
    for _attempt in range(4):
        app = ConsoleApp(
            session,
            shelf=shelf,
            new=new,
            links=wiring.night_links(running, args),
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
        session, new = reopen(name), None
        _ = words
        notice = _("The console recovered from an error (%(error)s); the game is as the log "
                   "left it.", error=str(app.crashed))
        if app.crash_log:
            notice += " " + _("Details are in %(path)s.", path=str(app.crash_log))
    if app.left_for is not None:
        # A session of another game was picked: its own console takes over.
        return open_by_game(app.left_for, args)
    if app.has_session:
        app.session.close()
        wiring.say_still_served(app.session, words)
    if app.return_code:
        _ = words
        if app.has_session:
            said = _("the console stopped after an error; the game is safe. Reopen it with: "
                     "companion resume %(session)s", session=app.session.name)
        else:
            said = _("the console stopped after an error; the game is safe.")
        print("companion: " + said, file=sys.stderr)
        return app.return_code
    return 0
