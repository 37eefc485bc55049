"""``companion`` with no command: the session picker; and the runner every console command
shares (``new``, ``resume``, ``demo``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.serve import add_phone_options
from companion.errors import UserError

# Who holds a session the console opens (see companion.session.lock), for the sentence another
# window gets when it tries to open the same game.
HOLDER = "the console"


def register(sub: Any) -> None:
    p = sub.add_parser("start", help="the session picker (also what plain 'companion' opens)")
    p.add_argument("--no-phones", action="store_true", help="run without the phone server")
    add_phone_options(p)
    p.set_defaults(func=run_start)


def run_start(args: argparse.Namespace) -> int:
    from companion.cli.sessions import open_console

    return open_console(None, args)


def check_terminal() -> None:
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise UserError(
            "The console needs a terminal; run it in a terminal window, not through a pipe."
        )


def print_cards(session: Any, paper: str, out: Any, public_url: str | None) -> Any:
    """The console's printer: the printing face, imported only when the GM prints."""
    from companion.printing.prison.document import print_session

    return print_session(session, paper, out, public_url)


def laptop_addresses(args: argparse.Namespace) -> Any:
    """The console's view of this laptop's addresses, as (interface, address) pairs: every
    interface's when the phone server listens on all of them, else the one given by --host."""
    host = getattr(args, "host", None) or "0.0.0.0"

    def addresses() -> list[tuple[str, str]]:
        if host not in ("0.0.0.0", "::", ""):
            return [("--host", host)]
        from companion.web.common.address import candidates

        return [(c.interface, c.address) for c in candidates()]

    return addresses


class LazyPool:
    """The simulator's process pool for the console's Balance screen, started when the screen
    is first opened (:meth:`start`, on the app's thread).

    The console has threads by then, so its workers come from a fork server (a clean process)
    rather than being forked from the console; each plays ``companion.sim.runner.play_batch``.
    It offers what the simulator asks of a pool: ``map(batches)``.
    """

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs
        self._executor: Any = None

    def start(self) -> None:
        if self._executor is not None:
            return
        import multiprocessing
        import os
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import forkserver

        from companion.sim.runner import default_jobs

        # The fork server's helper keeps a copy of stderr, but the running console has swapped
        # stderr for an object without a file descriptor: give it /dev/null instead (its
        # messages must not scribble over the console anyway).
        saved = sys.stderr
        with open(os.devnull, "w") as quiet:
            sys.stderr = quiet
            try:
                forkserver.ensure_running()
            finally:
                sys.stderr = saved
        self._executor = ProcessPoolExecutor(
            max_workers=self.jobs or default_jobs(),
            mp_context=multiprocessing.get_context("forkserver"),
        )

    def map(self, batches: Any) -> Any:
        from companion.sim.runner import play_batch

        if self._executor is None:
            raise RuntimeError("the pool is not started")
        return self._executor.map(play_batch, batches)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


BALANCE_GAMES, BALANCE_MIX, BALANCE_SEED = 400, "standard", 1


def balance_screen(pool: Any) -> Any:
    """The console's Balance screen for a session: the escape-rate chart for its group size
    and its parole tokens to win, its points measured by the simulator on ``pool``."""

    def make(session: Any) -> Any:
        from companion.cli.balance import curve_source
        from companion.rules.prison.scenario import PrisonRules
        from companion.sim.strategies import MIXES
        from companion.tui.balance.app import BalanceScreen

        base = PrisonRules.model_validate(session.setup["rules"])
        pool.start()
        return BalanceScreen(
            curve_source(pool, base, BALANCE_GAMES, BALANCE_MIX, BALANCE_SEED),
            prisoners=len(session.setup["prisoners"]),
            tokens=base.parole_tokens_to_win,
            describe=f"{session.name}'s rules · {BALANCE_GAMES} games a point, seed "
            f"{BALANCE_SEED}, mix {MIXES[BALANCE_MIX].summary()}",
        )

    return make


def run_console(
    args: argparse.Namespace,
    session: Any | None,
    *,
    services: list[Any],
    links: Any = None,
    new: tuple[str, str] | None = None,
) -> int:
    """Build and run the console app; if it stops on an error, say how to get back in."""
    from companion.cli.sessions import (
        create_prison_session,
        game_label,
        open_by_game,
        open_session,
    )
    from companion.session.paths import data_dir, session_path
    from companion.tui.prison.app import ConsoleApp, SessionShelf

    check_terminal()
    folder = data_dir(args.data_dir)
    shelf = SessionShelf(
        folder=folder,
        create=lambda name, scenario, warden, prisoners: create_prison_session(
            folder, name, scenario, warden, prisoners, holder=HOLDER
        ),
        open=lambda name: open_session(folder, name, holder=HOLDER),
        game_of=lambda name: game_label(session_path(folder, name)),
    )
    notice = None
    pool = LazyPool()
    for _attempt in range(4):
        app = ConsoleApp(
            session,
            shelf=shelf,
            new=new,
            services=services,
            links=links,
            printer=print_cards,
            addresses=laptop_addresses(args),
            balance=balance_screen(pool),
            notice=notice,
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
    if app.handoff is not None:
        # A session of another game was picked: its own console takes over.
        return open_by_game(app.handoff, args)
    if app.return_code:
        name = app.session.name if app.has_session else None
        again = f" Reopen it with: companion resume {name}" if name else ""
        print(
            f"companion: the console stopped after an error; the game is safe.{again}",
            file=sys.stderr,
        )
        return app.return_code
    return 0
