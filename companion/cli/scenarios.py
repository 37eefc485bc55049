"""``companion scenarios`` and ``companion check-scenario FILE``."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.commands import summary
from companion.errors import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "scenarios", help=summary("scenarios")
    )
    p.set_defaults(func=run_scenarios)
    c = sub.add_parser("check-scenario", help=summary("check-scenario"))
    c.add_argument("file", help="a scenario file (.toml)")
    c.set_defaults(func=run_check)


def run_scenarios(args: argparse.Namespace) -> int:
    from companion.session.paths import user_scenario_dir
    from companion.session.scenario_files import list_scenarios, shipped_scenario_dir

    scenarios = list_scenarios()
    shipped = [s for s in scenarios if s.shipped]
    own = [s for s in scenarios if not s.shipped]
    if not shipped:
        raise UserError(
            f"There are no shipped scenario files in {shipped_scenario_dir()}; "
            "reinstall companion."
        )
    print(f"Shipped scenarios (in {shipped_scenario_dir()}):")
    print(TITLES)
    for scenario in shipped:
        print(describe(scenario.path, scenario.name))
    print()
    print(f"Your scenarios (in {user_scenario_dir()}):")
    if not own:
        print("  none yet: 'companion balance' writes here, and a .toml file you put here is "
              "listed too.")
        return 0
    print(TITLES)
    for scenario in own:
        mark = " (replaces the shipped one)" if scenario.replaces_shipped else ""
        print(describe(scenario.path, scenario.name) + mark)
    return 0


TITLES = (
    f"  {'name':<14} {'prisoners':>9} {'nights':>6} {'parole':>6} {'deals/d':>7} {'search/d':>8}"
)


def describe(path: Path, name: str) -> str:
    """One line of the list: a scenario's main numbers, another game's description, or what is
    wrong with the file. A file whose numbers are plainly right is read without the rules'
    models (the list answers at once); any other is validated, which says what is wrong."""
    from companion.rules.core.scenario import ScenarioError
    from companion.rules.prison.limits import plain_numbers
    from companion.session.scenario_files import read_toml

    try:
        data = read_toml(path)
        game = data.get("game", "prison-break")
        if game != "prison-break":
            return f"  {name:<14} ({game}) {data.get('description', '')}"
        numbers = plain_numbers(data)
        if numbers is None:
            from companion.session.prison.scenarios import load_rules_file

            numbers = load_rules_file(path).model_dump()
    except ScenarioError as error:
        return f"  {name:<14} INVALID: {error}"
    low, high = numbers["min_prisoners"], numbers["max_prisoners"]
    size = f"{low}" if low == high else f"{low}-{high}"
    return (
        f"  {name:<14} {size:>9} {numbers['nights_to_escape']:>6} "
        f"{numbers['parole_tokens_to_win']:>6} {numbers['parole_tokens_per_day']:>7} "
        f"{numbers['searches_per_day']:>8}"
    )


def run_check(args: argparse.Namespace) -> int:
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.scenario_files import check_scenario_file

    try:
        summary = check_scenario_file(Path(args.file))
    except ScenarioError as error:
        raise UserError(str(error)) from None
    print(f"{args.file}: valid ({summary}).")
    return 0
