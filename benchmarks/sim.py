"""Benchmark of the simulator: games per second for 4 and 12 prisoners, and a full balance table.

    .venv/bin/python benchmarks/sim.py [--games 4000] [--jobs 2] [--skip-balance]

Prints figures only; it writes no scenario files. The whole 4-12 table settles its close calls
(up to 16,000 games a candidate), so it plays about 800,000 games: about half an hour on one
process of a 2-core machine. Use --skip-balance for the games per second alone.
"""

from __future__ import annotations

import argparse
import os
import time

from companion.session.prison.scenarios import load_scenario
from companion.sim.balance import Budget, balance
from companion.sim.runner import Pool, default_jobs, run_games, sim_rules


def games_per_second(prisoners: int, nights: int, games: int, jobs: int) -> tuple[float, float]:
    rules, _ = sim_rules(load_scenario("classic"), prisoners, {"nights_to_escape": nights})
    with Pool(jobs) as pool:
        started = time.perf_counter()
        tally = run_games(pool, rules, prisoners, "standard", 1, games, label="bench")
        seconds = time.perf_counter() - started
        pool.close()
    return tally.games / seconds, tally.days / tally.games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--skip-balance", action="store_true")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"cores: {os.cpu_count()}, jobs: {args.jobs}, load average before: {load:.2f}")
    for prisoners, nights in ((4, 6), (12, 20)):
        for jobs in sorted({1, args.jobs}):
            rate, days = games_per_second(prisoners, nights, args.games, jobs)
            print(
                f"{prisoners:>2} prisoners, {nights} nights, mix standard, {jobs} process(es): "
                f"{rate:8.0f} games/s (mean {days:.2f} days a game)"
            )
    if args.skip_balance:
        return
    started = time.perf_counter()
    cpu = time.process_time()
    results = balance(load_scenario("classic"), list(range(4, 13)), jobs=args.jobs,
                      budget=Budget())
    seconds = time.perf_counter() - started
    games = sum(r.games for r in results)
    least = min(r.best.tally.games for r in results)
    print(
        f"balance 4-12 (target 50%, mix standard, seed 1): {seconds:.1f} s wall, "
        f"{games} games ({games / seconds:.0f} games/s), least games behind a recommendation: "
        f"{least}; main process CPU {time.process_time() - cpu:.1f} s"
    )


if __name__ == "__main__":
    main()
