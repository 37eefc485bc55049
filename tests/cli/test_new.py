"""``companion new NAME`` without typing: the roster from the command line or a sign-up form's
CSV, the scenario picked for the group's size (or given by name or path), ``--create-only``.
Every mistake is one sentence, exit 2, and creates nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli.main import main
from companion.session.create import open_session
from companion.session.paths import user_scenario_dir
from tests.conftest import ROOT

SIX = "Ada,Ben,Cy,Dee,Eve,Flo"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def refused(capsys: pytest.CaptureFixture[str], folder: Path, *argv: str) -> str:
    status, out, err = run(capsys, "--data-dir", str(folder), *argv)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: ") and "Traceback" not in err
    assert not folder.exists() or list(folder.iterdir()) == []
    return lines[0]


def test_six_prisoners_get_the_scenario_balanced_for_six(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run(capsys, "--data-dir", str(tmp_path), "new", "evening",
                           "--warden", "Wendy", "--prisoners", SIX, "--create-only")
    assert status == 0, err
    assert "scenario balanced-6, picked for 6 prisoners" in out
    assert f"Saved in {tmp_path / 'evening.sqlite'}." in out
    session = open_session(tmp_path, "evening")
    assert session.setup["scenario"] == "balanced-6"
    assert session.setup["warden"] == "Wendy"
    assert session.setup["prisoners"] == SIX.split(",")
    session.close()


def test_four_prisoners_get_classic_and_a_scenario_may_be_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(capsys, "--data-dir", str(tmp_path), "new", "four", "--warden", "Wendy",
               "--prisoners", "Ada, Ben ,Cy,Dee", "--create-only")[0] == 0
    own = tmp_path / "mine" / "tight.toml"
    own.parent.mkdir()
    text = (ROOT / "scenarios" / "balanced-5.toml").read_text("utf-8")
    own.write_text(text.replace("nights_to_escape = 6", "nights_to_escape = 7"), "utf-8")
    assert run(capsys, "--data-dir", str(tmp_path), "new", "five", "--warden", "Wendy",
               "--prisoners", "Ada,Ben,Cy,Dee,Eve", "--scenario", str(own), "--create-only")[0] == 0
    four, five = open_session(tmp_path, "four"), open_session(tmp_path, "five")
    assert four.setup["scenario"] == "classic" and four.setup["prisoners"][1] == "Ben"
    assert five.setup["scenario"] == "tight" and five.setup["rules"]["nights_to_escape"] == 7
    four.close()
    five.close()


def test_the_users_balanced_scenario_replaces_the_shipped_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (ROOT / "scenarios" / "balanced-6.toml").read_text("utf-8")
    user_scenario_dir().mkdir(parents=True, exist_ok=True)
    (user_scenario_dir() / "balanced-6.toml").write_text(
        text.replace("nights_to_escape = 8", "nights_to_escape = 9"), "utf-8"
    )
    assert run(capsys, "--data-dir", str(tmp_path / "s"), "new", "evening", "--warden", "W",
               "--prisoners", SIX, "--create-only")[0] == 0
    session = open_session(tmp_path / "s", "evening")
    assert session.setup["rules"]["nights_to_escape"] == 9
    session.close()


SPREADSHEET = (
    "\ufeffTimestamp,Name,Role\r\n"
    "2026-11-01 18:00,Zoë,warden\r\n"
    "2026-11-01 18:02,Anaïs,\r\n"
    "\r\n"
    "2026-11-02 09:10,Björn,prisoner\r\n"
    "2026-11-02 09:11,Ćiro,\r\n"
    "2026-11-02 09:15,Dée,\r\n"
)


def test_a_spreadsheets_roster_with_a_bom_accents_and_a_blank_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    roster = tmp_path / "signup.csv"
    roster.write_text(SPREADSHEET, encoding="utf-8", newline="")
    folder = tmp_path / "sessions"
    status, out, err = run(capsys, "--data-dir", str(folder), "new", "night", "--roster",
                           str(roster), "--create-only")
    assert status == 0, err
    session = open_session(folder, "night")
    assert session.setup["warden"] == "Zoë"
    assert session.setup["prisoners"] == ["Anaïs", "Björn", "Ćiro", "Dée"]
    assert session.setup["scenario"] == "classic"
    session.close()


def test_a_duplicate_in_the_roster_is_refused_naming_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    roster = tmp_path / "signup.csv"
    # The duplicate differs in case, and its accent is written decomposed (as macOS may).
    roster.write_text(SPREADSHEET + "2026-11-02 09:20,anai\u0308s,\r\n", "utf-8", newline="")
    line = refused(capsys, tmp_path / "sessions", "new", "night", "--roster", str(roster),
                   "--create-only")
    assert f"{roster} line 8 names anaïs again (already on line 3)" in line


@pytest.mark.parametrize(
    ("name", "other"),
    [("Will", "WiII"), ("Ian", "lan"), ("Al", "AI"), ("Bill", "BiIl"), ("Ada", "ᴀda")],
)
def test_a_look_alike_is_refused_in_the_roster_file_and_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, other: str
) -> None:
    roster = tmp_path / "r.csv"
    roster.write_text(f"Name,Role\nZoë,warden\nCy,\n{name},\nDee,\n{other},\n", "utf-8")
    line = refused(capsys, tmp_path / "s", "new", "n", "--roster", str(roster), "--create-only")
    assert f"line 6 names {other} again (already on line 4)" in line
    argv = ("--prisoners", f"Cy,{name},Dee,{other}", "--warden", "Wendy", "--create-only")
    assert f"{other!r} is used twice" in refused(capsys, tmp_path / "s2", "new", "n", *argv)


def test_semicolons_and_no_role_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    roster = tmp_path / "names.csv"
    roster.write_text("Your name;E-mail\nAda;a@x\nBen;b@x\nCy;\nDee;\nEve;\n", "utf-8")
    assert run(capsys, "--data-dir", str(tmp_path / "s"), "new", "n", "--roster", str(roster),
               "--warden", "Wendy", "--create-only")[0] == 0
    session = open_session(tmp_path / "s", "n")
    assert session.setup["prisoners"] == ["Ada", "Ben", "Cy", "Dee", "Eve"]
    assert session.setup["scenario"] == "balanced-5"
    session.close()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("Name,Role\nZoë,warden\nAda,\nBen,guard\n", "line 4 gives Ben the role 'guard'"),
        # A line of empty cells is a blank line, so Ada is alone: too few for any scenario.
        ("Name,Role\nZoë,warden\nAda,\n,\n", "the roster has 1"),
        ("Name,Role\nZoë,warden\nAda,\n,prisoner\n", "line 4 has no name"),
        ("Name,Role\nZoë,warden\nAda,\nBo,warden\n", "line 4 names a second warden, Bo"),
        ("Who,Role\nZoë,warden\n", "line 1 has no name column"),
        ("First name,Last name\nZoë,W\n", "line 1 has several name columns"),
        ("Name\n", "names no prisoners"),
        ("", "is empty"),
        ("Name,Role\nZoë,warden\n" + "x" * 50 + ",\n", "line 3: the prisoner's name"),
    ],
)
def test_a_roster_file_with_a_mistake(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, words: str
) -> None:
    roster = tmp_path / "r.csv"
    roster.write_text(content, "utf-8")
    argv = ("new", "n", "--roster", str(roster), "--create-only")
    assert words in refused(capsys, tmp_path / "s", *argv)


def test_a_roster_that_is_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    roster = tmp_path / "latin1.csv"
    roster.write_bytes("Name\nAda\nZoë\n".encode("latin-1"))
    line = refused(capsys, tmp_path / "s", "new", "n", "--roster", str(roster), "--warden", "W",
                   "--create-only")
    assert "line 3 is not UTF-8 text" in line and "CSV UTF-8" in line


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--prisoners", "Ada,,Ben", "--warden", "W"], "--prisoners has no name in place 2"),
        (["--prisoners", SIX], "The roster has no warden"),
        (["--warden", "W"], "Give the prisoners with --prisoners"),
        (["--prisoners", SIX, "--warden", "Ada"], "'Ada' is used twice"),
        (["--prisoners", SIX, "--warden", "W", "--scenario", "nowhere"],
         "There is no scenario called 'nowhere'"),
        (["--prisoners", SIX, "--warden", "W", "--scenario", "missing.toml"],
         "There is no scenario file at missing.toml"),
        (["--prisoners", SIX, "--warden", "W", "--scenario", "classic"],
         "balanced for exactly 4 prisoners, but the roster has 6"),
        (["--prisoners", SIX, "--roster", "x.csv", "--warden", "W"], "not both"),
        (["--roster", "nowhere.csv", "--warden", "W"], "There is no roster file at nowhere.csv"),
    ],
)
def test_mistakes_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], words: str
) -> None:
    assert words in refused(capsys, tmp_path / "s", "new", "n", *argv, "--create-only")


def test_the_warden_of_the_file_and_of_the_option_must_agree(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    roster = tmp_path / "r.csv"
    roster.write_text("Name,Role\nZoë,warden\nAda\nBen\nCy\nDee\n", "utf-8")
    line = refused(capsys, tmp_path / "s", "new", "n", "--roster", str(roster), "--warden",
                   "Wendy", "--create-only")
    assert "line 2 makes Zoë the warden, but --warden names Wendy" in line


def test_without_create_only_a_pipe_is_refused_before_anything_is_created(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    line = refused(capsys, tmp_path / "s", "new", "n", "--prisoners", SIX, "--warden", "W")
    assert "needs a terminal" in line


def test_without_scenario_nor_names_the_set_up_screen_is_automatic(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.cli import new

    opened: list[object] = []
    monkeypatch.setattr(new, "open_console", lambda session, args, new: opened.append(new) or 0)
    assert run(capsys, "--data-dir", str(tmp_path), "new", "eve", "--no-phones")[0] == 0
    assert run(capsys, "--data-dir", str(tmp_path), "new", "fri", "--no-phones",
               "--scenario", "balanced-6")[0] == 0
    assert opened == [("eve", None), ("fri", "balanced-6")]


def test_lang_is_the_sessions_language_and_an_unknown_one_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from companion.session.create import open_session

    status, out, err = run(capsys, "--data-dir", str(tmp_path), "new", "abend", "--lang", "de_DE",
                           "--warden", "Wendy", "--prisoners", SIX, "--create-only")
    assert status == 0, err
    session = open_session(tmp_path, "abend")
    try:
        assert session.settings["lang"] == "de"
    finally:
        session.close()
    line = refused(capsys, tmp_path / "other", "new", "x", "--lang", "tlh", "--warden", "W",
                   "--prisoners", SIX, "--create-only")
    assert line == "companion: 'tlh' is not a language companion speaks; use one of en, de, es, fr."


def test_create_only_keeps_host_and_port_for_the_cards_and_resume(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import argparse

    from companion.cli.options import served_as_before
    from companion.printing.prison.document import choose_base
    from companion.session.links import served_on

    status, out, err = run(capsys, "--data-dir", str(tmp_path), "new", "evening",
                           "--warden", "Wendy", "--prisoners", SIX, "--create-only",
                           "--host", "127.0.0.1", "--port", "9371")
    assert status == 0, err
    assert "Its cards' links start with http://127.0.0.1:9371; 'companion resume evening' " \
        "serves the phones on 127.0.0.1 port 9371." in out
    session = open_session(tmp_path, "evening")
    try:
        assert choose_base(session) == "http://127.0.0.1:9371"  # what the cards point at
        assert served_on(session) == ("127.0.0.1", 9371)
        args = argparse.Namespace(host=None, port=None)  # resume without options
        served_as_before(args, session)
        assert (args.host, args.port) == ("127.0.0.1", 9371)
    finally:
        session.close()
    status, out, err = run(capsys, "--data-dir", str(tmp_path), "new", "pinned",
                           "--warden", "Wendy", "--prisoners", SIX, "--create-only",
                           "--port", "9372", "--public-url", "http://games.example:80/")
    assert status == 0, err
    session = open_session(tmp_path, "pinned")
    try:
        assert choose_base(session) == "http://games.example:80"
        assert served_on(session) == ("0.0.0.0", 9372)
    finally:
        session.close()


def test_create_only_refuses_a_bad_port_in_one_sentence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    line = refused(capsys, tmp_path, "new", "evening", "--warden", "Wendy", "--prisoners", SIX,
                   "--create-only", "--port", "70000")
    assert "The port 70000 is out of range" in line
