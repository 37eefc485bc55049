"""The console is a face of its own: it imports neither the web face nor printing nor sim; and
its screens never reach for the App class (they get a context and post messages up)."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import companion.tui


def test_console_imports_no_other_face() -> None:
    code = (
        "import sys, json\n"
        "import companion.tui.prison.app\n"
        "from companion.tui.prison import game, setup, picker, seats, history, help, printout\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('aiohttp', 'fpdf', 'jinja2') or m.startswith(('companion.web', 'companion.printing', "
        "'companion.sim')))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_plain_commands_do_not_load_textual() -> None:
    code = (
        "import sys\n"
        "from companion.cli.main import build_parser\n"
        "build_parser()\n"
        "print('textual' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_no_screen_reaches_for_its_app_class() -> None:
    root = Path(companion.tui.__file__).parent
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        imported: set[str] = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        if path.name != "app.py":
            apps = [m for m in imported if m.startswith("companion.tui.") and m.endswith(".app")]
            assert apps == [], f"{path} imports {apps}"
        assert not re.search(r"cast\([^)]*self\.app", text), f"{path} casts self.app"
