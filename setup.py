"""The wheel's build steps beyond pyproject.toml: the shipped scenarios and the compiled
message catalogs.

The scenarios' source stays at the top of the repository (``scenarios/*.toml``); the wheel
carries them as ``companion/scenarios/``, where ``companion.session.scenario_files`` reads them
with ``importlib.resources``. Each language's ``companion/locale/LANG/LC_MESSAGES/companion.po``
is compiled next to itself as ``companion.mo`` in the wheel (a catalog with a fuzzy or missing
message still compiles: the tests are what refuse it). Everything else about the package is
declared in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithScenariosAndCatalogs(build_py):
    def run(self) -> None:
        super().run()
        sources = sorted((HERE / "scenarios").glob("*.toml"))
        if not sources:
            raise SystemExit("scenarios/*.toml is missing: the wheel would ship no scenarios.")
        target = Path(self.build_lib) / "companion" / "scenarios"
        target.mkdir(parents=True, exist_ok=True)
        for source in sources:
            shutil.copyfile(source, target / source.name)
        self.compile_catalogs()

    def compile_catalogs(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        locale = HERE / "companion" / "locale"
        sources = sorted(locale.glob("*/LC_MESSAGES/companion.po"))
        if not sources:
            raise SystemExit("companion/locale/*/LC_MESSAGES/companion.po is missing.")
        for source in sources:
            target = Path(self.build_lib) / source.relative_to(HERE).with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po:
                catalog = read_po(po)
            with target.open("wb") as mo:
                write_mo(mo, catalog)


setup(cmdclass={"build_py": BuildWithScenariosAndCatalogs})
