"""The spec's example scripts (prison break and So Long Sucker) replay to their expected
output, in-process and through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.replay import play_script
from tests.conftest import EXAMPLES

SCRIPTS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def _comparable(result: dict) -> dict:
    return {**result, "rejected": [{"index": r["index"]} for r in result["rejected"]]}


def _expected(script: Path) -> dict:
    return json.loads(script.with_name(script.stem + ".expected.json").read_text())


def test_there_are_examples_of_both_games() -> None:
    assert sum(p.name.startswith("pb-") for p in SCRIPTS) >= 4
    assert sum(p.name.startswith("sls-") for p in SCRIPTS) >= 3


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_examples_replay_in_process(script: Path) -> None:
    result = play_script(json.loads(script.read_text()))
    assert _comparable(result) == _expected(script)
    assert all(r["error"].endswith(".") for r in result["rejected"])


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_examples_through_the_cli(script: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(script)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert _comparable(json.loads(run.stdout)) == _expected(script)


def test_output_is_deterministic() -> None:
    script = EXAMPLES / "pb-rejections.json"
    outputs = {
        subprocess.run(
            [sys.executable, "-m", "companion", "replay", str(script)],
            capture_output=True,
            check=True,
        ).stdout
        for _ in range(2)
    }
    assert len(outputs) == 1
