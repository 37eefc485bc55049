"""The rules stay pure when loaded, and the quick commands do not load the heavy faces."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.games import GAMES

HEAVY = ["textual", "aiohttp", "fpdf", "jinja2", "sqlite3", "qrcode"]
FACE_LIBRARIES = ["textual", "aiohttp", "fpdf", "jinja2", "qrcode"]


def loaded_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def none_of(names: list[str], mods: set[str]) -> None:
    for name in names:
        assert not any(m == name or m.startswith(name + ".") for m in mods), name


@pytest.mark.parametrize("package", ["core", *(game.package for game in GAMES)])
def test_a_rules_package_loads_no_io_or_face(package: str) -> None:
    code = (
        "import importlib, pkgutil\n"
        f"import companion.rules.{package} as package\n"
        "for info in pkgutil.walk_packages(package.__path__, package.__name__ + '.'):\n"
        "    importlib.import_module(info.name)"
    )
    mods = loaded_after(code)
    assert f"companion.rules.{package}" in mods
    none_of([*HEAVY, "companion.session", "companion.tui", "companion.web"], mods)


def test_replay_does_not_load_the_console_or_the_web(tmp_path) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps(
            {
                "scenario": "classic",
                "warden": "W",
                "prisoners": ["A", "B", "C", "D"],
                "commands": [],
            }
        )
    )
    code = (
        "import sys, io, contextlib\n"
        "from companion.cli.main import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()): main(['replay', {str(script)!r}])"
    )
    none_of(FACE_LIBRARIES, loaded_after(code))


def test_help_does_not_load_the_faces() -> None:
    for argv, loaded in ((["--help"], "companion.cli.commands"),
                         (["resume", "--help"], "companion.cli.resume")):
        code = (
            "import io, contextlib\n"
            "from companion.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            f"    main({argv!r})"
        )
        mods = loaded_after(code)
        assert loaded in mods, argv  # the dump is of the command line
        none_of([*FACE_LIBRARIES, "companion.tui", "companion.web", "companion.printing"], mods)
