"""The layers, read from the source: every import of every module of ``companion/``, counting
those inside functions and under ``TYPE_CHECKING``.

rules < session < faces (tui, web, printing, sim) < cli; the faces never import each other; the
rules import nothing outside ``companion.rules``; no import cycle anywhere. The same layers are
declared for import-linter in ``pyproject.toml`` (``make test`` runs ``lint-imports``). And no
module of ``companion/`` is extreme in length (``MAX_LINES``).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from companion.games import GAMES

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
FACES = ("tui", "web", "printing", "sim")
LAYERS = ("rules", "session", *FACES)  # the layers with packages per game (sim has none)
GAME_PACKAGES = tuple(game.package for game in GAMES)
Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def resolve(name: str) -> str | None:
    """The companion module an imported name lives in (its longest known prefix)."""
    known = modules()
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imported(module: str, path: Path) -> set[str]:
    """Every companion module that ``module`` imports, wherever the import statement is."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        for name in names:
            target = resolve(name)
            if target is not None and target != module:
                found.add(target)
    return found


@cache
def graph() -> Graph:
    return {m: imported(m, p) for m, p in modules().items()}


def cycles(edges: Graph) -> list[list[str]]:
    """One cycle through each group of modules that import each other (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [cycle_in(set(group), edges) for group in groups]


def cycle_in(group: set[str], edges: Graph) -> list[str]:
    """A path from the group's first module back to itself, within the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        v = frontier.pop(0)
        for w in sorted(edges[v] & group):
            if w == start:
                return [*paths[v], start]
            if w not in paths:
                paths[w] = [*paths[v], w]
                frontier.append(w)
    return sorted(group)


def area(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def offending(where: str, allowed: tuple[str, ...], forbidden: tuple[str, ...] = ()) -> list[str]:
    """The imports from modules under ``where`` that leave ``allowed`` or enter ``forbidden``."""
    bad = []
    for module, targets in graph().items():
        if module != where and not module.startswith(where + "."):
            continue
        for target in sorted(targets):
            inside = any(target == a or target.startswith(a + ".") for a in allowed)
            banned = any(target == f or target.startswith(f + ".") for f in forbidden)
            if (allowed and not inside) or banned:
                bad.append(f"{module} imports {target}")
    return bad


def test_the_import_graph_is_read() -> None:
    assert "companion.session.session" in graph()["companion.session.create"]
    assert "companion.rules.core.game" in graph()["companion.session.session"]


def test_no_import_cycle() -> None:
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


@pytest.mark.parametrize("face", FACES)
def test_a_face_imports_no_other_face_and_not_the_cli(face: str) -> None:
    others = tuple(f"companion.{f}" for f in FACES if f != face)
    assert offending(f"companion.{face}", (), (*others, "companion.cli")) == []


RULES_PACKAGES = ["core", *(game.package for game in GAMES)]


@pytest.mark.parametrize("package", RULES_PACKAGES)
def test_the_rules_import_nothing_outside_the_rules(package: str) -> None:
    assert offending(f"companion.rules.{package}", ("companion.rules",)) == []


def test_the_session_imports_no_face_and_not_the_cli() -> None:
    faces = tuple(f"companion.{f}" for f in (*FACES, "cli"))
    assert offending("companion.session", (), faces) == []


def test_the_session_is_game_generic_outside_its_games_packages() -> None:
    """``companion.session``'s own modules know no game: what one game keeps in the session
    (its seats, how its sessions are created, its scenarios) is in ``session/<game>/``."""
    games = tuple(f"companion.{layer}.{p}" for layer in ("rules", "session") for p in GAME_PACKAGES)
    bad = []
    for module in sorted(m for m in graph() if area(m) == "session"):
        if module.split(".")[2:3] and module.split(".")[2] in GAME_PACKAGES:
            continue
        bad += [f"{module} imports {t}" for t in sorted(graph()[module]) if t.startswith(games)]
    assert bad == []
    folders = [f.name for f in (PACKAGE / "session").iterdir() if (f / "__init__.py").is_file()]
    assert set(folders) <= set(GAME_PACKAGES), "a package in companion.session is not a game's"


def test_the_cli_leaves_share_only_the_wiring_the_options_and_the_consoles() -> None:
    # the commands' index (each command's help line), the wiring, the options, how a terminal
    # is drawn on (progress bars, tables that fit), and the night's server as the other
    # commands find, start and stop it
    shared = ("companion.cli.commands", "companion.cli.wiring", "companion.cli.options",
              "companion.cli.terminal", "companion.cli.night")
    consoles = "companion.cli.consoles"
    bad = []
    for module, targets in graph().items():
        if area(module) != "cli" or module == "companion.cli":
            continue
        for target in sorted(t for t in targets if area(t) == "cli" and t != "companion.cli"):
            is_console = target == consoles or target.startswith(consoles + ".")
            if module == "companion.cli.main":
                continue  # the parser registers every leaf
            if module == "companion.cli.completion" and target == "companion.cli.main":
                continue  # the completion scripts are written from the parser itself
            if module in shared and target not in shared:
                bad.append(f"{module} imports {target}")
            elif module.startswith(consoles) and not (target in shared or target == consoles):
                bad.append(f"the console {module} imports {target}")
            elif target not in shared and not is_console:
                bad.append(f"the leaf {module} imports {target}")
    assert bad == []


def test_every_game_with_a_console_has_its_opener() -> None:
    import importlib

    for game in GAMES:
        if "tui" in game.faces:
            module = importlib.import_module(f"companion.cli.consoles.{game.package}")
            assert callable(module.open_console), game.name


def test_only_the_entry_point_imports_the_parser() -> None:
    importers = sorted(m for m, targets in graph().items() if "companion.cli.main" in targets)
    # and the completion scripts, written from a walk of the parser
    assert importers == ["companion.__main__", "companion.cli.completion"]


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_each_registered_game_has_its_packages(game) -> None:  # type: ignore[no-untyped-def]
    from companion.games import game_rules

    assert game_rules(game.name).name == game.name
    for layer in game.faces:
        assert (PACKAGE / layer / game.package / "__init__.py").is_file(), (layer, game.package)


@pytest.mark.parametrize("layer", LAYERS)
def test_a_game_package_belongs_to_a_registered_game(layer: str) -> None:
    packages = {g.package: g for g in GAMES}
    for folder in sorted((PACKAGE / layer).iterdir()):
        game = packages.get(folder.name)
        if game is not None and layer not in ("rules", "session"):
            assert layer in game.faces, f"companion.{layer}.{folder.name} is not in its entry"


# A module is one subject, however long that takes (600 lines is fine when it is one); this
# limit only stops the extreme, a file that has become a folder's worth of subjects.
MAX_LINES = 900


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_extreme() -> None:
    """A module over ``MAX_LINES`` lines holds several subjects: split it by subject."""
    sizes = {p.relative_to(PACKAGE).as_posix(): _lines(p) for p in sorted(PACKAGE.rglob("*.py"))}
    assert len(sizes) > 100 and "rules/dilemma/views.py" in sizes  # the walk sees companion/
    long = [f"{name} ({n} lines)" for name, n in sizes.items() if n > MAX_LINES]
    assert not long, f"over {MAX_LINES} lines: " + ", ".join(long)
