"""``companion simulate``: play many bot games of a scenario and report how each side fares."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from companion.cli.commands import summary
from companion.cli.options import load_rules, pick_mix, whole
from companion.errors import UserError

if TYPE_CHECKING:
    from companion.rules.prison.scenario import PrisonRules


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate",
        help=summary("simulate"),
        description="Play many games with bots through the real rules and report how often "
        "each outcome happens, with 95%% intervals (Wilson).",
    )
    p.add_argument("--scenario", default="classic", help="scenario name (default: classic)")
    p.add_argument("--prisoners", metavar="N", help="group size (default: the scenario's)")
    p.add_argument("--games", metavar="G", default="2000", help="games to play (default: 2000)")
    p.add_argument("--seed", metavar="S", default="1", help="random seed (default: 1)")
    p.add_argument("--mix", default="standard",
                   help="strategy mix of the bots, or table: learned from real games by "
                   "'companion playtests fit' (default: standard)")
    p.add_argument("--jobs", metavar="J", help="processes to use (default: one per core)")
    p.add_argument("--json", action="store_true", help="print the results as JSON for tools")
    p.set_defaults(func=run_simulate)


def group_sizes(rules: PrisonRules) -> str:
    low, high = rules.min_prisoners, rules.max_prisoners
    return f"{low} prisoners" if low == high else f"{low} to {high} prisoners"


def outside_range(name: str, base: PrisonRules, size: int) -> str:
    """One sentence: the scenario is not for ``size`` prisoners, and what is."""
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.prison.scenarios import load_scenario
    from companion.session.scenario_files import list_scenario_files

    fitting = []
    for path in list_scenario_files():
        try:
            rules = load_scenario(path.stem)
        except ScenarioError:
            continue  # another game's scenario, or a broken file: not a suggestion
        if rules.min_prisoners <= size <= rules.max_prisoners:
            fitting.append(path.stem)
    use = (
        f"use --prisoners {base.min_prisoners}"
        if base.min_prisoners == base.max_prisoners
        else f"use --prisoners {base.min_prisoners} to {base.max_prisoners}"
    )
    other = (
        f"a scenario for {size} prisoners: {', '.join(fitting)}"
        if fitting
        else f"make a scenario for {size} prisoners with 'companion balance --prisoners {size}'"
    )
    return f"The scenario {name!r} is for {group_sizes(base)}, not {size}; {use}, or {other}."


def run_simulate(args: argparse.Namespace) -> int:
    from companion.cli.terminal import print_tables, progress, running_total, wants_table
    from companion.sim.learned import mix_named
    from companion.sim.runner import DAY_CAP, OUTCOMES, Pool, default_jobs, run_games
    from companion.sim.stats import wilson

    games = whole(args.games, "--games", 1, 10_000_000)
    seed = whole(args.seed, "--seed", 0, 2**63)
    jobs = whole(args.jobs, "--jobs", 1, 64) or default_jobs()
    prisoners = whole(args.prisoners, "--prisoners", 2, 60)
    mix = pick_mix(args.mix, learned=True)
    assert games is not None and seed is not None
    base, size, rules, capped = load_rules(args.scenario, prisoners)
    if not base.min_prisoners <= size <= base.max_prisoners:
        raise UserError(outside_range(args.scenario, base, size))

    started = time.perf_counter()
    with progress(f"Simulating {size}", games, "games") as bar, \
            Pool(min(jobs, max(1, games // 100))) as pool:
        tally = run_games(pool, rules, size, mix, seed, games, on_progress=running_total(bar))
        pool.close()
    seconds = time.perf_counter() - started

    rates = {k: wilson(tally.counts[k], tally.games) for k in OUTCOMES}
    warden_side = wilson(tally.games - tally.counts["escape"], tally.games)
    report = {
        "scenario": args.scenario,
        "prisoners": size,
        "games": tally.games,
        "seed": seed,
        "mix": mix,
        "rules": rules.model_dump(exclude={"description"}),
        "day_cap": DAY_CAP if capped else None,
        "outcomes": {k: r.as_dict() for k, r in rates.items()},
        "team_escape": rates["escape"].as_dict(),
        "warden_side": warden_side.as_dict(),
        "mean_days": round(tally.days / tally.games, 3),
        "seconds": round(seconds, 3),
        "games_per_second": round(tally.games / seconds, 1) if seconds > 0 else None,
        "jobs": jobs,
    }
    if args.json:
        import json

        print(json.dumps(report, indent=1))
        return 0
    print(
        f"{tally.games} games of '{args.scenario}' with {size} prisoners, mix '{mix}', "
        f"seed {seed}: {rules.nights_to_escape} nights to escape, "
        f"{rules.parole_tokens_to_win} parole tokens to win."
    )
    print(f"Mix {mix_named(mix).summary()}.")
    if capped:
        print(
            f"The scenario sets no day limit, so each game was stopped after {DAY_CAP} days "
            "and counted as time up (a warden's win)."
        )
    print()
    if wants_table():
        sides = (("prisoners team (escape)", rates["escape"]),
                 ("warden side (parole, caught, time up)", warden_side))
        print_tables("How the games ended", ("outcome", "games", "rate", "95% interval"), [
            (name, str(rate.hits), f"{rate.rate:.1%}", f"{rate.low:.1%} to {rate.high:.1%}")
            for name, rate in [(k.replace("_", " "), r) for k, r in rates.items()] + list(sides)
        ], lead="left")
    else:
        print(f"  {'outcome':<12} {'games':>7}  {'rate':>6}  95% interval")
        for key, rate in rates.items():
            print(f"  {key.replace('_', ' '):<12} {rate.hits:>7}  {rate}")
        print()
        print(f"  {'prisoners team (escape)':<37} {rates['escape']}")
        print(f"  {'warden side (parole, caught, time up)':<37} {warden_side}")
    print(f"  mean game length {tally.days / tally.games:.2f} days")
    speed = f"{tally.games / seconds:.0f} games/s" if seconds > 0 else "instant"
    print(f"  {seconds:.2f} s, {speed} on {jobs} process{'es' if jobs > 1 else ''}")
    return 0
