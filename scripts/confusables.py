"""Write companion/rules/core/prototypes.json, the TR39 prototype of every character that has
one, from the Unicode confusables data as the ``confusable-homoglyphs`` package ships it.

Run: .venv/bin/python scripts/confusables.py          to write it (after upgrading the package);
     .venv/bin/python scripts/confusables.py --check  to fail (status 1) when it is stale.
tests/rules/core/test_names.py runs the check. The name rule (companion/rules/core/names.py)
reads this table, 5,000-odd pairs, instead of the package's 900 KB confusables.json, whose
reading was most of what a roster check cost a command's start (65 M instructions of it).
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.resources import files
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "companion" / "rules" / "core" / "prototypes.json"

Entries = dict[str, list[dict[str, str]]]


def source_data() -> Entries:
    """The package's confusables.json: for each character, the characters it is confusable with."""
    data: Entries = json.loads(
        files("confusable_homoglyphs").joinpath("confusables.json").read_bytes()
    )
    return data


def _rank(c: str) -> tuple[bool, int]:
    return (not c.isascii(), ord(c))


def _bare(c: str) -> str:
    return c.strip("\u200e\u200f")  # the package wraps right-to-left characters in marks


def prototype(data: Entries, source: str) -> str:
    """The prototype of the character ``source`` (``source`` itself if it has none).

    The package keeps each TR39 line ``source -> prototype`` both ways: a source lists its one
    prototype, a prototype lists its sources. A character listing one entry that lists it back
    is a source; where two characters list only each other, the ASCII one (else the lower code
    point) is the prototype, so the table never maps both ways."""
    entries = data.get(source)
    if entries is None or len(source) != 1 or len(entries) != 1:
        return source
    target = _bare(entries[0]["c"])
    back = [_bare(e["c"]) for e in data.get(target, [])]
    if not target or target == source or source not in back:
        return source
    if len(back) == 1 and len(target) == 1 and _rank(target) > _rank(source):
        return source  # a pair listing only each other: the better-known one is the prototype
    return target


def prototypes(data: Entries) -> dict[str, str]:
    """Every character of ``data`` whose prototype is another, with that prototype."""
    table = {source: prototype(data, source) for source in data}
    return {source: target for source, target in sorted(table.items()) if target != source}


def table_text(table: dict[str, str]) -> str:
    """The table as written: one pair a line, in code point order, every character outside
    ASCII written as an escape (spaces and marks are not left to be guessed at in a diff)."""
    return json.dumps(table, ensure_ascii=True, indent=0, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the table is stale")
    text = table_text(prototypes(source_data()))
    if parser.parse_args().check:
        if not TABLE.is_file() or TABLE.read_text(encoding="utf-8") != text:
            print(f"{TABLE.relative_to(ROOT)} is stale: run scripts/confusables.py",
                  file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text, encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
