"""A warm-up log whose events name their kind ``type`` (as its first version wrote them; every
game's events say ``kind``) opens to the same tournament, goes on, and logs ``kind``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from companion.session.dilemma.seats import new_seat
from companion.session.session import Session
from tests.dilemma_helpers import scenario


def played(path: Path) -> Session:
    s = Session.create(path, "dilemma", {"rules": scenario(rounds=2)})
    for name in ("Ada", "Ben", "Cy"):
        s.submit({"do": "join", "pid": new_seat(s)[0], "name": name}, by="phone:join")
    s.submit({"do": "start_round", "seed": 3})
    for k, pid in enumerate(s.state.waiting()):
        s.submit({"do": "choose", "pid": pid, "choice": "betray" if k % 2 else "silent"})
    s.submit({"do": "close_round", "timed_out": True})
    return s


def events_named_type(path: Path) -> int:
    """Rewrite every logged event as the warm-up once wrote it; how many were rewritten."""
    count = 0
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT seq, body FROM log WHERE kind = 'command'").fetchall()
        for seq, text in rows:
            body = json.loads(text)
            for event in body["events"]:
                event["type"] = event.pop("kind")
                count += 1
            db.execute("UPDATE log SET body = ? WHERE seq = ?", (json.dumps(body), seq))
    return count


def test_a_warm_up_whose_events_say_type_opens_to_the_same_tournament(tmp_path: Path) -> None:
    path = tmp_path / "warm.sqlite"
    s = played(path)
    before = s.state
    s.close()
    assert events_named_type(path) >= 6  # joins, the round, its choices and its reveal

    again = Session.open(path)
    try:
        assert again.state == before
        again.submit({"do": "start_round", "seed": 4})
        assert again.state.phase == "choosing"
        last = again.rows[-1].body["events"]
        assert last and all("kind" in e and "type" not in e for e in last)
    finally:
        again.close()
