"""The session log: an append-only SQLite file (WAL, synchronous=FULL).

Every row is committed before the caller hears it was accepted, so an acknowledged action
survives ``kill -9``. Rows are never updated or deleted: undo is a row of its own.

A commit waits for the disk (an fsync). :meth:`Store.append_soon` waits for it on the caller's
thread while the disk has been quick (handing a commit to another thread and back costs more
than a quick disk, on a laptop that also runs the console), and otherwise in a thread of the
store's own, on a second connection to the same file (WAL lets the first one read meanwhile),
so that a server's loop goes on serving phones while a slow disk works; its caller hears of
the rows once they are committed (:mod:`companion.session.session`'s flights).
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

SCHEMA_VERSION = 1
T = TypeVar("T")
# seconds: a commit waited for on the caller's thread while the recent ones took no longer (a
# laptop's SSD takes well under one; a commit in the writing thread costs its caller about half
# a millisecond more of hand-over on two cores)
QUICK = 0.002
_WEIGHT = 0.25  # of the latest commit in the recent commits' average

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
"""


class StoreError(Exception):
    """The session file cannot be read or written; one sentence for the user."""


@dataclass(frozen=True)
class Row:
    seq: int
    at: str
    kind: str  # "command", "undo" or "note"
    body: dict[str, Any]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _explain(error: sqlite3.Error, path: Path) -> StoreError:
    text = str(error).lower()
    if "readonly" in text or "read-only" in text:
        return StoreError(
            f"The session file {path} is read-only, so nothing more can be recorded; "
            "make the folder writable (nothing was changed)."
        )
    if "full" in text:
        return StoreError(
            f"The disk holding {path} is full, so this action was not recorded; "
            "free some space and try again (nothing was changed)."
        )
    if "not a database" in text or "malformed" in text:
        return StoreError(f"{path} is not a companion session file, or it is damaged.")
    if "locked" in text or "busy" in text:
        return StoreError(f"{path} is in use by another companion; close it there first.")
    return StoreError(f"The session file {path} could not be used: {error}.")


