"""The session log: durable before acknowledged, undo recorded, state rebuilt exactly."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.rules.core.game import Refused
from companion.session.create import open_session
from companion.session.session import Session
from companion.session.store import StoreError
from tests.conftest import demo_session


def new(folder: Path, name: str = "g") -> Session:
    return demo_session(folder, name)


def test_every_row_is_kept_and_undo_is_recorded(tmp_path: Path) -> None:
    s = new(tmp_path)
    s.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    s.submit({"do": "close_planning"})
    s.undo()
    s.note("peek", day=1)
    s.close()
    db = sqlite3.connect(tmp_path / "g.sqlite")
    kinds = [k for (k,) in db.execute("SELECT kind FROM log ORDER BY seq")]
    assert kinds == ["command", "command", "undo", "note"]
    reopened = open_session(tmp_path, "g")
    assert reopened.state.phase == "planning"
    assert reopened.state.day.choices == {"Ada": "work"}
    assert [r.body["what"] for r in reopened.notes()] == ["peek"]


def test_refused_and_malformed_commands_write_nothing(tmp_path: Path) -> None:
    s = new(tmp_path)
    assert isinstance(s.submit({"do": "search", "prisoner": "Ada"}), Refused)
    assert isinstance(s.submit({"do": "fly"}), Refused)
    assert isinstance(s.undo(), Refused)
    assert s.rows == []


def test_an_undo_asked_about_one_move_takes_back_no_other(tmp_path: Path) -> None:
    s = new(tmp_path)
    asked = s.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    s.submit({"do": "choose", "prisoner": "Ben", "choice": "rest"})  # came in meanwhile
    refused = s.undo(only=asked.seq)
    assert isinstance(refused, Refused) and refused.reason.startswith("Nothing was undone")
    assert len(s.rows) == 2 and sorted(s.state.day.choices) == ["Ada", "Ben"]
    assert not isinstance(s.undo(only=s.history.last_undoable().seq), Refused)
    assert s.state.day.choices == {"Ada": "work"}


def test_subscribers_hear_after_the_commit(tmp_path: Path) -> None:
    s = new(tmp_path)
    seen = []

    def listen(session: Session, change) -> None:  # type: ignore[no-untyped-def]
        on_disk = sqlite3.connect(session.store.path).execute("SELECT count(*) FROM log").fetchone()
        seen.append((change.kind, on_disk[0]))

    s.subscribe(listen)
    s.submit({"do": "close_planning"})
    s.undo()
    assert seen == [("command", 1), ("undo", 2)]


def test_a_read_only_session_refuses_clearly_and_changes_nothing(tmp_path: Path) -> None:
    s = new(tmp_path)
    s.close()
    path = tmp_path / "g.sqlite"
    s = Session.open(path)
    s.store._db.execute("PRAGMA query_only=ON")  # what a read-only file looks like to SQLite
    before = s.state
    with pytest.raises(StoreError, match="read-only"):
        s.submit({"do": "close_planning"})
    assert s.state is before and s.rows == []


def test_unknown_session_and_bad_names_are_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no session called 'nope'"):
        open_session(tmp_path, "nope")
    with pytest.raises(UserError, match="not a usable session name"):
        open_session(tmp_path, "../etc")
    (tmp_path / "junk.sqlite").write_text("not a database at all" * 100)
    with pytest.raises(UserError, match="not a companion session file"):
        open_session(tmp_path, "junk")


def test_creating_twice_is_refused(tmp_path: Path) -> None:
    new(tmp_path).close()
    with pytest.raises(UserError, match="already exists"):
        new(tmp_path)


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from companion.session.prison.create import create_prison_session
    roster = ["Ada", "Ben", "Cy", "Dee"]
    s = create_prison_session(Path(sys.argv[1]), "k", "classic", "Wendy", roster)
    print("READY", flush=True)
    i = 0
    while True:
        choice = "work" if i % 2 else "rest"
        entry = s.submit({"do": "choose", "prisoner": "Ada", "choice": choice})
        print("ACK", entry.seq, choice, flush=True)
        i += 1
    """
)


@pytest.mark.parametrize("acks_before_kill", [1, 37, 150])
def test_sigkill_loses_no_acknowledged_event(tmp_path: Path, acks_before_kill: int) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "READY"
    acked = []
    while len(acked) < acks_before_kill:
        line = proc.stdout.readline().split()
        acked.append((int(line[1]), line[2]))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    s = Session.open(tmp_path / "k.sqlite")
    check = sqlite3.connect(tmp_path / "k.sqlite")
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    check.close()
    stored = [(e.seq, e.command.choice) for e in s.history.entries]
    assert stored[: len(acked)] == acked
    assert len(stored) >= len(acked)
    last = stored[-1][1]
    assert s.state.day.choices == {"Ada": last}
