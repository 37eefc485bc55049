"""Opening or creating a dilemma warm-up session, its scenario and rounds refused in one
sentence."""

from __future__ import annotations

from pathlib import Path

from companion.errors import UserError
from companion.rules.core.scenario import ScenarioError
from companion.rules.dilemma.scenario import DilemmaRules, rules_from_mapping, with_rounds
from companion.session.create import create_session, open_session
from companion.session.dilemma import DilemmaSession, is_dilemma
from companion.session.paths import session_path
from companion.session.scenario_files import read_toml, scenario_name, scenario_path


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
) -> DilemmaSession:
    """The dilemma session called ``name``: reopened if it exists, else created (held for
    ``holder`` alone while open, see ``open_session``)."""
    path = session_path(folder, name)
    if path.exists():
        session = open_session(folder, name, holder=holder)
        if not is_dilemma(session):
            session.close()
            raise UserError(
                f"The session {name!r} is a {session.rules.title} session; "
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
