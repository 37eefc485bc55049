"""The command line answers at once: building every command's parser imports no game's models
and no face. Each command imports what it uses when it runs (benchmarks/cli.py times them):
``scenarios`` and ``links NAME --json`` read their files without building a game's models."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Top-level packages a parser must not need: the faces' libraries, the models' library.
HEAVY = ("textual", "rich", "aiohttp", "jinja2", "fpdf", "pydantic", "pydantic_core")
# Companion modules a parser must not need: any game's rules models, the faces, the simulator.
HEAVY_OWN = (
    "companion.rules.prison", "companion.rules.dilemma", "companion.rules.sucker",
    "companion.tui", "companion.web", "companion.printing", "companion.sim",
    "companion.cli.consoles",
)


def imported_by(
    *argv: str, says: str = "usage: companion", data: Path | None = None, home: Path | None = None
) -> set[str]:
    """The modules ``python -X importtime -m companion ARGV`` imports (from its stderr), with the
    sessions in ``data``, or in the default folders of a user whose home is ``home``."""
    env = at_home(home) if home is not None else dict(os.environ, PYTHONPATH=str(ROOT))
    if data is not None:
        env["COMPANION_DATA_DIR"] = str(data)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "companion", *argv],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert says in done.stdout
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    assert "companion.cli.main" in names  # the dump is what we think it is
    return names


def at_home(home: Path) -> dict[str, str]:
    """The environment of a game master whose home is ``home``, with no folders of their own."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(home))
    for name in ("COMPANION_DATA_DIR", "COMPANION_SCENARIOS", "XDG_DATA_HOME"):
        env.pop(name, None)
    return env


