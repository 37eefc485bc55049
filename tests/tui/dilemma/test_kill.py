"""Kill the warm-up console (SIGKILL) in a timed round and reopen it after the deadline: it
closes nothing by itself, offers the time the round had left at the log's last entry, and
gives it back. The console runs as a real process in a pseudo-terminal."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from companion.session.session import Session
from tests.dilemma_helpers import scenario
from tests.tui.prison.test_kill import Console

pytestmark = pytest.mark.slow


def notes(path: Path, what: str) -> list[tuple[float, dict[str, Any]]]:
    """The log's ``what`` notes, read beside the console: (the row's time, its body)."""
    import json

    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT at, body FROM log WHERE kind = 'note'").fetchall()
    finally:
        db.close()
    found = [(datetime.fromisoformat(at).timestamp(), json.loads(body)) for at, body in rows]
    return [(at, body) for at, body in found if body.get("what") == what]


def last_row_at(path: Path) -> float:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (at,) = db.execute("SELECT at FROM log ORDER BY seq DESC LIMIT 1").fetchone()
    finally:
        db.close()
    return datetime.fromisoformat(at).timestamp()


def test_a_console_killed_near_the_deadline_gives_the_round_its_time_back(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    s = Session.create(data / "warm.sqlite", "dilemma", {"rules": scenario(round_seconds=10)})
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    path = s.store.path
    s.close()

    first = Console(data, "warm")
    try:
        first.shows("Rounds last 10 s")
        first.keys("n")
        first.wait_for(lambda: bool(notes(path, "round_timer")), "the round's deadline in the log")
        first.shows("left] Round 1 of 5")
        first.keys("h")
        first.shows("Whose choice?")
        first.keys("\r")
        first.shows("this is your secret choice")
        first.keys("s")  # Ann stays silent: the log's last row before the crash
        first.shows("1 of 3 has chosen")
    finally:
        first.kill()

    ((_, timer),) = notes(path, "round_timer")
    left = int(timer["deadline"] - last_row_at(path))
    assert 1 <= left <= 10
    while time.time() < timer["deadline"] + 0.5:  # the deadline passes while nothing runs
        time.sleep(0.1)

    again = Console(data, "warm")
    try:
        again.shows("Round 1's time ran out while the console was closed.", f"Give {left} s back")
        time.sleep(1.5)  # the timer ticks each second: it closes nothing while the offer waits
        assert not notes(path, "round_extended") and "is revealed" not in again.text()
        again.keys("y")
        again.wait_for(lambda: bool(notes(path, "round_extended")), "the time given back")
        ((_, given),) = notes(path, "round_extended")
        assert given["seconds"] == left and given["why"] == "given back"
        again.shows(f"Round 1 has {left} s again to choose")
        again.keys("q")
        again.shows("Quit?")
        again.keys("y")
        assert again.wait_exit() == 0
    except BaseException:
        with contextlib.suppress(ChildProcessError, OSError):
            again.kill()
        raise
    reopened = Session.open(path)
    try:
        assert reopened.state.phase == "choosing"  # the round is open, its time given back
        assert reopened.room.timer(1).deadline == given["deadline"]  # type: ignore[union-attr]
    finally:
        reopened.close()
