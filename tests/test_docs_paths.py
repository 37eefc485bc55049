"""Every file, folder and test the docs name in code exists in the repository.

What counts as a path: a word inside backticks or a fenced code block (a command's arguments
included) that contains a slash and is either anchored at the repository's root (its first
part is one of the root's own entries: `companion/...`, `tests/...`, `benchmarks/...`,
`scripts/...`, `docs/...`, `scenarios/...`, `.ci/...`) or names a file by a path relative to
some folder of the repository (`web/common/fanout.py`, `static/phones.js`): a relative name is
checked only when its last part has a file extension (so `text/plain` and `HTTP/1.1` are not
paths), and it must be the tail of some file's path. `<game>`, `*` and the placeholders in
`PLACEHOLDERS` stand for any one part and must match at least one file; a path that starts
with a placeholder is the user's (`DIR/playtests.md`), and `BUILT` names what only the wheel
holds. A root-anchored path
may name tests after it: `tests/x.py::test_y` (or `::Class::test_y`); a word that starts with
`::` names a test of the last file named before it on the same line. Addresses (`://`),
absolute paths, the home folder and the virtual environment (`.venv/bin/python`) are not the
repository's. Markdown links are checked by tests/test_rules_docs.py.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Words the docs write in capitals for "any such name", as in `benchmarks/NAME.py`.
PLACEHOLDERS = frozenset({"NAME", "LANG", "DIR", "FILE", "FOLDER", "PATH", "PORT", "HOST", "TOKEN",
                          "VENV", "N"})
# What the wheel holds and a checkout does not: setup.py's build writes it.
BUILT = frozenset({"companion/scenarios", "companion/locale/*/LC_MESSAGES/companion.mo"})
NOT_OURS = frozenset({".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache",
                      ".ruff_cache", ".hypothesis", "build", "dist", "out"})
FENCE = re.compile(r"^\s*```.*$", re.MULTILINE)
SPAN = re.compile(r"`([^`\n]+)`")
# A path's characters; anything else around a word (quotes, brackets, commas) is not part of it.
WORD = re.compile(r"[\w.*<>/:\[\]-]+")
EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]*$")


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
            ROOT / "benchmarks" / "README.md", ROOT / "tests" / "examples" / "README.md"]


@cache
def repository() -> tuple[frozenset[str], frozenset[str]]:
    """Every file and folder of the checkout (posix paths from the root), but tools' own."""
    files: set[str] = set()
    folders: set[str] = set()

    def walk(folder: Path) -> None:
        for entry in folder.iterdir():
            if entry.name in NOT_OURS or entry.name.endswith(".egg-info"):
                continue
            name = entry.relative_to(ROOT).as_posix()
            if entry.is_dir():
                folders.add(name)
                walk(entry)
            else:
                files.add(name)

    walk(ROOT)
    return frozenset(files), frozenset(folders)


def roots() -> frozenset[str]:
    files, folders = repository()
    return frozenset(name for name in files | folders if "/" not in name)


def pattern(path: str) -> str:
    """The path with each placeholder part turned into a wildcard."""
    path = re.sub(r"<[^<>/]+>", "*", path)
    return re.sub(r"\b[A-Z]+\b", lambda m: "*" if m.group() in PLACEHOLDERS else m.group(), path)


def exists(path: str) -> bool:
    files, folders = repository()
    wanted = pattern(path.rstrip("/"))
    names = folders if path.endswith("/") else files | folders
    if "*" not in wanted:
        return wanted in names
    return any(fnmatch.fnmatchcase(name, wanted) for name in names)


def is_a_tail(path: str) -> bool:
    files, _ = repository()
    wanted = pattern(path)
    return any(fnmatch.fnmatchcase(name, "*/" + wanted) or fnmatch.fnmatchcase(name, wanted)
               for name in files)


