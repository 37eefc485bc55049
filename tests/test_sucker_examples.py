"""The spec's sls-* example scripts replay to their expected output; fatal scripts exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.commands.replay import play_script
from companion.errors import UserError
from tests.conftest import EXAMPLES

SLS = sorted(p for p in EXAMPLES.glob("sls-*.json") if not p.name.endswith(".expected.json"))


def _comparable(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "rejected": [{"index": r["index"]} for r in result["rejected"]]}


def _expected(script: Path) -> dict[str, Any]:
    return json.loads(script.with_name(script.stem + ".expected.json").read_text())


def test_there_are_sucker_examples() -> None:
    assert len(SLS) >= 3


@pytest.mark.parametrize("script", SLS, ids=lambda p: p.stem)
def test_sucker_examples_replay_in_process(script: Path) -> None:
    result = play_script(json.loads(script.read_text()))
    assert _comparable(result) == _expected(script)
    assert all(r["error"].endswith(".") for r in result["rejected"])


@pytest.mark.parametrize("script", SLS, ids=lambda p: p.stem)
def test_sucker_examples_through_the_cli(script: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(script)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert _comparable(json.loads(run.stdout)) == _expected(script)


BASE: dict[str, Any] = {
    "game": "so-long-sucker",
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}],
    "chips_per_player": 2,
    "first": "Ann",
}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"commands": [{"do": "fly"}]}, "Command 0: unknown command 'fly'"),
        ({"commands": [{"do": "play", "player": "Ann", "color": "red"}]}, "'pile' is missing"),
        (
            {"commands": [{"do": "next", "player": "Bo"}, {"do": "play", "player": "Ann",
                                                          "color": "red", "pile": "top"}]},
            "Command 1: 'pile' must be a pile number",
        ),
        ({"commands": [{"do": "undo", "n": 2}]}, "'undo' takes no other fields"),
        ({"commands": [], "colour": 1}, "unknown key 'colour'"),
        ({"commands": [], "first": "Zed"}, "first mover 'Zed'"),
        ({"commands": [], "players": []}, "2 to 6 players"),
        ({"commands": "play"}, "'commands' must be a list"),
        ({}, "missing the key 'commands'"),
    ],
)
def test_fatal_scripts_raise_one_sentence(change: dict[str, Any], words: str) -> None:
    with pytest.raises(UserError, match=words) as caught:
        play_script({**BASE, **change})
    assert str(caught.value).endswith(".") and "\n" not in str(caught.value)


def test_a_fatal_script_exits_2_with_nothing_on_stdout(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**BASE, "commands": [{"do": "kill", "player": "Ann"}]}))
    run = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path)],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("companion: Command 0:") and run.stderr.count("\n") == 1


def test_undo_is_a_stack_and_refused_when_there_is_nothing_to_undo() -> None:
    commands = [
        {"do": "undo"},
        {"do": "play", "player": "Ann", "color": "red", "pile": "new"},
        {"do": "play", "player": "Bo", "color": "blue", "pile": 1},
        {"do": "undo"},
        {"do": "undo"},
        {"do": "undo"},
    ]
    result = play_script({**BASE, "commands": commands})
    assert [r["index"] for r in result["rejected"]] == [0, 5]
    assert result["piles"] == {} and result["awaiting"] == {"what": "play", "player": "Ann"}
