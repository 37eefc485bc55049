"""Shared helpers for the dilemma tests: a tournament in memory, driven by plain commands."""

from __future__ import annotations

import sqlite3
import time
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.rules.core.game import History, Refused
from companion.rules.dilemma.engine import DILEMMA, initial_state
from companion.rules.dilemma.room import StartTimer
from companion.session.session import Session
from tests.conftest import ROOT


def scenario(**overrides: Any) -> dict[str, Any]:
    with (ROOT / "scenarios" / "dilemma.toml").open("rb") as handle:
        data = tomllib.load(handle)
    data.update(overrides)
    return data


def tournament(names: list[str], **overrides: Any) -> History[Any, Any, Any]:
    h: History[Any, Any, Any] = History(DILEMMA, initial_state({"rules": scenario(**overrides)}))
    for i, name in enumerate(names):
        ok(h, {"do": "join", "pid": f"p{i}", "name": name})
    return h


def ok(h: History[Any, Any, Any], command: dict[str, Any]) -> Any:
    entry = h.submit(DILEMMA.parse_command(command))
    assert not isinstance(entry, Refused), entry
    return entry


def refused(h: History[Any, Any, Any], command: dict[str, Any]) -> str:
    entry = h.submit(DILEMMA.parse_command(command))
    assert isinstance(entry, Refused), entry
    return entry.reason


def crashed_long_ago(s: Session, *, left_at_crash: float) -> Path:
    """A round of 60 s of the open session ``s`` (players joined), started an hour ago; the
    log's last row (p0's choice) was written with ``left_at_crash`` seconds left; then
    whatever counted the round down stopped (``s`` is closed). The rows' times are set as the
    log would have them (the log keeps each row's time as written)."""
    s.submit({"do": "start_round", "seed": 1})
    started = time.time() - 3600
    s.stage(StartTimer(1, 60, started + 60))
    s.submit({"do": "choose", "pid": "p0", "choice": "silent"}, by="phone")
    path, last = s.store.path, s.rows[-1].seq
    s.close()
    with sqlite3.connect(path) as db:
        for (seq,) in db.execute("SELECT seq FROM log").fetchall():
            moment = started + 60 - left_at_crash if seq == last else started - 1 + seq / 1000
            at = datetime.fromtimestamp(moment, UTC).isoformat(timespec="milliseconds")
            db.execute("UPDATE log SET at = ? WHERE seq = ?", (at, seq))
    return path
