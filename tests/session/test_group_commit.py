"""Commands committed together (Session.submit_many): decided in turn, one transaction, told
after the commit, nothing changed when the log cannot be written; and the phones' group commit
(web/common/together.py) answers each request only after its commit."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from companion.rules.core.game import Refused
from companion.rules.dilemma.commands import Choose, Join
from companion.session.session import Session
from companion.session.store import QUICK, StoreError
from companion.web.common.context import Problem
from companion.web.common.together import Together, submit_together
from tests.dilemma_helpers import scenario


def room(folder: Path, players: int = 4) -> Session:
    s = Session.create(folder / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i in range(players):
        s.submit(Join(pid=f"p{i}", name=f"Player {i}"))
    s.submit({"do": "start_round", "seed": 3})
    return s


def read_only(s: Session) -> None:
    """What a read-only file looks like to SQLite, on both of the store's connections."""
    s.store._db.execute("PRAGMA query_only=ON")
    s.store.writing().call(lambda db: db.execute("PRAGMA query_only=ON")).result()


def on_disk(s: Session) -> int:
    return int(sqlite3.connect(s.store.path).execute("SELECT count(*) FROM log").fetchone()[0])


def test_commands_are_decided_in_turn_and_logged_in_one_commit(tmp_path: Path) -> None:
    s = room(tmp_path)
    people = s.state.open_round().people
    heard: list[tuple[int, int]] = []
    s.subscribe(lambda session, change: heard.append((change.row.seq, on_disk(session))))
    before = on_disk(s)
    outcomes = s.submit_many(
        [(Choose(pid=p, choice="silent"), "phone") for p in people]
        + [(Choose(pid="nobody", choice="silent"), "phone")]
    )
    assert isinstance(outcomes[-1], Refused)
    # the last choice of the round revealed it: decided against the choices before it
    assert s.state.rounds[-1].revealed and s.state.phase == "revealed"
    assert on_disk(s) == before + len(people)
    # every subscriber heard each row in order, each after all of them were on disk
    assert heard == [(before + i + 1, before + len(people)) for i in range(len(people))]
    # the file replays to the same state
    again = Session.open(s.store.path)
    assert again.state == s.state
    again.close()
    s.close()


def test_when_the_log_cannot_be_written_nothing_changes(tmp_path: Path) -> None:
    s = room(tmp_path)
    read_only(s)
    before, rows = s.state, list(s.rows)
    with pytest.raises(StoreError, match="read-only"):
        s.submit_many([(Choose(pid=p, choice="betray"), "phone")
                       for p in s.state.open_round().people])
    assert s.state is before and s.rows == rows
    s.close()


async def test_requests_that_arrive_together_share_one_commit(tmp_path: Path) -> None:
    s = room(tmp_path, players=6)
    together = Together(s)
    people = s.state.open_round().people
    committed: list[int] = []

    async def choose(pid: str) -> None:
        await submit_together(together, Choose(pid=pid, choice="silent"), "phone")
        committed.append(on_disk(s))  # answered: the row is on disk by now

    base = on_disk(s)
    await asyncio.gather(*(choose(p) for p in people[:-1]))
    assert together.commits == 1 and committed == [base + len(people) - 1] * (len(people) - 1)
    with pytest.raises(Problem) as refused:
        await submit_together(together, Choose(pid="nobody", choice="silent"), "phone")
    assert refused.value.status == 409
    read_only(s)
    with pytest.raises(Problem) as failed:
        await submit_together(together, Choose(pid=people[-1], choice="silent"), "phone")
    assert failed.value.status == 503 and not s.state.rounds[-1].revealed
    s.close()


