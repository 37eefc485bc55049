"""Creating and opening sessions, shared by ``new``, ``resume``, ``demo`` and the console."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.errors import UserError


def register(sub: Any) -> None:
    p = sub.add_parser("sessions", help="list the saved sessions")
    p.set_defaults(func=run_list)


def run_list(args: argparse.Namespace) -> int:
    from companion.session.paths import data_dir, list_sessions

    folder = data_dir(args.data_dir)
    paths = list_sessions(folder)
    if not paths:
        print(f"No sessions yet in {folder}. Start one with: companion new NAME")
        return 0
    print(f"Sessions in {folder}:")
    width = max(len(path.stem) for path in paths)
    for path in paths:
        print(f"  {path.stem:<{width}}  {game_label(path)}")
    return 0


GAME_LABELS = {
    "prison-break": "prison break",
    "dilemma": "dilemma warm-up",
    "so-long-sucker": "So Long Sucker",
}


def game_label(path: Path) -> str:
    """What a session file holds, in a few words, read from its metadata without replaying
    it; a file that cannot be read says so."""
    from companion.session.store import Store, StoreError

    try:
        store = Store.open(path)
    except StoreError:
        return "cannot be read"
    try:
        game = store.meta().get("game")
    except Exception:  # noqa: BLE001 - a damaged file is listed, not fatal
        return "cannot be read"
    finally:
        store.close()
    return GAME_LABELS.get(str(game), str(game))


def create_prison_session(
    folder: Path,
    name: str,
    scenario: str,
    warden: str,
    prisoners: list[str],
    *,
    replace: bool = False,
    rules_overrides: dict[str, Any] | None = None,
    holder: str | None = None,
) -> Any:
    """Create a prison-break session file; refuses a bad roster or scenario in one sentence.

    With ``holder``, the new session is held for this program alone (see ``open_session``);
    a session being replaced is taken from nobody who still has it open.
    """
    from companion.rules.core.roster import RosterError, check_roster
    from companion.rules.prison.scenario import ScenarioError, with_overrides
    from companion.session.paths import session_path
    from companion.session.scenario_files import load_scenario
    from companion.session.session import Session
    from companion.session.store import StoreError

    path = session_path(folder, name)
    try:
        rules = load_scenario(scenario)
        if rules_overrides:
            rules = with_overrides(rules, rules_overrides, "The rule overrides")
        warden, prisoners = check_roster(
            warden, prisoners, rules.min_prisoners, rules.max_prisoners
        )
    except (ScenarioError, RosterError) as error:
        raise UserError(str(error)) from None
    if path.exists() and not replace:
        raise UserError(
            f"A session called {name!r} already exists; resume it with "
            f"'companion resume {name}' or pick another name."
        )
    setup = {
        "scenario": scenario,
        "rules": rules.model_dump(),
        "warden": warden,
        "prisoners": prisoners,
    }
    try:
        lock = hold_session(path, holder)
        if path.exists():
            remove_session_files(path)
        return Session.create(path, "prison-break", setup, lock=lock)
    except StoreError as error:
        raise UserError(str(error)) from None


def hold_session(path: Path, holder: str | None) -> Any:
    """The lock that keeps ``path`` to this program (``None`` without a holder)."""
    from companion.session.lock import SessionLock

    return SessionLock.take(path, holder) if holder else None


def remove_session_files(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def open_session(folder: Path, name: str, *, holder: str | None = None) -> Any:
    """The saved session ``name``; with ``holder`` (who plays it: "companion resume", the phone
    server...), held for this program alone while open, refused in one sentence when another
    window has it (see companion.session.lock)."""
    from companion.session.paths import session_path
    from companion.session.session import Session
    from companion.session.store import StoreError

    path = session_path(folder, name)
    if not path.exists():
        raise UserError(
            f"There is no session called {name!r} in {folder}; "
            "see 'companion sessions' for the saved ones."
        )
    try:
        return Session.open(path, holder=holder)
    except StoreError as error:
        raise UserError(str(error)) from None


def open_by_game(session: Any, args: argparse.Namespace) -> int:
    """Open the console that fits the session's game (``resume`` and the picker use this):
    the prison break's console, the dilemma warm-up's, or the So Long Sucker referee."""
    game = session.game
    if game == "prison-break":
        return open_console(session, args)
    if game == "dilemma":
        from companion.cli.dilemma import open_dilemma_console

        try:
            return open_dilemma_console(session, args)
        finally:
            session.close()
    if game == "so-long-sucker":
        return open_sucker_console(session)
    session.close()
    raise UserError(
        f"The session {session.name!r} is a {game} game, which this version cannot open; "
        "update companion."
    )


def open_sucker_console(session: Any) -> int:
    """The So Long Sucker referee on an open session (closed afterwards)."""
    from companion.cli.start import check_terminal

    try:
        check_terminal()
        from companion.tui.sucker.app import SuckerApp

        app = SuckerApp(session)
        app.run()
    finally:
        session.close()
    if app.return_code:
        print(
            "companion: the referee stopped after an error; the game is safe. "
            f"Reopen it with: companion resume {session.name}"
        )
        return app.return_code
    return 0


def open_console(
    session: Any | None, args: argparse.Namespace, *, new: tuple[str, str] | None = None
) -> int:
    """Run the game master's console: on ``session``, or the set-up screen for ``new``
    (name, scenario), or the session picker when both are ``None``.

    This is where the console's services are wired: each is an async starter called with the
    app once a session is open, returning an async stopper awaited on exit.
    """
    from companion.cli.start import run_console

    services: list[Any] = []
    links: Any = None
    if not getattr(args, "no_phones", False):
        # The phone server (companion.web.prison.server.start_phone_server) in the console's loop.
        from companion.cli.serve import phone_service

        start_phones, links = phone_service(args)
        services.append(start_phones)
    return run_console(args, session, services=services, links=links, new=new)
