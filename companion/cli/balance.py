"""``companion balance``: find fair numbers for each group size and write them as scenarios."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.commands import summary
from companion.cli.options import load_rules, pick_mix, print_csv, whole
from companion.cli.wiring import curve_source, table_rates
from companion.errors import UserError

if TYPE_CHECKING:
    from companion.rules.prison.scenario import PrisonRules
    from companion.sim.balance import SizeResult
    from companion.tui.common.contracts import TableRates


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "balance",
        help=summary("balance"),
        description="For each group size, search for the nights to escape and parole tokens to "
        "win that make the prisoners' team (escape) win as often as the target, playing bot "
        "games on every core, and write balanced-N.toml into your scenario folder (see "
        "'companion scenarios'), or into --out.",
    )
    p.add_argument("--prisoners", metavar="A-B", default="4-12",
                   help="group sizes, a range such as 4-12 or one size (default: 4-12)")
    p.add_argument("--target", default="0.5",
                   help="the prisoners' team's win rate to aim for (default: 0.5)")
    p.add_argument("--games-per-point", metavar="G",
                   help="games behind every recommended setting (default: 2000; 400 a point "
                   "of the --screen chart)")
    p.add_argument("--seed", metavar="S", default="1", help="random seed (default: 1)")
    p.add_argument("--mix", default="standard",
                   help="strategy mix of the bots, or table: learned from real games by "
                   "'companion playtests fit' (default: standard)")
    p.add_argument("--scenario", default="classic",
                   help="the scenario whose other numbers are kept (default: classic)")
    p.add_argument("--jobs", metavar="J", help="processes to use (default: one per core)")
    p.add_argument("--write", action=argparse.BooleanOptionalAction, default=True,
                   help="write balanced-N.toml for each size (default: --write)")
    p.add_argument("--out", metavar="DIR",
                   help="where to write the files (default: your scenario folder)")
    p.add_argument("--json", action="store_true", help="print the results as JSON for tools")
    p.add_argument("--markdown", action="store_true",
                   help="print the Markdown table even on a terminal (piped, it always is)")
    p.add_argument("--csv", action="store_true",
                   help="print the table as CSV (the recommendation, its runner-up and the "
                   "scenario's own numbers at each size), nothing else")
    p.add_argument("--screen", action="store_true",
                   help="open the Balance screen: a chart of the team's escape rate against "
                   "nights to escape, for the first group size")
    p.set_defaults(func=run_balance)


def parse_sizes(text: str) -> list[int]:
    first, sep, last = text.partition("-")
    low = whole(first.strip(), "--prisoners", 2, 60)
    high = whole(last.strip(), "--prisoners", 2, 60) if sep else low
    assert low is not None and high is not None
    if high < low:
        raise UserError(f"--prisoners {text!r} runs backwards; write the smaller size first.")
    return list(range(low, high + 1))


def parse_target(text: str) -> float:
    try:
        target = float(text)
    except ValueError:
        raise UserError(f"--target must be a number between 0 and 1, not {text!r}.") from None
    if not 0.0 < target < 1.0:
        raise UserError(f"--target must be between 0 and 1 (exclusive); got {text}.")
    return target


def write_scenario(
    folder: Path, result: SizeResult, base: PrisonRules, mix: str, seed: int
) -> Path:
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.prison.scenarios import load_rules_file
    from companion.sim.balance import scenario_text

    path = folder / f"balanced-{result.prisoners}.toml"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(scenario_text(result, base, mix=mix, seed=seed), encoding="utf-8")
    except OSError as error:
        raise UserError(f"Cannot write {path}: {error.strerror}; pick another --out.") from None
    try:
        load_rules_file(path)
    except ScenarioError as error:  # a bug: the file we wrote does not validate
        raise UserError(f"The balanced scenario {path} does not validate: {error}") from None
    return path


def run_balance(args: argparse.Namespace) -> int:
    from companion.cli.terminal import print_tables, progress, wants_table
    from companion.session.paths import user_scenario_dir
    from companion.sim.balance import Budget, balance
    from companion.sim.runner import DAY_CAP, default_jobs
    from companion.sim.table import COLUMNS, HEADER, RULE, as_csv, cells, row

    sizes = parse_sizes(args.prisoners)
    target = parse_target(args.target)
    default_games = "400" if args.screen else "2000"
    games = whole(args.games_per_point or default_games, "--games-per-point", 1, 1_000_000)
    seed = whole(args.seed, "--seed", 0, 2**63)
    jobs = whole(args.jobs, "--jobs", 1, 64) or default_jobs()
    mix = pick_mix(args.mix, learned=True)
    assert games is not None and seed is not None
    base, _, _, capped = load_rules(args.scenario, sizes[0])
    for size in sizes[1:]:
        load_rules(args.scenario, size)
    if args.json and args.csv:
        raise UserError("--json and --csv are two formats for the same results; pick one.")
    quiet = args.json or args.csv
    table = not quiet and wants_table(args.markdown)
    if args.screen:
        from companion.session.paths import data_dir

        tables = table_rates([data_dir(args.data_dir)])
        return open_screen(base, sizes[0], target, games, mix, seed, jobs, tables)
    folder = Path(args.out).expanduser() if args.out else user_scenario_dir()
    if args.write and folder.exists() and not folder.is_dir():
        raise UserError(f"{folder} is a file, not a folder; pick another --out.")
    batch = min(200, games)
    budget = Budget(
        min_games=games,
        probe_cap=min(1000, games),
        rank_games=min(600, games),
        batch=batch,
        chunk=max(1, batch // 2),
    )

    span = f"{sizes[0]}-{sizes[-1]}" if len(sizes) > 1 else str(sizes[0])
    if not quiet:
        print(
            f"Balancing '{args.scenario}' for {span} prisoners: target "
            f"{target:.0%} escapes, mix '{mix}', seed {seed}, at least {games} games per "
            f"recommended setting, {jobs} process{'es' if jobs > 1 else ''}."
        )
        if capped:
            print(f"Games are stopped after {DAY_CAP} days and counted as time up.")
        print()
        if not table:
            print(HEADER)
            print(RULE)
        sys.stdout.flush()

    started = time.perf_counter()
    with progress(f"Balancing {span}", len(sizes), "sizes") as bar:

        def shown(result: SizeResult) -> None:
            bar.step()
            if not quiet and not table:
                print(row(result), flush=True)

        results = balance(
            base, sizes, target=target, mix=mix, seed=seed, jobs=jobs, budget=budget,
            on_size=shown, on_games=bar.games,
        )
    seconds = time.perf_counter() - started
    if table:
        print_tables("The recommendation for each group size", COLUMNS,
                     [cells(r) for r in results])
    written = [write_scenario(folder, r, base, mix, seed) for r in results] if args.write else []

    if args.csv:
        print_csv(as_csv(results))
        return 0
    if args.json:
        import json

        print(json.dumps({
            "scenario": args.scenario,
            "target": target,
            "mix": mix,
            "seed": seed,
            "games_per_point": games,
            "day_cap": DAY_CAP if capped else None,
            "seconds": round(seconds, 2),
            "games": sum(r.games for r in results),
            "sizes": [r.as_dict() for r in results],
            "written": [str(p) for p in written],
        }, indent=1))
        return 0
    total = sum(r.games for r in results)
    print()
    print(f"{total} games in {seconds:.1f} s ({total / seconds:.0f} games/s).")
    if written:
        print(f"Wrote {len(written)} scenario file{'s' if len(written) > 1 else ''} in {folder}: "
              + ", ".join(p.name for p in written) + ".")
    return 0


def open_screen(base: PrisonRules, prisoners: int, target: float, games: int, mix: str, seed: int,
                jobs: int, tables: TableRates | None = None) -> int:
    from companion.sim.learned import mix_named
    from companion.sim.runner import Pool
    from companion.tui.balance.app import BalanceApp

    with Pool(jobs) as pool:  # forked before the app starts its threads
        app = BalanceApp(
            curve_source(pool, base, games, mix, seed, target=target),
            prisoners=prisoners,
            tokens=base.parole_tokens_to_win,
            target=target,
            describe=lambda _: _.n_(
                "%(count)s game a point, seed %(seed)s, mix %(mix)s",
                "%(count)s games a point, seed %(seed)s, mix %(mix)s",
                games, seed=seed, mix=mix_named(mix).summary(),
            ),
            tables=tables,
        )
        app.run()
    return 0
