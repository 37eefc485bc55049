"""Any distinct chip colors play together: each gets its own letter (black is K, as printers
do; a clash takes the next free letter of the name), and every So Long Sucker script of the
contract replays with any such colors, in-process and through ``companion replay``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.cli.replay import play_script
from companion.rules.sucker.setup import COLORS
from companion.rules.sucker.views import color_keys
from tests.conftest import EXAMPLES, examples

SCRIPTS = sorted(EXAMPLES.glob("sls-*[!d].json"))  # not the .expected.json files
# The examples' colors, in their seating order, and sets to play them with instead.
THEIRS = ["red", "blue", "green", "yellow"]
SETS = {
    "poker": ["white", "red", "blue", "black"],
    "poker-other-seats": ["black", "blue", "green", "white"],
    "all-g": ["gold", "green", "grey", "gray"],
    "all-b": ["blue", "black", "brown", "beige"],
    "any-names": ["mauve", "chartreuse", "Bleu de France", "sea green"],  # none of COLORS
}
POKER = ["white", "red", "blue", "green", "black"]


def test_the_examples_are_the_contracts() -> None:
    assert [p.name for p in SCRIPTS] == ["sls-capture.json", "sls-defeat.json", "sls-opening.json"]


def recolored(data: Any, mapping: dict[str, str]) -> Any:
    """``data`` with every color renamed: as values (players, commands, piles) and as keys
    (holdings, dead)."""
    if isinstance(data, dict):
        return {mapping.get(k, k): recolored(v, mapping) for k, v in data.items()}
    if isinstance(data, list):
        return [recolored(v, mapping) for v in data]
    if isinstance(data, str):
        return mapping.get(data, data)
    return data


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "rejected": [{"index": r["index"]} for r in result["rejected"]]}


def case(script: Path, colors: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    mapping = dict(zip(THEIRS, colors, strict=True))
    data = json.loads(script.read_text())
    expected = json.loads(script.with_name(script.stem + ".expected.json").read_text())
    assert {p["color"] for p in data["players"]} <= set(THEIRS)
    return recolored(data, mapping), recolored(expected, mapping)


@pytest.mark.parametrize("colors", SETS.values(), ids=SETS.keys())
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_every_example_replays_with_other_colors(script: Path, colors: list[str]) -> None:
    data, expected = case(script, colors)
    assert comparable(play_script(data)) == expected


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_companion_replay_plays_them_with_a_poker_set(script: Path, tmp_path: Path) -> None:
    data, expected = case(script, SETS["poker"])
    path = tmp_path / script.name
    path.write_text(json.dumps(data))
    run = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path)],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert comparable(json.loads(run.stdout)) == expected


def test_a_five_player_poker_game_goes_round_blue_and_black_apart() -> None:
    names = ["Ann", "Bo", "Cat", "Dan", "Eve"]
    script = {
        "game": "so-long-sucker",
        "players": [{"name": n, "color": c} for n, c in zip(names, POKER, strict=True)],
        "chips_per_player": 3,
        "first": "Ann",
        "commands": [
            {"do": "play", "player": "Ann", "color": "white", "pile": "new"},
            {"do": "next", "player": "Eve"},
            {"do": "play", "player": "Eve", "color": "black", "pile": 1},
            {"do": "next", "player": "Cat"},
            {"do": "play", "player": "Cat", "color": "blue", "pile": 1},
            {"do": "next", "player": "Cat"},  # blue is in the pile: refused
            {"do": "next", "player": "Bo"},
            {"do": "play", "player": "Bo", "color": "red", "pile": 1},  # only green is left
            {"do": "play", "player": "Dan", "color": "green", "pile": 1},
        ],
    }
    result = play_script(script)
    assert [r["index"] for r in result["rejected"]] == [5]
    assert result["piles"] == {"1": ["white", "black", "blue", "red", "green"]}
    assert result["holdings"]["Eve"] == {"black": 2} and result["holdings"]["Cat"] == {"blue": 2}
    assert result["awaiting"] == {"what": "play", "player": "Ann"}  # the deepest


def test_the_poker_set_has_its_printers_letters() -> None:
    assert color_keys(POKER) == {"white": "W", "red": "R", "blue": "B", "green": "G",
                                 "black": "K"}
    assert color_keys(["Black", "blue"]) == {"Black": "K", "blue": "B"}


@pytest.mark.parametrize(
    ("colors", "letters"),
    [
        # G is every one's initial: it names none of them, nor does R, red's
        (["gold", "green", "red", "grey"], ["O", "E", "R", "Y"]),
        (["gold", "green", "grey"], ["O", "R", "E"]),
        (["green", "gold", "grey"], ["R", "O", "E"]),  # in seating order
        (["blue", "brown", "beige"], ["L", "R", "E"]),
        (["teal", "tan", "turquoise"], ["E", "A", "U"]),
        (["pink", "purple", "black", "blue"], ["I", "U", "K", "B"]),
        (["blue", "black"], ["B", "K"]),  # they play together: black is K
    ],
)
def test_a_shared_initial_names_none_of_its_colors(colors: list[str], letters: list[str]) -> None:
    assert list(color_keys(colors).values()) == letters


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from(COLORS), min_size=2, max_size=6, unique=True))
@example(["teal", "magenta", "navy", "maroon", "tan"])  # tan: T, A and N all taken before it
@example(["gold", "green", "red", "grey"])
def test_a_colors_own_initial_never_names_another_color(colors: list[str]) -> None:
    keys = color_keys(colors)
    assert len(set(keys.values())) == len(colors)
    initials = {color: "K" if color == "black" else color[0].upper() for color in colors}
    for color in colors:
        key = keys[color]
        assert key.isupper() and len(key) == 1
        owner = [c for c, k in keys.items() if k == initials[color]]
        assert owner in ([], [color]), (color, keys)  # its initial is its own, or nobody's
        if list(initials.values()).count(initials[color]) == 1:
            assert key == initials[color]  # an initial no other color has is the letter


def test_a_script_color_need_not_be_one_the_console_knows_but_must_be_a_name() -> None:
    from companion.rules.sucker.setup import SetupError, seats_from

    seats = seats_from([{"name": "Ann", "color": "mauve"}, {"name": "Bo", "color": "Mauve"[:4]}])
    assert [s.color for s in seats] == ["mauve", "Mauv"]
    for bad in ("", "   ", "red\x1b[2J", "x" * 25):
        with pytest.raises(SetupError) as error:
            seats_from([{"name": "Ann", "color": bad}, {"name": "Bo", "color": "blue"}])
        assert str(error.value).count(".") == 1, error.value
    with pytest.raises(SetupError, match="used twice"):
        seats_from([{"name": "Ann", "color": "Mauve"}, {"name": "Bo", "color": "mauve"}])
