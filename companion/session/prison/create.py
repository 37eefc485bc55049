"""Creating a prison-break session, its roster and scenario refused in one sentence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.rules.core.roster import RosterError, check_roster
from companion.rules.prison.scenario import ScenarioError, with_overrides
from companion.session.create import hold_session, remove_session_files
from companion.session.paths import session_path
from companion.session.prison import PrisonSession
from companion.session.prison.scenarios import load_scenario
from companion.session.scenario_files import scenario_name
from companion.session.session import Session
from companion.session.store import StoreError


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
) -> PrisonSession:
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
    except StoreError as error:
        raise UserError(str(error)) from None
    try:
        if path.exists():
            remove_session_files(path)
        return Session.create(path, "prison-break", setup, lock=lock)
    except (StoreError, UserError) as error:
        if lock is not None:
            lock.release()
        raise UserError(str(error)) from None
