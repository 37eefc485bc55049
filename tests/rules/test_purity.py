"""The rules import nothing outside ``companion.rules`` but the standard library and pydantic:
read in the source of every rules module (imports inside functions included), and seen in what
importing each package of the rules loads."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import companion.rules

RULES = Path(companion.rules.__file__).parent
PACKAGES = sorted(p.name for p in RULES.iterdir() if (p / "__init__.py").exists())
MODULES = sorted(RULES.rglob("*.py"))
ALLOWED_LIBRARIES = {"pydantic"}  # data: models


def module_name(path: Path) -> str:
    parts = path.relative_to(RULES.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_every_game_has_a_rules_package() -> None:
    assert {"core", "prison", "dilemma", "sucker"} <= set(PACKAGES)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_a_rules_module_imports_only_the_rules_the_standard_library_and_pydantic(
    path: Path,
) -> None:
    for name in imported(path):
        root = name.split(".")[0]
        if root == "companion":
            assert name.startswith("companion.rules"), f"{module_name(path)} imports {name}"
        else:
            allowed = root in sys.stdlib_module_names or root in ALLOWED_LIBRARIES
            assert allowed, f"{module_name(path)} imports {name}"


@pytest.mark.parametrize("package", PACKAGES)
def test_importing_a_rules_package_loads_nothing_outside_the_rules(package: str) -> None:
    modules = [module_name(p) for p in sorted((RULES / package).rglob("*.py"))]
    probe = (
        f"import {', '.join(modules)}\n"
        "import sys, json\nprint(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    companion = [m for m in loaded if m.startswith("companion.")]
    assert [m for m in companion if not m.startswith("companion.rules")] == []
    for heavy in ("textual", "aiohttp", "fpdf", "jinja2", "sqlite3", "qrcode"):
        assert not any(m == heavy or m.startswith(heavy + ".") for m in loaded), heavy
