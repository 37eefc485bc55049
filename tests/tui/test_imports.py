"""The console is a face of its own: it imports neither the web face nor printing nor sim."""

from __future__ import annotations

import json
import subprocess
import sys


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
