"""The rules core stays pure, and the quick commands do not load the heavy faces."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ["textual", "aiohttp", "fpdf", "jinja2", "sqlite3", "qrcode"]


def loaded_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_the_rules_core_imports_no_io_or_face() -> None:
    rules_modules = (
        "import companion.rules.prison.engine, companion.rules.prison.views, "
        "companion.rules.prison.script, companion.rules.core.registry, companion.rules.core.game"
    )
    mods = loaded_after(rules_modules)
    for name in [*HEAVY, "companion.session", "companion.tui", "companion.web"]:
        assert not any(m == name or m.startswith(name + ".") for m in mods), name


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
    mods = loaded_after(code)
    for name in ["textual", "aiohttp", "fpdf", "jinja2", "qrcode"]:
        assert not any(m == name or m.startswith(name + ".") for m in mods), name
