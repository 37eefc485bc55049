"""The session log: an append-only SQLite file (WAL, synchronous=FULL).

Every row is committed before the caller hears it was accepted, so an acknowledged action
survives ``kill -9``. Rows are never updated or deleted: undo is a row of its own, and so is a
change of a setting (the seats, the language, the Wi-Fi, the printed address: see
:func:`apply_setting`). The ``meta`` table holds what a session is, written once when it is
created (its game, its setup, the settings it starts with). Only the night's server writes the
file; consoles read it meanwhile (WAL: a reader never waits).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

TYPE_CHECKING = False  # typing would cost `companion sessions` 0.2x (benchmarks/cli.py)
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 1

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


class Row:
    """One row of the log (a plain class: `companion sessions` starts without typing's
    NamedTuple and without dataclasses)."""

    __slots__ = ("seq", "at", "kind", "body")

    def __init__(self, seq: int, at: str, kind: str, body: dict[str, Any]) -> None:
        self.seq = seq
        self.at = at  # when it was written (UTC, ISO 8601)
        self.kind = kind  # "command", "undo", "note" or "setting"
        self.body = body

    def __repr__(self) -> str:
        return f"Row({self.seq!r}, {self.at!r}, {self.kind!r}, {self.body!r})"

    def __eq__(self, other: object) -> bool:  # a log read twice gives equal rows
        if not isinstance(other, Row):
            return NotImplemented
        return (self.seq, self.at, self.kind, self.body) == (
            other.seq, other.at, other.kind, other.body)

    __hash__ = None  # type: ignore[assignment]  # its body is a dict: equal rows, no hash


def apply_setting(settings: dict[str, Any], body: dict[str, Any]) -> None:
    """Fold one setting row into ``settings``: ``{"key", "value"}`` sets a value; ``{"key",
    "add"}`` puts an item at the end of a list and ``{"key", "drop"}`` takes every equal item
    out of it (a warm-up's seats: a row per seat, not the whole list again). Values are
    replaced, never changed in place, so a value read before stays what it was."""
    key = str(body["key"])
    if "value" in body:
        settings[key] = body["value"]
    elif "add" in body:
        settings[key] = [*(settings.get(key) or []), body["add"]]
    elif "drop" in body:
        settings[key] = [item for item in settings.get(key) or [] if item != body["drop"]]
    else:
        raise ValueError(f"a setting row for {key!r} says neither value, add nor drop")


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
        self._db.close()

    def meta(self) -> dict[str, Any]:
        rows = self._db.execute("SELECT key, value FROM meta").fetchall()
        return {key: json.loads(value) for key, value in rows}

    def settings(self) -> dict[str, Any]:
        """What the session is and its settings now, read without replaying its history: the
        ``meta`` table with the setting rows folded in (see :func:`apply_setting`)."""
        try:
            settings = self.meta()
            cursor = self._db.execute("SELECT body FROM log WHERE kind = 'setting' ORDER BY seq")
            for (body,) in cursor:
                apply_setting(settings, json.loads(body))
        except sqlite3.Error as error:
            raise _explain(error, self.path) from None
        return settings

    def append(self, kind: str, body: dict[str, Any]) -> Row:
        """Append one row and commit it durably before returning."""
        return _commit(self._db, [(kind, body)], self.path)[0]

    def append_many(self, rows: list[tuple[str, dict[str, Any]]]) -> list[Row]:
        """Append ``rows`` (kind, body) in one transaction, committed durably (one commit for
        all: a group of phones' commands) before returning; on an error none is appended."""
        return _commit(self._db, rows, self.path)

    def rows(self) -> Iterator[Row]:
        try:
            cursor = self._db.execute("SELECT seq, at, kind, body FROM log ORDER BY seq")
            for seq, at, kind, body in cursor:
                yield Row(seq, at, kind, json.loads(body))
        except sqlite3.Error as error:
            raise _explain(error, self.path) from None



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
    db: sqlite3.Connection, rows: list[tuple[str, dict[str, Any]]], path: Path
) -> list[Row]:
    """Insert ``rows`` (kind, body) on ``db`` in one transaction, committed durably. On an error
    none is appended."""
    at = _now()
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
    return written
