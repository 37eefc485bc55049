"""Help that tells the truth: a default ``--help`` states is the default the code uses."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from companion.cli.completion import every, walk
from companion.cli.main import build_parser, main
from companion.cli.options import served_as_before
from companion.session.links import DEFAULT_PORT
from companion.tui.common.language import console_language
from tests.conftest import demo_session

STATED = re.compile(r"\(default:? ([^);,]+)")


def options() -> list[tuple[str, str, object]]:
    """(command, option, the parser's default) for each option whose help states a default."""
    out = []
    for command in every(walk(build_parser())):
        for option in command.options:
            found = STATED.search(option.help)
            if found:
                out.append((" ".join(command.path), option.flags[0], option.default))
    return out


def help_of(command: str, flag: str) -> str:
    for c in every(walk(build_parser())):
        if " ".join(c.path) == command:
            for o in c.options:
                if flag in o.flags:
                    return o.help
    raise AssertionError((command, flag))


def test_a_stated_default_is_the_parser_s_own() -> None:
    # Where the parser holds the default itself, the help must name it (a number, a name, a
    # range), not another one; None means the code decides, which the tests below check.
    checked = 0
    for command, flag, default in options():
        if default in (None, False, argparse.SUPPRESS):
            continue
        stated = STATED.search(help_of(command, flag))
        assert stated is not None
        said = stated.group(1).strip()
        if isinstance(default, bool):
            assert said == (flag if default else f"--no-{flag[2:]}"), (command, flag)
        elif default == "0.0.0.0":
            assert said == "all", (command, flag, said)
        else:
            assert said.split()[0] == str(default), (command, flag, said, default)
        checked += 1
    assert checked >= 15


@pytest.mark.parametrize("command", ["resume", "serve", "links"])
def test_the_port_s_help_says_the_session_s_last_port(command: str) -> None:
    said = help_of(command, "--port")
    assert "where the session served last" in said and str(DEFAULT_PORT) in said


def test_resume_serves_where_the_session_served_last(tmp_path: Path) -> None:
    session = demo_session(tmp_path, "night")
    try:
        session.set("served_on", {"host": "127.0.0.1", "port": 9471})
        args = build_parser().parse_args(["resume", "night"])
        assert args.port is None and args.host is None  # the parser leaves them to the session
        served_as_before(args, session)
        assert (args.host, args.port) == ("127.0.0.1", 9471)
    finally:
        session.close()


def test_a_console_follows_the_laptop_s_locale_as_its_help_says() -> None:
    said = help_of("resume", "--lang")
    assert "LANG" in said and "else en" in said
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        assert variable in said
        assert console_language(None, {variable: "de_DE.UTF-8"}).code == "de", variable
    assert console_language(None, {}).code == "en"


def test_rehearse_listens_where_its_help_says() -> None:
    args = build_parser().parse_args(["rehearse"])
    assert args.host == "127.0.0.1" and "127.0.0.1" in help_of("rehearse", "--host")


def test_print_s_paper_is_a4_unless_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert "a4 (the default)" in help_of("print", "--paper")
    demo_session(tmp_path, "night").close()
    monkeypatch.chdir(tmp_path)
    assert main(["--data-dir", str(tmp_path), "print", "night"]) == 0
    assert "night-a4.pdf" in capsys.readouterr().out
    assert (tmp_path / "night-a4.pdf").is_file()
