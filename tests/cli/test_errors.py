"""Bad input at the command line gets one clear sentence, exit status 2, and no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

GOOD = {"scenario": "classic", "warden": "Wendy", "prisoners": ["Ada", "Ben", "Cy", "Dee"]}


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, check=False
    )


def fatal(run: subprocess.CompletedProcess[str], *words: str) -> None:
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    for word in words:
        assert word in lines[0], lines[0]


BAD_SCRIPTS = [
    ("not json", "{", ["not valid JSON", "line 1"]),
    ("list", "[]", ["JSON object"]),
    (
        "unknown scenario",
        {**GOOD, "scenario": "nope", "commands": []},
        ["no scenario called 'nope'"],
    ),
    ("path in scenario", {**GOOD, "scenario": "../x", "commands": []}, ["not a scenario name"]),
    (
        "too few",
        {**GOOD, "prisoners": ["Ada"], "commands": []},
        ["balanced for exactly 4", "has 1"],
    ),
    ("duplicate", {**GOOD, "prisoners": ["Ada", "Ada", "B", "C"], "commands": []}, ["used twice"]),
    (
        "warden twice",
        {**GOOD, "prisoners": ["Wendy", "Ada", "B", "C"], "commands": []},
        ["used twice"],
    ),
    ("empty name", {**GOOD, "prisoners": ["", "Ada", "B", "C"], "commands": []}, ["empty"]),
    (
        "long name",
        {**GOOD, "prisoners": ["x" * 41, "Ada", "B", "C"], "commands": []},
        ["at most 40"],
    ),
    ("bad override", {**GOOD, "rules": {"nights_to_escape": 0}, "commands": []}, ["at least 1"]),
    (
        "unknown override",
        {**GOOD, "rules": {"nights": 3}, "commands": []},
        ["unknown key 'nights'"],
    ),
    ("no commands", GOOD, ["missing the key 'commands'"]),
    ("unknown do", {**GOOD, "commands": [{"do": "fly"}]}, ["Command 0", "unknown command 'fly'"]),
    ("no do", {**GOOD, "commands": [{}, {"x": 1}]}, ["Command 0", "no 'do'"]),
    (
        "missing field",
        {**GOOD, "commands": [{"do": "close_planning"}, {"do": "search"}]},
        ["Command 1", "'prisoner' is missing"],
    ),
    (
        "mistyped",
        {**GOOD, "commands": [{"do": "interview", "prisoner": "Ada", "deal": "yes"}]},
        ["Command 0", "'deal' must be true or false"],
    ),
    (
        "bad choice",
        {**GOOD, "commands": [{"do": "choose", "prisoner": "Ada", "choice": "sleep"}]},
        ["Command 0", "'choice' must be"],
    ),
    ("command not object", {**GOOD, "commands": ["undo"]}, ["Command 0", "JSON object"]),
    ("unknown game", {**GOOD, "game": "chess", "commands": []}, ["game 'chess' is unknown"]),
]


@pytest.mark.parametrize(
    "content, words", [(c, w) for _, c, w in BAD_SCRIPTS], ids=[n for n, _, _ in BAD_SCRIPTS]
)
def test_a_fatal_script_is_one_line_and_exit_2(tmp_path: Path, content, words) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "s.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    fatal(companion("replay", str(path)), *words)


def test_missing_and_non_utf8_script_files(tmp_path: Path) -> None:
    fatal(companion("replay", str(tmp_path / "none.json")), "no script file")
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"scenario": "caf\xe9"}')
    fatal(companion("replay", str(bad)), "not UTF-8")


def test_scenario_listing_and_checking() -> None:
    run = companion("scenarios")
    assert run.returncode == 0 and "classic" in run.stdout
    run = companion("check-scenario", str(ROOT / "scenarios" / "classic.toml"))
    assert run.returncode == 0 and "valid" in run.stdout


@pytest.mark.parametrize(
    "toml, words",
    [
        ("min_prisoners = 4\n", ["missing the key"]),
        ("colour = 1\n", ["unknown key 'colour'"]),
        ("nights_to_escape = \n", ["not valid TOML"]),
    ],
)
def test_bad_scenario_files_are_one_sentence(tmp_path: Path, toml: str, words: list[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(toml)
    fatal(companion("check-scenario", str(path)), str(path), *words)


def test_unknown_session_is_one_sentence(tmp_path: Path) -> None:
    fatal(companion("--data-dir", str(tmp_path), "resume", "ghost"), "no session called 'ghost'")


def test_an_unknown_option_is_named_before_a_missing_name() -> None:
    # Not "companion new: the following arguments are required: name".
    run = companion("new", "-x")
    fatal(run, "there is no option -x")
    assert "required" not in run.stderr
    fatal(companion("new", "friday", "--bogus=1"), "there is no option --bogus")


def test_resume_suggests_a_saved_name_in_another_case(tmp_path: Path) -> None:
    # Not "There is no session called 'Friday'" without a word about 'friday'.
    from tests.conftest import demo_session

    demo_session(tmp_path, "friday").close()
    fatal(companion("--data-dir", str(tmp_path), "resume", "Friday"), "did you mean 'friday'?")
    fatal(companion("--data-dir", str(tmp_path), "resume", "fridya"), "did you mean 'friday'?")


def test_a_warm_up_has_no_seat_links_but_the_rooms(tmp_path: Path) -> None:
    # `companion links` on a warm-up's session (no warden) gives the room's join link and the
    # board, as no seat has a link of its own.
    from companion.session.dilemma.create import open_or_create_dilemma

    open_or_create_dilemma(tmp_path, "warm", "dilemma", None).close()
    done = companion("--data-dir", str(tmp_path), "links", "warm")
    assert done.returncode == 0, done.stderr
    assert "/join-room" in done.stdout and "/board" in done.stdout and "/gm/" not in done.stdout


def test_a_command_that_does_not_exist_is_named_with_the_one_probably_meant() -> None:
    fatal(companion("sesions"), "there is no command 'sesions'", "did you mean 'sessions'?",
          "companion --help")
    fatal(companion("--data-dir", "x", "replya"), "did you mean 'replay'?")
    nothing_close = companion("frobnicate")
    fatal(nothing_close, "there is no command 'frobnicate'")
    assert "did you mean" not in nothing_close.stderr
    # what was typed is shown as data: a terminal's control characters are not sent to it
    fatal(companion("x\x1b[31m"), "there is no command 'x\\x1b[31m'")