def test_a_group_is_applied_only_once_committed_and_whatever_comes_next_waits_for_it(
    tmp_path: Path,
) -> None:
    """A group handed to the writing thread (begin_many) changes nothing until it lands; a
    command of the game master's meanwhile lands it first and is decided after it, so the log's
    order is the order of the decisions and the file replays to the same state."""
    s = room(tmp_path)
    s.store.commit_seconds = 1.0  # the disk has been slow: groups go to the writing thread
    people = s.state.open_round().people
    heard: list[int] = []
    s.subscribe(lambda session, change: heard.append(change.row.seq))
    before = s.state
    flight = s.begin_many([(Choose(pid=people[0], choice="silent"), "phone")])
    assert s.state is before  # not applied before its commit is landed
    late = s.submit(Choose(pid=people[1], choice="betray"), by="gm")
    assert not isinstance(late, Refused)
    assert flight.outcomes is not None and not isinstance(flight.outcomes[0], Refused)
    assert s.land(flight) is flight.outcomes  # landing again: the same outcomes, no change
    assert s.state.open_round().choices == {people[0]: "silent", people[1]: "betray"}
    assert heard == sorted(heard) and len(heard) == 2
    hseqs = [r.body["hseq"] for r in s.rows if r.kind == "command"]
    assert hseqs == list(range(1, len(hseqs) + 1))
    again = Session.open(s.store.path)
    assert again.state == s.state
    again.close()
    s.close()


def test_a_failed_group_commit_changes_nothing_and_the_next_command_goes_on(
    tmp_path: Path,
) -> None:
    s = room(tmp_path)
    s.store.commit_seconds = 1.0  # the disk has been slow: groups go to the writing thread
    people = s.state.open_round().people
    s.store.writing().call(lambda db: db.execute("PRAGMA query_only=ON")).result()
    before, rows = s.state, list(s.rows)
    flight = s.begin_many([(Choose(pid=people[0], choice="silent"), "phone")])
    assert s.submit(Choose(pid=people[1], choice="betray"), by="gm")  # on the other connection
    with pytest.raises(StoreError, match="read-only"):
        s.land(flight)
    assert s.state.open_round().choices == {people[1]: "betray"}
    assert len(s.rows) == len(rows) + 1 and s.state is not before
    again = Session.open(s.store.path)
    assert again.state == s.state
    again.close()
    s.close()


def hold_the_file(path: Path, seconds: float | None) -> sqlite3.Connection:
    """Another connection holding the file's write lock (as a slow disk holds a commit),
    let go after ``seconds`` (None: when the caller rolls it back)."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    if seconds is not None:
        threading.Timer(seconds, lambda: holder.execute("ROLLBACK")).start()
    return holder


def test_a_quick_disk_is_waited_for_at_once_and_a_slow_one_in_the_writing_thread(
    tmp_path: Path,
) -> None:
    """While the recent commits were quick, a group is committed on the caller's thread (its
    future comes back done); after a slow one, the next groups go to the writing thread (the
    caller goes on while the file is busy), until the commits are quick again."""
    s = room(tmp_path, players=6)
    people = s.state.open_round().people
    quick = s.store.append_soon([("note", {"what": "quick"})])
    assert quick.done() and s.store.commit_seconds <= QUICK
    holder = hold_the_file(s.store.path, 0.2)
    s.land(s.begin_many([(Choose(pid=people[0], choice="silent"), "phone")]))  # waits 0.2 s
    assert s.store.commit_seconds > QUICK
    holder.close()
    holder = hold_the_file(s.store.path, None)
    flight = s.begin_many([(Choose(pid=people[1], choice="silent"), "phone")])
    assert not flight.committed(), "the caller goes on while the file is held"
    holder.execute("ROLLBACK")
    holder.close()
    s.land(flight)
    assert set(s.state.open_round().choices) == {people[0], people[1]}
    for p in people[2:5]:  # quick again: back to the caller's thread
        s.land(s.begin_many([(Choose(pid=p, choice="betray"), "phone")]))
    while s.store.commit_seconds > QUICK:
        s.note("settling")
    last = s.begin_many([(Choose(pid=people[5], choice="silent"), "phone")])
    assert last.committed()
    s.land(last)
    again = Session.open(s.store.path)
    assert again.state == s.state
    again.close()
    s.close()
