"""Commands committed together (Session.submit_many): decided in turn, one transaction, told
after the commit, nothing changed when the log cannot be written; and the phones' group commit
(web/common/group_commit.py) answers each request only after its commit."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from companion.rules.core.game import Refused
from companion.rules.dilemma.commands import Choose, Join
from companion.session.session import Session
from companion.session.store import StoreError
from companion.web.common.context import Problem
from companion.web.common.group_commit import GroupCommit, submit_together
from tests.dilemma_helpers import scenario


def room(folder: Path, players: int = 4) -> Session:
    s = Session.create(folder / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i in range(players):
        s.submit(Join(pid=f"p{i}", name=f"Player {i}"))
    s.submit({"do": "start_round", "seed": 3})
    return s


def read_only(s: Session) -> None:
    """What a read-only file looks like to SQLite."""
    s.store._db.execute("PRAGMA query_only=ON")


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
    together = GroupCommit(s)
    people = s.state.open_round().people
    committed: list[int] = []

    async def choose(pid: str) -> None:
        await submit_together(together, Choose(pid=pid, choice="silent"), "phone")
        committed.append(on_disk(s))  # answered: the row is on disk by now

    base = on_disk(s)
    await asyncio.gather(*(choose(p) for p in people[:-1]))
    assert committed == [base + len(people) - 1] * (len(people) - 1)
    stamps = {r.at for r in s.rows[base:]}
    assert len(stamps) == 1  # one transaction: every row has its commit's time
    with pytest.raises(Problem) as refused:
        await submit_together(together, Choose(pid="nobody", choice="silent"), "phone")
    assert refused.value.status == 409
    read_only(s)
    with pytest.raises(Problem) as failed:
        await submit_together(together, Choose(pid=people[-1], choice="silent"), "phone")
    assert failed.value.status == 503 and not s.state.rounds[-1].revealed
    s.close()
