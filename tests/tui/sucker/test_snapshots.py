"""Snapshots of the So Long Sucker referee at 80x24 and 120x36: a capture awaiting its kill,
and a rescue round. Update with ``pytest tests/test_sucker_snapshots.py --snapshot-update``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.session.session import Session
from companion.tui.sucker.app import SuckerApp
from tests.tui.sucker.test_referee import SETUP

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]
CAPTURE = [
    {"do": "play", "player": "Ann", "color": "red", "pile": "new"},
    {"do": "next", "player": "Bo"},
    {"do": "play", "player": "Bo", "color": "blue", "pile": 1},
    {"do": "play", "player": "Cat", "color": "green", "pile": "new"},
    {"do": "next", "player": "Bo"},
    {"do": "play", "player": "Bo", "color": "blue", "pile": 1},
]
RESCUE = [
    *CAPTURE,
    {"do": "kill", "player": "Bo", "color": "blue"},
    {"do": "play", "player": "Bo", "color": "blue", "pile": 2},
    {"do": "play", "player": "Ann", "color": "red", "pile": 2},
    {"do": "play", "player": "Cat", "color": "green", "pile": "new"},
    {"do": "next", "player": "Bo"},
    {"do": "play", "player": "Bo", "color": "red", "pile": 2},
    {"do": "kill", "player": "Ann", "color": "red"},
    {"do": "play", "player": "Ann", "color": "red", "pile": 3},
    {"do": "play", "player": "Bo", "color": "blue", "pile": 3},
    {"do": "play", "player": "Cat", "color": "green", "pile": "new"},
    {"do": "next", "player": "Bo"},
]


def app_after(folder: Path, commands: list[dict[str, Any]]) -> SuckerApp:
    session = Session.create(folder / "table.sqlite", "so-long-sucker", SETUP)
    for command in commands:
        assert not hasattr(session.submit(command), "reason"), command
    return SuckerApp(session)


@pytest.mark.parametrize("size", SIZES)
def test_capture(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    assert snap_compare(app_after(tmp_path, CAPTURE), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_rescue(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    assert snap_compare(app_after(tmp_path, RESCUE), terminal_size=size)
