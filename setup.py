"""The wheel's one build step beyond pyproject.toml: the shipped scenarios.

Their source stays at the top of the repository (``scenarios/*.toml``); the wheel carries them as
``companion/scenarios/``, where ``companion.session.scenario_files`` reads them with
``importlib.resources``. Everything else about the package is declared in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithScenarios(build_py):
    def run(self) -> None:
        super().run()
        sources = sorted((HERE / "scenarios").glob("*.toml"))
        if not sources:
            raise SystemExit("scenarios/*.toml is missing: the wheel would ship no scenarios.")
        target = Path(self.build_lib) / "companion" / "scenarios"
        target.mkdir(parents=True, exist_ok=True)
        for source in sources:
            shutil.copyfile(source, target / source.name)


setup(cmdclass={"build_py": BuildWithScenarios})
