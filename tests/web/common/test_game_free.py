"""The common packages of the faces know no game: web/common and printing/common import
neither a game's package of their face nor a game's rules, not even inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion

ROOT = Path(companion.__file__).resolve().parent
GAMES = ("prison", "dilemma", "sucker")


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("face", ["web", "printing"])
def test_the_common_package_imports_no_game(face: str) -> None:
    games = tuple(
        f"companion.{layer}.{game}" for layer in (face, "rules") for game in GAMES
    )
    files = sorted((ROOT / face / "common").rglob("*.py"))
    assert files
    for path in files:
        bad = {m for m in imported(path) if m.startswith(games)}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