def heavy_in(names: set[str], light: tuple[str, ...] = ()) -> list[str]:
    """The heavy modules among ``names``, but for the ``light`` ones a command may need."""
    return sorted(
        n for n in names
        if n not in light
        and (n.split(".")[0] in HEAVY or any(n == h or n.startswith(h + ".") for h in HEAVY_OWN))
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


# What the two commands below may import of a game and a face: the prison break's package (its
# name), the bounds of its scenario numbers (standard library only), its seats in the session
# file, and the laptop's address (a socket's route lookup), none of which builds a model.
PRISON_NAME = ("companion.rules.prison", "companion.session.prison")
SCENARIO_BOUNDS = ("companion.rules.prison.limits",)
SEATS_AND_ADDRESS = (
    "companion.session.prison.seats", "companion.web", "companion.web.common",
    "companion.web.common.address",
)


def test_listing_the_scenarios_builds_no_model(tmp_path: Path) -> None:
    names = imported_by("scenarios", says="Shipped scenarios", data=tmp_path)
    assert heavy_in(names, PRISON_NAME + SCENARIO_BOUNDS) == []


def test_a_session_s_links_as_json_build_no_model(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COMPANION_DATA_DIR=str(tmp_path))
    for argv in (["new", "night", "--warden", "Wendy", "--prisoners", "Ada,Ben,Cy,Dee",
                  "--create-only"], ["links", "night"]):  # the first links make the seats
        subprocess.run([sys.executable, "-m", "companion", *argv], env=env, cwd=ROOT, check=True,
                       capture_output=True)
    names = imported_by("links", "night", "--json", says='"board"', data=tmp_path)
    assert heavy_in(names, PRISON_NAME + SEATS_AND_ADDRESS) == []


def test_the_name_the_quick_readings_compare_is_the_game_s() -> None:
    import companion.rules.prison as prison
    from companion.games import game_rules

    assert prison.NAME == prison.GAME.name == game_rules("prison-break").name


def test_a_replay_loads_only_its_game_s_rules_and_no_face() -> None:
    examples = ROOT / "tests" / "examples"
    prison = imported_by("replay", str(examples / "pb-escape.json"), says='"rejected"')
    sucker = imported_by("replay", str(examples / "sls-capture.json"), says='"rejected"')
    faces = ("companion.tui", "companion.web", "companion.printing", "companion.sim",
             "companion.cli.consoles", "textual", "aiohttp", "jinja2", "fpdf")
    for names in (prison, sucker):
        assert [n for n in names if n.startswith(faces)] == []
        assert not any(n.startswith("companion.rules.dilemma") for n in names)
    assert not {"companion.rules.prison.room", "companion.rules.prison.stage"} & prison
    assert not any(n.startswith("companion.rules.prison.") for n in sucker)


def test_the_script_player_is_the_game_s() -> None:
    from companion.games import GAMES, game_rules, script_player

    for game in GAMES:
        assert script_player(game.name) is game_rules(game.name).play_script, game.name


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_each_command_is_built_alone_as_the_whole_parser_builds_it() -> None:
    from companion.cli.commands import COMMANDS
    from companion.cli.main import build_parser, command_modules

    whole = _commands(build_parser())
    assert list(COMMANDS) == list(whole)  # every command is indexed, in the help's order
    for name, parser in whole.items():
        alone = _commands(build_parser([name]))
        assert name in alone and len(alone) <= 2, name  # its module's commands only
        assert alone[name].format_help() == parser.format_help(), name
    assert command_modules(["--data-dir", "x", "replay", "s.json"]) == ["replay"]
    assert len(command_modules(["--data", "x", "replay"]) or []) > 1  # an abbreviation
    assert len(command_modules(["frobnicate"]) or []) > 1  # not a command: the whole decides


def test_the_help_is_the_whole_parser_s_made_from_the_index_alone() -> None:
    # --help, --version and no command read no command's options: their parser lists each
    # command with its index line, and says what the parser of every command says.
    from companion.cli.main import build_parser, command_modules

    for argv in (["--help"], ["-h", "sessions"], ["--version"], [], ["--data-dir", "x"]):
        assert command_modules(argv) is None, argv
    index = build_parser(["--help"])
    assert index.format_help() == build_parser().format_help()
    assert all(not p._actions[1:] for p in _commands(index).values())  # -h alone
    names = imported_by("--help")
    assert not any(n.startswith("companion.cli.") for n in names - {  # no command's module
        "companion.cli.main", "companion.cli.commands", "companion.cli.options"})
    assert not {"typing", "shutil", "dataclasses"} & names  # (a tenth of its start each)


def test_the_command_modules_are_the_cli_package_s_modules() -> None:
    # Listed from the folder, not with pkgutil (which imports inspect): the same modules.
    import pkgutil

    from companion import cli
    from companion.cli.main import NOT_COMMANDS, every_module

    modules = pkgutil.iter_modules(cli.__path__)
    listed = sorted(i.name for i in modules if i.name not in NOT_COMMANDS)
    assert every_module() == listed
    assert "replay" in listed and "main" not in listed


PLUGIN_PROBE = """
import sys
from pydantic.plugin import _loader
from companion.cli.main import main
status = main(sys.argv[1:])
print("scanned" if _loader._plugins is not None else "not scanned", file=sys.stderr)
raise SystemExit(status)
"""


def test_a_replay_does_not_scan_for_pydantic_plugins_unless_asked_to() -> None:
    # The companion uses no pydantic plugin; asking pydantic not to look for one spares the scan
    # of every installed distribution's entry points. A user's own setting is kept.
    script = str(ROOT / "tests" / "examples" / "pb-escape.json")
    for setting, said in ((None, "not scanned"), ("", "scanned"), ("some-plugin", "scanned")):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("PYDANTIC_DISABLE_PLUGINS", None)
        if setting is not None:
            env["PYDANTIC_DISABLE_PLUGINS"] = setting
        done = subprocess.run([sys.executable, "-c", PLUGIN_PROBE, "replay", script], env=env,
                              cwd=ROOT, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        assert '"rejected"' in done.stdout
        assert done.stderr.strip().splitlines()[-1] == said, setting


def test_listing_the_sessions_reads_them_without_dataclasses_or_shutil(tmp_path: Path) -> None:
    # What `companion sessions` needs is the standard library's least: no dataclasses (with
    # inspect, a tenth of its start), no shutil (argparse's own formatter imports it), no
    # typing (its NamedTuple or its TYPE_CHECKING), no locale (gettext's search for argparse's
    # words), no phrases (it says none), and on Linux no platformdirs (the default folders are
    # read from the environment), as a game master runs it: in the default folders.
    subprocess.run([sys.executable, "-m", "companion", "new", "night", "--warden", "Wendy",
                    "--prisoners", "Ada,Ben,Cy,Dee", "--create-only"], env=at_home(tmp_path),
                   cwd=ROOT, check=True, capture_output=True)
    names = imported_by("sessions", says="night", home=tmp_path)
    imported_by("links", "night", says="board", home=tmp_path)  # the first links make the seats
    links = imported_by("links", "night", "--json", says='"board"', home=tmp_path)
    assert "companion.session.night" in names  # it asked whether a night serves it
    assert not {"dataclasses", "inspect", "shutil", "typing", "locale",
                "companion.rules.core.phrase"} & names
    if sys.platform == "linux":
        assert "platformdirs" not in names | links
    assert "shutil" not in links  # (the options several commands share make no formatter)


def test_the_help_is_as_wide_as_shutil_measures_the_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import shutil

    from companion.cli.options import terminal_columns

    for columns in ("", "0", "x", "132", "40"):
        monkeypatch.setenv("COLUMNS", columns)
        assert terminal_columns() == shutil.get_terminal_size().columns, columns
    monkeypatch.delenv("COLUMNS")
    assert terminal_columns() == shutil.get_terminal_size().columns
