"""The rules the app plays are in the repository's own docs, and the README points there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
            ROOT / "benchmarks" / "README.md", ROOT / "tests" / "examples" / "README.md"]


def test_each_game_has_its_rules_in_docs_rules() -> None:
    for name in ("prison-break", "so-long-sucker", "dilemma"):
        text = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
        assert "**R1**" in text, name  # with the rulings


def test_no_document_points_outside_the_repository() -> None:
    for doc in documents():
        text = doc.read_text(encoding="utf-8")
        assert "shared/spec" not in text and "../seeds" not in text, doc
        for target in LINK.findall(text):
            if "://" in target:
                continue
            assert (doc.parent / target).resolve().exists(), (doc, target)


def test_the_readme_points_to_the_rules_of_every_game() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("prison-break", "so-long-sucker", "dilemma"):
        assert f"(docs/rules/{name}.md)" in text, name