class Store:
    """One session's SQLite file."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection
        self._writer: _Writer | None = None  # made when a commit is first handed to it
        self.commit_seconds = 0.0  # how long the recent commits took (a moving average)

    @classmethod
    def create(cls, path: Path, meta: dict[str, Any]) -> Store:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(
                f"The folder {path.parent} cannot be created: {error.strerror}."
            ) from None
        if path.exists():
            raise StoreError(f"A session file already exists at {path}.")
        store = cls._connect(path)
        try:
            with store._db:
                store._db.executescript(_SCHEMA)
                rows = [("schema_version", json.dumps(SCHEMA_VERSION))]
                rows += [(k, json.dumps(v)) for k, v in meta.items()]
                store._db.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", rows)
        except sqlite3.Error as error:
            store.close()
            raise _explain(error, path) from None
        return store

    @classmethod
    def open(cls, path: Path) -> Store:
        if not path.is_file():
            raise StoreError(f"There is no session file at {path}.")
        store = cls._connect(path)
        try:
            version = store.meta().get("schema_version")
        except sqlite3.Error as error:
            store.close()
            raise _explain(error, path) from None
        if version != SCHEMA_VERSION:
            store.close()
            raise StoreError(f"{path} was written by another version of companion ({version}).")
        return store

    @classmethod
    def _connect(cls, path: Path) -> Store:
        return cls(path, _connection(path))

    def close(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
        self._db.close()

    def meta(self) -> dict[str, Any]:
        rows = self._db.execute("SELECT key, value FROM meta").fetchall()
        return {key: json.loads(value) for key, value in rows}

    def meta_text(self, key: str) -> str | None:
        """One metadata value as stored (JSON text), or ``None``: a cheap way to see whether
        it changed."""
        try:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as error:
            raise _explain(error, self.path) from None
        return None if row is None else str(row[0])

    def meta_value(self, key: str) -> Any:
        """One metadata value (``None`` when there is none), read alone: what a request asks
        of the metadata on every call (the pinned address, the session's language) without
        reading and decoding all of it (the seats among it)."""
        text = self.meta_text(key)
        return None if text is None else json.loads(text)

    def set_meta(self, key: str, value: Any) -> None:
        self.set_meta_text(key, json.dumps(value))

    def set_meta_text(self, key: str, text: str) -> None:
        """Set one metadata value given as its JSON text (committed before returning)."""
        try:
            with self._db:
                self._db.execute(
                    "INSERT INTO meta(key, value) VALUES (?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, text),
                )
        except sqlite3.Error as error:
            raise _explain(error, self.path) from None

    def append(self, kind: str, body: dict[str, Any]) -> Row:
        """Append one row and commit it durably before returning."""
        return _commit(self._db, [(kind, body)], self.took, self.path)[0]

    def append_many(self, rows: list[tuple[str, dict[str, Any]]]) -> list[Row]:
        """Append ``rows`` (kind, body) in one transaction, committed durably (one commit for
        all: a group of phones' commands) before returning; on an error none is appended."""
        return _commit(self._db, rows, self.took, self.path)

    def append_soon(self, rows: list[tuple[str, dict[str, Any]]]) -> Future[list[Row]]:
        """Append ``rows`` (kind, body) in one durable commit, as :meth:`append_many` does: at
        once on this thread while the recent commits took at most :data:`QUICK` seconds (the
        future comes back done), else in the store's writing thread (the future is done once
        they are committed; its callbacks then run in that thread). The future holds the rows,
        or the :class:`StoreError` that says why none was appended."""
        if self.commit_seconds <= QUICK:
            done: Future[list[Row]] = Future()
            try:
                done.set_result(self.append_many(rows))
            except StoreError as error:
                done.set_exception(error)
            return done
        return self.writing().append(rows)

    def took(self, seconds: float) -> None:
        """Count a commit that took ``seconds`` into the recent commits' average."""
        self.commit_seconds += (seconds - self.commit_seconds) * _WEIGHT

    def writing(self) -> _Writer:
        """The store's writing thread and its connection (started at the first use)."""
        if self._writer is None:
            self._writer = _Writer(self.path, self.took)
        return self._writer

    def rows(self) -> Iterator[Row]:
        try:
            cursor = self._db.execute("SELECT seq, at, kind, body FROM log ORDER BY seq")
            for seq, at, kind, body in cursor:
                yield Row(seq, at, kind, json.loads(body))
        except sqlite3.Error as error:
            raise _explain(error, self.path) from None

    def integrity_ok(self) -> bool:
        return bool(self._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def _connection(path: Path) -> sqlite3.Connection:
    """A connection to the session file: WAL, every commit fsynced, a busy file waited for."""
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.isolation_level = "DEFERRED"
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA busy_timeout=2000")
    except sqlite3.Error as error:
        raise _explain(error, path) from None
    return db


def _commit(
    db: sqlite3.Connection, rows: list[tuple[str, dict[str, Any]]],
    took: Callable[[float], None], path: Path,
) -> list[Row]:
    """Insert ``rows`` (kind, body) on ``db`` in one transaction, committed durably; how long
    the commit took is told to ``took``. On an error none is appended."""
    at = _now()
    start = time.perf_counter()
    written: list[Row] = []
    try:
        with db:
            for kind, body in rows:
                text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
                cursor = db.execute(
                    "INSERT INTO log(at, kind, body) VALUES (?, ?, ?)", (at, kind, text)
                )
                seq = cursor.lastrowid
                assert seq is not None
                written.append(Row(seq, at, kind, body))
    except sqlite3.Error as error:
        raise _explain(error, path) from None
    took(time.perf_counter() - start)
    return written


class _Writer:
    """The store's writing thread and its own connection (opened and used in that thread)."""

    def __init__(self, path: Path, took: Callable[[float], None]) -> None:
        self.path = path
        self._took = took  # told how long each commit took
        self._connection: sqlite3.Connection | None = None
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        self._thread = threading.Thread(target=self._work, name="companion-log", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        jobs = self._jobs
        while (job := jobs.get()) is not None:
            work, done = job
            try:
                result = work()
            except BaseException as error:  # noqa: BLE001 - handed to the future's owner
                done.set_exception(error)
            else:
                done.set_result(result)
        if self._connection is not None:
            self._connection.close()

    def _submit(self, work: Callable[[], T]) -> Future[T]:
        done: Future[T] = Future()
        self._jobs.put((work, done))
        return done

    def _db(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = _connection(self.path)
        return self._connection

    def append(self, rows: list[tuple[str, dict[str, Any]]]) -> Future[list[Row]]:
        return self._submit(lambda: _commit(self._db(), rows, self._took, self.path))

    def call(self, use: Callable[[sqlite3.Connection], T]) -> Future[T]:
        """``use(connection)`` in the writing thread (after what was handed over before)."""
        return self._submit(lambda: use(self._db()))

    def close(self) -> None:
        """Finish what was handed over, then close the connection and the thread."""
        self._jobs.put(None)
        self._thread.join()
