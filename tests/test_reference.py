"""docs/reference/cli.md and docs/reference/keys.md are generated (scripts/reference.py, or
`make docs`) from the parser and the consoles' bindings, and fail here when they are stale."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reference", ROOT / "scripts" / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_references_are_up_to_date() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "reference.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_a_changed_option_makes_the_reference_stale() -> None:
    from companion.cli.main import build_parser

    ref = reference()
    written = ref.CLI.read_text(encoding="utf-8")
    parser = build_parser()
    assert ref.cli_reference(parser) == written
    sub = next(a for a in parser._actions if a.dest == "command")
    sub.choices["replay"].add_argument("--pretty", action="store_true", help="indent more")
    changed = ref.cli_reference(parser)
    assert changed != written and "`--pretty`" in changed


def test_every_command_and_every_console_key_is_in_the_reference() -> None:
    from companion.cli.main import build_parser

    text = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert f"## `companion {name}`" in text, name
    keys = (ROOT / "docs" / "reference" / "keys.md").read_text(encoding="utf-8")
    for key, what in (("`Ctrl+Z`", "Undo"), ("`?` / `F1`", "Help"), ("`b`", "Balance")):
        assert f"| {key} | {what} |" in keys
