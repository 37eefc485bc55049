"""The command line answers at once: building every command's parser imports no game's models
and no face. Each command imports what it uses when it runs (benchmarks/cli.py times them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Top-level packages a parser must not need: the faces' libraries, the models' library.
HEAVY = ("textual", "rich", "aiohttp", "jinja2", "fpdf", "pydantic", "pydantic_core")
# Companion modules a parser must not need: any game's rules models, the faces, the simulator.
HEAVY_OWN = (
    "companion.rules.prison", "companion.rules.dilemma", "companion.rules.sucker",
    "companion.tui", "companion.web", "companion.printing", "companion.sim",
    "companion.cli.consoles",
)


def imported_by(*argv: str) -> set[str]:
    """The modules ``python -X importtime -m companion ARGV`` imports (from its stderr)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "companion", *argv],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage: companion" in done.stdout
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    assert "companion.cli.main" in names  # the dump is what we think it is
    return names


def heavy_in(names: set[str]) -> list[str]:
    return sorted(
        n for n in names
        if n.split(".")[0] in HEAVY or any(n == h or n.startswith(h + ".") for h in HEAVY_OWN)
    )


def test_help_imports_no_model_and_no_face() -> None:
    assert heavy_in(imported_by("--help")) == []


def test_a_command_s_help_imports_no_model_and_no_face() -> None:
    for command in ("replay", "balance", "resume"):
        assert heavy_in(imported_by(command, "--help")) == [], command


def test_the_guard_sees_a_heavy_import() -> None:
    # The check itself can fail: a module that is heavy by these rules is reported.
    assert heavy_in({"pydantic.main", "companion.rules.prison.commands", "companion.cli.main",
                     "textual.app", "companion.rules.core.words"}) == [
        "companion.rules.prison.commands", "pydantic.main", "textual.app"]
