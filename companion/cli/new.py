"""``companion new NAME --scenario classic``: the set-up screen for a new session."""

from __future__ import annotations

import argparse

from companion.cli.consoles.prison import open_console
from companion.cli.options import no_phones, phone_options
from companion.errors import UserError
from companion.rules.prison.scenario import ScenarioError
from companion.session.paths import data_dir, session_path
from companion.session.scenario_files import load_scenario


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "new",
        parents=[no_phones(), phone_options()],
        help="set up a new session (players, then the game)",
    )
    p.add_argument("name", help="the session's name (letters, digits, - _ .)")
    p.add_argument("--scenario", default="classic", help="a scenario from 'companion scenarios'")
    p.set_defaults(func=run_new)


def run_new(args: argparse.Namespace) -> int:
    path = session_path(data_dir(args.data_dir), args.name)
    if path.exists():
        raise UserError(
            f"A session called {args.name!r} already exists; resume it with "
            f"'companion resume {args.name}' or pick another name."
        )
    try:
        load_scenario(args.scenario)
    except ScenarioError as error:
        raise UserError(str(error)) from None
    return open_console(None, args, new=(args.name, args.scenario))
