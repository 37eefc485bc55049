"""How long the ``companion`` command takes to answer, beside ``python -c pass``, in one run.

Run: .venv/bin/python benchmarks/cli.py [--runs 9]
Prints, for each command, the median wall time of a few runs (a fresh process each, from a
temporary data folder holding one prison-break session), and its ratio to ``python -c pass``
measured in the same run, interleaved with the commands so that the machine's load falls on both
alike. The targets (docs/RELIABILITY.md): --help, sessions, scenarios and links NAME --json
within 3x of ``python -c pass``, replay of the shipped examples within 5x. It asserts nothing.

Each command runs as an installed companion does, from compiled bytecode (pip compiles it at
install): the runs write and read it in the temporary folder (PYTHONPYCACHEPREFIX), after one
untimed warm-up run of each command, even where PYTHONDONTWRITEBYTECODE is set, which would
have every run compile every module it imports from source.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "tests" / "examples"


def commands(examples: list[Path]) -> list[tuple[str, list[str], float]]:
    """(label, arguments after ``python``, target ratio)."""
    cli = ["-m", "companion"]
    out = [
        ("python -c pass", ["-c", "pass"], 1.0),
        ("companion --help", [*cli, "--help"], 3.0),
        ("companion sessions", [*cli, "sessions"], 3.0),
        ("companion scenarios", [*cli, "scenarios"], 3.0),
        ("companion links bench --json", [*cli, "links", "bench", "--json"], 3.0),
    ]
    for script in examples:
        out.append((f"companion replay {script.name}", [*cli, "replay", str(script)], 5.0))
    return out


def once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *argv], env=env, check=True, stdout=subprocess.DEVNULL,
                   cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each command (default 9)")
    runs = parser.parse_args().runs
    examples = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, COMPANION_DATA_DIR=tmp, PYTHONPATH=str(ROOT),
                   PYTHONPYCACHEPREFIX=str(Path(tmp) / "bytecode"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run(
            [sys.executable, "-m", "companion", "new", "bench", "--warden", "Wendy",
             "--prisoners", "Ada,Ben,Cy,Dee", "--create-only"],
            env=env, check=True, stdout=subprocess.DEVNULL, cwd=ROOT,
        )
        table = commands(examples)
        for _, argv, _ in table:  # compiles the bytecode, and makes the seats links reads
            once(argv, env)
        times: dict[str, list[float]] = {label: [] for label, _, _ in table}
        for _ in range(runs):  # round-robin, so a busy moment slows every command alike
            for label, argv, _ in table:
                times[label].append(once(argv, env))
    base = statistics.median(times["python -c pass"])
    print(f"median wall time of {runs} runs, each a fresh process ({sys.executable}), "
          "from compiled bytecode")
    print(f"{'command':<40} {'median s':>9} {'x pass':>7} {'target':>7}  met")
    for label, _, target in table:
        median = statistics.median(times[label])
        ratio = median / base
        met = "" if label == "python -c pass" else ("yes" if ratio <= target else "no")
        print(f"{label:<40} {median:>9.3f} {ratio:>7.1f} {target:>6.0f}x  {met}")


if __name__ == "__main__":
    main()
