"""The shell scripts run on a clean Debian machine (CI) and on a developer's Mac alike."""

from __future__ import annotations

from tests.conftest import ROOT


def test_the_scripts_use_no_gnu_only_sed() -> None:
    """macOS's sed (BSD) reads 'sed -i EXPR' as a backup suffix: the scripts write through a
    temporary file instead."""
    for script in sorted((ROOT / "scripts").glob("*.sh")):
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            assert "sed -i" not in code and "sed -E -i" not in code, f"{script.name}:{number}"
