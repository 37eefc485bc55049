"""Snapshots of the console's main screens at 80x24 (usable) and 120x36 (comfortable).

No clock on these screens: the interview countdown does not tick (``ticking=False``) and no
phone has been seen. Update with ``pytest tests/test_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.tui.prison.app import ConsoleApp
from tests.conftest import demo_session
from tests.tui.support import ACCUSATIONS, INTERVIEWS, OVER, PLANNING, game, shelf

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]





@pytest.mark.parametrize("size", SIZES)
def test_picker(snap_compare: Any, size: tuple[int, int], tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    folder = Path("sessions")
    demo_session(folder, "demo").close()
    assert snap_compare(ConsoleApp(shelf=shelf(folder), ticking=False), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_setup(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    app = ConsoleApp(shelf=shelf(tmp_path), new=("friday", "classic"), ticking=False)
    keys = [*"Wendy", "enter", *"Ada", "enter", *"Ben", "enter", *"Ben", "enter"]
    assert snap_compare(app, press=keys, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_planning(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    assert snap_compare(game(tmp_path, PLANNING), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_interviews(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    assert snap_compare(game(tmp_path, INTERVIEWS), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_interview_countdown(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    app = game(tmp_path, INTERVIEWS)
    # The console's clock stands still: on a slow machine a second may pass between the call-in
    # and the snapshot, and the countdown would read 1:59.
    app.context.clock = lambda: 1_800_000_000.0
    assert snap_compare(app, press=["i", "enter"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_accusations(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    assert snap_compare(game(tmp_path, ACCUSATIONS), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_game_over(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    assert snap_compare(game(tmp_path, OVER, max_days=1), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_full_story(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    app = game(tmp_path, OVER, max_days=1)
    assert snap_compare(app, press=["h", "f"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    assert snap_compare(game(tmp_path, PLANNING), press=["question_mark"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_print(snap_compare: Any, size: tuple[int, int], tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    app = game(Path("sessions"), PLANNING)
    app.session.set("served_url", "http://192.168.1.20:8765")
    assert snap_compare(app, press=["p"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_seats_after_the_address_changed(
    snap_compare: Any, size: tuple[int, int], tmp_path: Path
) -> None:
    app = game(tmp_path, PLANNING)
    app.session.set("printed_url", "http://192.168.1.20:8765")
    app.session.set("served_url", "http://10.0.0.5:8765")
    app.addresses = lambda: [("wlan0", "10.0.0.5"), ("eth0", "192.168.1.20")]
    assert snap_compare(app, press=["w"], terminal_size=size)
