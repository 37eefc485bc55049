"""Shared fixtures and helpers: isolated data and scenario folders for every test, the
repository's paths, the demo roster, the demo session and a free port; the markers that
``make check`` leaves out, put on by where a test is (see :func:`pytest_collection_modifyitems`);
and Hypothesis's two profiles with :func:`examples`, how many examples a property tries."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from companion.language import Language

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
EXAMPLES = Path(__file__).resolve().parent / "examples"

WARDEN = "Wendy"
ROSTER = ["Ada", "Ben", "Cy", "Dee"]  # the demo's prisoners


# Hypothesis's profiles: its own (what `make test` and CI run: "default", or "ci" where CI is
# set) unless HYPOTHESIS_PROFILE names one; "fast" (`make check`) tries a fifth of the examples
# of every property.
FAST_SHARE = 5
PROFILE = os.environ.get("HYPOTHESIS_PROFILE")
settings.register_profile("fast", max_examples=settings().max_examples // FAST_SHARE)
if PROFILE:
    settings.load_profile(PROFILE)


def examples(full: int) -> int:
    """How many examples a property that asks for ``full`` of them tries: all of them, or a
    fifth under the "fast" profile (at least 5)."""
    return max(min(full, 5), full // FAST_SHARE) if PROFILE == "fast" else full


def _opens_a_terminal(path: Path, seen: dict[Path, bool] = {}) -> bool:  # noqa: B006
    """The test module runs a console in a real terminal: tmux, or a pty of its own."""
    if path not in seen:
        text = path.read_text(encoding="utf-8")
        seen[path] = "tmux" in text or "\nimport pty\n" in text
    return seen[path]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``console``: every test under tests/tui/ (the console in Textual's pilot); ``terminal``:
    every test of a module that opens a real terminal (tmux or a pty). ``make check`` runs
    neither; ``make test`` runs everything."""
    for item in items:
        path = Path(str(item.path))
        if TESTS / "tui" in path.parents:
            item.add_marker(pytest.mark.console)
        if _opens_a_terminal(path):
            item.add_marker(pytest.mark.terminal)


@pytest.fixture(autouse=True)
def _isolated_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """No test ever touches the real per-user data folder, nor the user's scenarios."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(folder))
    monkeypatch.setenv("COMPANION_SCENARIOS", str(tmp_path_factory.mktemp("my-scenarios")))
    return folder


def demo_session(
    folder: Path,
    name: str = "demo",
    prisoners: Sequence[str] = ROSTER,
    *,
    warden: str = WARDEN,
    scenario: str = "classic",
    **options: Any,
) -> Any:
    """A new prison-break session in ``folder``: the demo's warden and prisoners unless told."""
    from companion.session.prison.create import create_prison_session

    return create_prison_session(folder, name, scenario, warden, list(prisoners), **options)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def qps() -> Iterator[Language]:
    """The pseudo-locale (tests/pseudo_locale.py) registered as a language for one test."""
    from tests import pseudo_locale

    yield pseudo_locale.install()
    pseudo_locale.remove()