@cache
def definitions(path: str) -> frozenset[str]:
    """The test names a module defines: `name` and `Class::name`."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names.update(f"{node.name}::{item.name}" for item in node.body
                         if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return frozenset(names)


def words(text: str) -> list[tuple[int, str]]:
    """(line number, word) for every word in backticks or in a fenced code block."""
    found: list[tuple[int, str]] = []
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            inside = not inside
            continue
        chunks = [line] if inside else SPAN.findall(line)
        for chunk in chunks:
            found.extend((number, word) for word in WORD.findall(chunk))
    return found


def missing_in(here: str, text: str) -> list[str]:
    """What the document `here` names that is not in the repository, one line each."""
    problems: list[str] = []
    root_names = roots()
    last_file: tuple[int, str] | None = None
    for number, word in words(text):
        word = word.rstrip(".:,")
        where = f"{here}:{number}: `{word}`"
        if word.startswith("::"):
            if last_file is None or last_file[0] != number:
                continue
            problems.extend(missing_tests(where, last_file[1], word[2:]))
            continue
        if "/" not in word or "://" in word or word.startswith(("/", "~", ".venv")):
            continue
        path, _, tests = word.partition("::")
        first = path.split("/", 1)[0]
        if pattern(first) == "*" or path in BUILT:
            continue  # a folder of the user's (`DIR/charts`), or the wheel's
        if first in root_names:
            if not exists(path):
                problems.append(f"{where}: no such file or folder")
                continue
            if path.endswith(".py"):
                last_file = (number, path)
            if tests:
                problems.extend(missing_tests(where, path, tests))
        elif EXTENSION.search(path) and not is_a_tail(path):
            problems.append(f"{where}: no file of the repository ends with this path")
    return problems


def missing_tests(where: str, path: str, tests: str) -> list[str]:
    name = re.sub(r"\[.*\]$", "", tests)
    if "*" in path or not path.endswith(".py"):
        return [f"{where}: tests named after something that is not one Python file"]
    if name not in definitions(path):
        return [f"{where}: {path} defines no {name}"]
    return []


def test_the_documents_are_found_and_their_paths_read() -> None:
    docs = documents()
    for wanted in ("README.md", "docs/RELIABILITY.md", "docs/reference/cli.md",
                   "benchmarks/README.md"):
        assert ROOT / wanted in docs, wanted
    assert all(doc.is_file() for doc in docs)
    named = [word for _, word in words((ROOT / "docs" / "RELIABILITY.md").read_text("utf-8"))]
    assert "tests/web/prison/test_crash.py" in named and "benchmarks/phones.py" in named


@pytest.mark.parametrize("doc", documents(), ids=lambda doc: doc.relative_to(ROOT).as_posix())
def test_every_path_a_document_names_exists(doc: Path) -> None:
    problems = missing_in(doc.relative_to(ROOT).as_posix(), doc.read_text(encoding="utf-8"))
    assert not problems, "\n".join(["paths named that do not exist:", *problems])


# The rules above, each shown able to fail.


def missing(text: str) -> list[str]:
    return missing_in("docs/probe.md", text)


def test_a_file_that_is_gone_is_named() -> None:
    problems = missing("See `companion/session/heap.py` and `companion/session/store.py`.\n")
    assert problems == ["docs/probe.md:1: `companion/session/heap.py`: no such file or folder"]


def test_a_relative_file_must_be_some_files_tail() -> None:
    text = "`session/heap.py`, `web/common/fanout.py`, `static/phones.js`, `text/plain`\n"
    assert missing(text) == [
        "docs/probe.md:1: `session/heap.py`: no file of the repository ends with this path"]


def test_a_test_name_must_be_defined_in_its_file() -> None:
    text = ("| `tests/test_docs_paths.py::test_a_file_that_is_gone_is_named`, "
            "`::test_no_such_thing` |\n"
            "`tests/test_docs_paths.py::test_gone[param]`\n")
    assert missing(text) == [
        "docs/probe.md:1: `::test_no_such_thing`: tests/test_docs_paths.py defines no "
        "test_no_such_thing",
        "docs/probe.md:2: `tests/test_docs_paths.py::test_gone[param]`: "
        "tests/test_docs_paths.py defines no test_gone"]


def test_commands_in_code_blocks_and_placeholders() -> None:
    text = ("```sh\n.venv/bin/python benchmarks/phones.py --costs\n"
            ".venv/bin/python benchmarks/no_such.py\n```\n"
            "`benchmarks/NAME.py`, `web/<game>/`, `tests/web/*/test_late_answers.py`, "
            "`scripts/NAME.sh`, `https://example.org/x.py`, `~/.zshrc`\n")
    assert missing(text) == [
        "docs/probe.md:3: `benchmarks/no_such.py`: no such file or folder"]
