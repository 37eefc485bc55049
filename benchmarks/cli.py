"""How long the ``companion`` command takes to answer, beside ``python -c pass``, in one run.

Run: .venv/bin/python benchmarks/cli.py [--runs 9] [--python VENV/bin/python]
Prints, for each command, the median wall time of a few runs (a fresh process each, from a
temporary home holding one prison-break session), and its ratio to ``python -c pass`` measured in
the same run, interleaved with the commands so that the machine's load falls on both alike. The
session is in the user's default data folder (a temporary HOME), as on the night. The targets
(docs/RELIABILITY.md): --help and sessions within 3x of ``python -c pass``; scenarios, links NAME
--json and replay of the shipped examples have none, as what they must import is above it or near
it already. It asserts nothing. More lines, without a target, are floors: that of anything that
validates with pydantic, as ``replay`` does (importing pydantic and validating one model of one
field, with pydantic's plugin scan off, as the companion runs it), and, for ``sessions``,
``scenarios`` and ``links``, importing the standard library's modules each needs.

By default it times this checkout (``PYTHONPATH``), run with this interpreter; in a virtual
environment made for development that is an editable install, whose finder every process runs at
start-up, ``python -c pass`` included. ``--python`` times the companion installed (from a
wheel, say) in that interpreter's environment instead, by its own ``companion`` command (the
script pip made beside that interpreter, which a game master types), from a folder outside the
checkout.

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


# Import pydantic and validate one tiny model: what any use of a pydantic model costs at least.
PYDANTIC_FLOOR = (
    "import os; os.environ['PYDANTIC_DISABLE_PLUGINS'] = '__all__'\n"
    "from pydantic import BaseModel\n"
    "class Tiny(BaseModel):\n    x: int\n"
    "Tiny.model_validate({'x': 1})\n"
)


# What a command cannot start without, whatever the companion's own code does: the modules of
# the standard library it needs (the installed script imports re; argparse parses every
# command; a session is a SQLite file whose metadata is JSON; a scenario is TOML; a seat's
# code is an HMAC; the laptop's address is a socket's route).
FLOORS = (
    ("sessions", "re, argparse, pathlib, sqlite3, json"),
    ("scenarios", "re, argparse, pathlib, tomllib"),
    ("links --json", "re, argparse, pathlib, sqlite3, json, hmac, secrets, socket"),
)


def commands(
    examples: list[Path], python: str, cli: list[str]
) -> list[tuple[str, list[str], float]]:
    """(label, the command, target ratio; 0 for none); ``cli`` runs companion."""
    out = [
        ("python -c pass", [python, "-c", "pass"], 1.0),
        ("python: pydantic, one tiny model", [python, "-c", PYDANTIC_FLOOR], 0.0),
        *((f"python: {label}, its modules", [python, "-c", f"import {modules}"], 0.0)
          for label, modules in FLOORS),
        ("companion --help", [*cli, "--help"], 3.0),
        ("companion sessions", [*cli, "sessions"], 3.0),
        ("companion scenarios", [*cli, "scenarios"], 0.0),
        ("companion links bench --json", [*cli, "links", "bench", "--json"], 0.0),
    ]
    for script in examples:
        out.append((f"companion replay {script.name}", [*cli, "replay", str(script)], 0.0))
    return out


def once(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, cwd=cwd)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each command (default 9)")
    parser.add_argument("--python", help="time the companion installed in this interpreter's "
                        "environment (default: this checkout, run with this interpreter)")
    options = parser.parse_args()
    runs, python = options.runs, options.python or sys.executable
    examples = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))
    with tempfile.TemporaryDirectory() as tmp:
        # The game master's own folders, as a night uses them (HOME is the temporary folder, so
        # the sessions are in its .local/share/companion), not a $COMPANION_DATA_DIR of one's own.
        env = dict(os.environ, HOME=tmp, PYTHONPYCACHEPREFIX=str(Path(tmp) / "bytecode"))
        for name in ("COMPANION_DATA_DIR", "COMPANION_SCENARIOS", "XDG_DATA_HOME"):
            env.pop(name, None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("PYDANTIC_DISABLE_PLUGINS", None)
        if options.python:  # the installed package, not the checkout, by its own command
            env.pop("PYTHONPATH", None)
            cwd = Path(tmp)
            cli = [str(Path(python).parent / "companion")]
        else:
            env["PYTHONPATH"] = str(ROOT)
            cwd = ROOT
            cli = [python, "-m", "companion"]
        subprocess.run(
            [python, "-m", "companion", "new", "bench", "--warden", "Wendy",
             "--prisoners", "Ada,Ben,Cy,Dee", "--create-only"],
            env=env, check=True, stdout=subprocess.DEVNULL, cwd=cwd,
        )
        where = subprocess.run(
            [python, "-c", "import companion; print(companion.__file__)"],
            env=env, check=True, capture_output=True, text=True, cwd=cwd,
        ).stdout.strip()
        table = commands(examples, python, cli)
        for _, argv, _ in table:  # compiles the bytecode, and makes the seats links reads
            once(argv, env, cwd)
        times: dict[str, list[float]] = {label: [] for label, _, _ in table}
        for _ in range(runs):  # round-robin, so a busy moment slows every command alike
            for label, argv, _ in table:
                times[label].append(once(argv, env, cwd))
    base = statistics.median(times["python -c pass"])
    print(f"median wall time of {runs} runs, each a fresh process ({python}, companion from "
          f"{Path(where).parent}), from compiled bytecode")
    print(f"{'command':<40} {'median s':>9} {'x pass':>7} {'target':>7}  met")
    for label, _, target in table:
        median = statistics.median(times[label])
        ratio = median / base
        met = "" if target in (0.0, 1.0) else ("yes" if ratio <= target else "no")
        aim = f"{target:>6.0f}x" if target else f"{'-':>7}"
        print(f"{label:<40} {median:>9.3f} {ratio:>7.1f} {aim}  {met}")


if __name__ == "__main__":
    main()
