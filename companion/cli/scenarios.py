"""``companion scenarios`` and ``companion check-scenario FILE``."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.errors import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("scenarios", help="list the scenario files with their main numbers")
    p.set_defaults(func=run_scenarios)
    c = sub.add_parser("check-scenario", help="validate one scenario file")
    c.add_argument("file", help="a scenario file (.toml)")
    c.set_defaults(func=run_check)


def run_scenarios(args: argparse.Namespace) -> int:
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.scenario_files import list_scenario_files, read_toml, scenario_dir

    files = list_scenario_files()
    if not files:
        raise UserError(f"There are no scenario files in {scenario_dir()}.")
    print(f"Scenarios in {scenario_dir()}:")
    print(
        f"  {'name':<14} {'prisoners':>9} {'nights':>6} {'parole':>6} "
        f"{'deals/d':>7} {'search/d':>8}"
    )
    for path in files:
        try:
            data = read_toml(path)
            game = data.get("game", "prison-break")
            if game != "prison-break":
                print(f"  {path.stem:<14} ({game}) {data.get('description', '')}")
                continue
            from companion.session.scenario_files import load_rules_file

            r = load_rules_file(path)
        except ScenarioError as error:
            print(f"  {path.stem:<14} INVALID: {error}")
            continue
        size = (
            f"{r.min_prisoners}"
            if r.min_prisoners == r.max_prisoners
            else (f"{r.min_prisoners}-{r.max_prisoners}")
        )
        print(
            f"  {path.stem:<14} {size:>9} {r.nights_to_escape:>6} {r.parole_tokens_to_win:>6} "
            f"{r.parole_tokens_per_day:>7} {r.searches_per_day:>8}"
        )
    return 0


def run_check(args: argparse.Namespace) -> int:
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.scenario_files import check_scenario_file

    try:
        summary = check_scenario_file(Path(args.file))
    except ScenarioError as error:
        raise UserError(str(error)) from None
    print(f"{args.file}: valid ({summary}).")
    return 0
