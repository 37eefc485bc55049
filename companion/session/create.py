"""Creating, opening and holding the sessions of every game, each refused in one sentence.

The console, the phone server and every command open sessions through here, so that a name,
a roster or a scenario is checked the same way wherever it is typed.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UserError
from companion.games import UnknownGame, game_entry
from companion.rules.core.roster import RosterError, check_roster
from companion.rules.core.words import N_
from companion.rules.dilemma.scenario import DilemmaRules, rules_from_mapping, with_rounds
from companion.rules.prison.scenario import ScenarioError, with_overrides
from companion.session.lock import SessionLock
from companion.session.paths import list_sessions, session_path
from companion.session.scenario_files import (
    load_scenario,
    read_toml,
    scenario_name,
    scenario_path,
)
from companion.session.session import Session
from companion.session.store import Store, StoreError

if TYPE_CHECKING:
    from companion.rules.dilemma.state import DilemmaState
    from companion.rules.prison.state import PrisonState
    from companion.rules.sucker.state import SuckerState


def hold_session(path: Path, holder: str | None) -> SessionLock | None:
    """The lock that keeps ``path`` to this program (``None`` without a holder)."""
    return SessionLock.take(path, holder) if holder else None


def remove_session_files(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def create_session(path: Path, game: str, setup: dict[str, Any], holder: str | None) -> Session:
    """A new session file for ``game``, held for ``holder`` (see :func:`open_session`)."""
    try:
        return Session.create(path, game, setup, lock=hold_session(path, holder))
    except StoreError as error:
        raise UserError(str(error)) from None


def open_session(folder: Path, name: str, *, holder: str | None = None) -> Session:
    """The saved session ``name``; with ``holder`` (who plays it: "companion resume", the phone
    server...), held for this program alone while open, refused in one sentence when another
    window has it (see companion.session.lock)."""
    path = session_path(folder, name)
    if not path.exists():
        near = nearest_session(folder, path.stem)
        hint = "see 'companion sessions' for the saved ones."
        if near:
            hint = f"did you mean {near!r}? See 'companion sessions' for the saved ones."
        raise UserError(f"There is no session called {name!r} in {folder}; {hint}")
    try:
        return Session.open(path, holder=holder)
    except StoreError as error:
        raise UserError(str(error)) from None


def nearest_session(folder: Path, name: str) -> str | None:
    """The saved session ``name`` was probably meant to be: the same name in another case
    ("Friday" for "friday"), else the closest spelling, else ``None``."""
    saved = [p.stem for p in list_sessions(folder)]
    same = [s for s in saved if s.casefold() == name.casefold()]
    if same:
        return same[0]
    close = difflib.get_close_matches(name.casefold(), [s.casefold() for s in saved], n=1)
    return next((s for s in saved if close and s.casefold() == close[0]), None)


UNREADABLE = N_("cannot be read")


def game_label(path: Path) -> str:
    """What a session file holds, in a few words, read from its metadata without replaying
    it; a file that cannot be read says so."""
    try:
        store = Store.open(path)
    except StoreError:
        return UNREADABLE
    try:
        game = store.meta().get("game")
    except Exception:  # noqa: BLE001 - a damaged file is listed, not fatal
        return UNREADABLE
    finally:
        store.close()
    try:
        return game_entry(str(game)).label
    except UnknownGame:
        return str(game)


# ---- the prison break -----------------------------------------------------------------------


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
) -> Session[PrisonState]:
    """Create a prison-break session file; refuses a bad roster or scenario in one sentence.

    With ``holder``, the new session is held for this program alone (see ``open_session``);
    a session being replaced is taken from nobody who still has it open.
    """
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
        "scenario": scenario_name(scenario),
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


# ---- the dilemma warm-up --------------------------------------------------------------------


def dilemma_rules(scenario: str, rounds: int | None) -> DilemmaRules:
    """The rules of a dilemma scenario file, with ``rounds`` if given; UserError otherwise."""
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


def open_or_create_dilemma(
    folder: Path, name: str, scenario: str, rounds: int | None, *, holder: str | None = None
) -> Session[DilemmaState]:
    """The dilemma session called ``name``: reopened if it exists, else created (held for
    ``holder`` alone while open, see ``open_session``)."""
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
    rules = dilemma_rules(scenario, rounds)
    setup = {"scenario": scenario_name(scenario), "rules": rules.model_dump()}
    return create_session(path, "dilemma", setup, holder)


# ---- So Long Sucker -------------------------------------------------------------------------


def open_sucker_session(
    folder: Path, name: str, *, holder: str | None = None
) -> Session[SuckerState]:
    """The saved So Long Sucker session ``name``; another game's session is refused."""
    session = open_session(folder, name, holder=holder)
    if session.game != "so-long-sucker":
        session.close()
        raise UserError(
            f"The session {name!r} is a {session.game} game, not So Long Sucker; "
            "open it with 'companion resume' or pick another name."
        )
    return session
