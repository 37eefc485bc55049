"""Shared fixtures: an isolated data folder for every test, and the repository's paths."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path(__file__).resolve().parent / "examples"


@pytest.fixture(autouse=True)
def _isolated_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """No test ever touches the real per-user data folder."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(folder))
    return folder
