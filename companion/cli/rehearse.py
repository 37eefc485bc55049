"""``companion rehearse``: practise a whole game alone; bots play every seat through the phone
server on this laptop, at a human pace, while you run the console (the night's server runs
them, beside the phones' pages)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.commands import summary
from companion.cli.options import console_lang, phone_options, pick_mix, whole
from companion.errors import UserError

BOT_NAMES = (
    "Ada", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max",
    "Ned", "Oz", "Pip", "Quin", "Rae", "Sol", "Tam",
)
REHEARSAL_MARK = "rehearsal"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rehearse",
        parents=[phone_options("127.0.0.1", "phones: listen here (default: 127.0.0.1, this "
                               "laptop only, where the bots play)"), console_lang()],
        help=summary("rehearse"),
        description="Open the console on a fresh session whose players are bots acting "
        "through the real phone API on this laptop at a human pace. You run the console: "
        "close planning, hold the interviews, record accusations and end each day.",
    )
    p.add_argument("--prisoners", metavar="N", default="4", help="group size (default: 4)")
    p.add_argument("--scenario", help="scenario (default: balanced-N if there is one, else "
                   "classic)")
    p.add_argument("--pace", metavar="SECONDS", default="4",
                   help="how long a bot takes to act, roughly (default: 4)")
    p.add_argument("--mix", default="standard", help="strategy mix of the bots (default: standard)")
    p.add_argument("--seed", metavar="S", help="random seed for the bots (default: a new one)")
    p.add_argument("--name", default="rehearsal",
                   help="the session's name (default: rehearsal; replaced on every run)")
    p.set_defaults(func=run_rehearse)


def bot_names(n: int) -> list[str]:
    return [BOT_NAMES[i] if i < len(BOT_NAMES) else f"Bot{i + 1}" for i in range(n)]


def pick_scenario(name: str | None, prisoners: int) -> tuple[str, dict[str, Any]]:
    """The scenario to play and the roster overrides it needs for ``prisoners``."""
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.prison.scenarios import load_scenario
    from companion.session.scenario_files import scenario_path

    if name is None:
        name = f"balanced-{prisoners}" if scenario_path(f"balanced-{prisoners}").is_file() else (
            "classic"
        )
    try:
        rules = load_scenario(name)
    except ScenarioError as error:
        raise UserError(str(error)) from None
    overrides: dict[str, Any] = {}
    if not rules.min_prisoners <= prisoners <= rules.max_prisoners:
        overrides = {
            "min_prisoners": min(rules.min_prisoners, prisoners),
            "max_prisoners": max(rules.max_prisoners, prisoners),
        }
    return name, overrides


def run_rehearse(args: argparse.Namespace) -> int:
    from companion.cli import night
    from companion.cli.consoles.prison import run_console
    from companion.cli.wiring import attached, check_terminal
    from companion.session.create import open_session
    from companion.session.paths import data_dir, session_path
    from companion.session.prison.create import create_prison_session

    prisoners = whole(args.prisoners, "--prisoners", 2, 60)
    seed = whole(args.seed, "--seed", 0, 2**63)
    mix = pick_mix(args.mix)
    try:
        pace = float(args.pace)
    except ValueError:
        raise UserError(f"--pace must be a number of seconds, not {args.pace!r}.") from None
    if not 0 <= pace <= 600:
        raise UserError(f"--pace must be between 0 and 600 seconds; got {args.pace}.")
    assert prisoners is not None
    scenario, overrides = pick_scenario(args.scenario, prisoners)
    folder = data_dir(args.data_dir)
    path = session_path(folder, args.name)
    if path.exists():
        old = open_session(folder, args.name)
        mine = bool(old.settings.get(REHEARSAL_MARK))
        old.close()
        if not mine:
            raise UserError(
                f"A session called {args.name!r} exists and is not a rehearsal; "
                "pick another name with --name."
            )
    check_terminal()
    night.stop_night(path)  # a rehearsal still served from the last run makes way
    session = create_prison_session(
        folder, args.name, scenario, "Warden", bot_names(prisoners), replace=True,
        rules_overrides=overrides or None, holder="companion rehearse",
    )
    session.set(REHEARSAL_MARK, True)
    args.bots, args.bots_seed, args.bots_pace = mix, seed, pace  # the night's server runs them
    running: dict[str, Any] = {}
    session = attached(night.hand_over(session, args), running)
    return run_console(args, session, running)
