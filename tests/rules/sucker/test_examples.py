"""So Long Sucker scripts: fatal ones exit 2 with one sentence, undo, and fuzzing (the spec's
sls-* examples are replayed in tests/test_examples.py with the prison break's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.replay import play_script
from companion.errors import UserError
from tests.conftest import examples

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


# ---- whatever a script holds: a result or one sentence ---------------------------------------

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 9), st.text(max_size=8))
_anything = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
_names = st.sampled_from(["Ann", "Bo", "Zed", ""])
_colors = st.sampled_from(["red", "blue", "pink"])
_command = st.fixed_dictionaries(
    {"do": st.sampled_from(["play", "next", "kill", "transfer", "kill_prisoner", "refuse",
                            "undo", "fly"])},
    optional={"player": st.one_of(_names, _anything), "color": st.one_of(_colors, _anything),
              "pile": st.one_of(st.just("new"), st.integers(-1, 4), _anything),
              "to": _names},
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.one_of(st.just(BASE["players"]), _anything),
    chips=st.one_of(st.integers(0, 3), _anything),
    first=st.one_of(_names, _anything),
    commands=st.one_of(st.lists(st.one_of(_command, _anything), max_size=12), _anything),
)
def test_any_script_gives_a_result_or_one_sentence(
    players: Any, chips: Any, first: Any, commands: Any
) -> None:
    data = {"game": "so-long-sucker", "players": players, "chips_per_player": chips,
            "first": first, "commands": commands}
    try:
        result = play_script(data)
    except UserError as error:
        message = str(error)
        assert message.endswith(".") and "\n" not in message
        return
    json.dumps(result)
    assert all(r["error"].endswith(".") for r in result["rejected"])
