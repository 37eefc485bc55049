"""One window at a time on a game: the console, the phone server or a referee holds its session.

Two programs playing the same session would each decide against their own copy of the game
and miss the other's moves (a phone's choice after the console closed planning, say), so the
program that plays a session holds a lock on ``NAME.sqlite.lock`` beside it while it is open.

The lock is SQLite's own, taken with the standard library on every system: the lock file is an
(empty) SQLite database in which the holder keeps a write transaction open, so SQLite holds the
operating system's lock on it (POSIX advisory locks on Linux and macOS, ``LockFileEx`` on
Windows) and a second opener gets "busy" at once. Such locks go with the process, so a crash or
``kill -9`` never leaves a session locked, and nothing here needs ``fcntl``. Who holds the
session is written beside it, in ``NAME.sqlite.holder``, for the sentence the next opener gets.
Reading a session (``companion links``, ``print``) needs no lock.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from pathlib import Path

from companion.session.paths import session_name
from companion.session.store import StoreError

_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
_NOT_A_DATABASE = sqlite3.SQLITE_NOTADB  # a lock file an older version wrote as plain text


class SessionBusy(StoreError):
    """The session is open in another program."""


class SessionLock:
    """An exclusive hold on one session, until :meth:`release` or the process ends."""

    def __init__(self, path: Path, connection: sqlite3.Connection | None, note: Path) -> None:
        self.path = path
        self.note = note
        self._connection = connection

    @property
    def held(self) -> bool:
        return self._connection is not None

    @classmethod
    def take(cls, session_file: Path, holder: str) -> SessionLock:
        """Hold ``session_file`` for ``holder`` (for example "the console"), or refuse.

        Raises :class:`SessionBusy` with one sentence when another program holds it. Where no
        lock file can be made (a read-only folder) or the file system has no locks, the session
        opens unlocked: the log itself refuses to be written there, in its own sentence.
        """
        path = Path(f"{session_file}.lock")
        note = Path(f"{session_file}.holder")
        for _attempt in range(2):
            try:
                connection = _hold(path)
            except sqlite3.Error as error:
                code = getattr(error, "sqlite_errorcode", None)
                if code in _BUSY:
                    raise SessionBusy(_busy_sentence(session_file, _read_holder(note))) from None
                if code == _NOT_A_DATABASE:
                    with contextlib.suppress(OSError):
                        path.unlink()
                        continue
                return cls(path, None, note)
            about = {"holder": holder, "pid": os.getpid(), "since": time.strftime("%H:%M")}
            with contextlib.suppress(OSError):
                note.write_text(json.dumps(about), encoding="utf-8")
            return cls(path, connection, note)
        return cls(path, None, note)

    def release(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(OSError):
                self.note.unlink(missing_ok=True)  # before the lock goes: the next holder's stays
            with contextlib.suppress(sqlite3.Error):
                connection.rollback()
            connection.close()  # the transaction ends, and the lock with it


def _hold(path: Path) -> sqlite3.Connection:
    """A connection holding a write transaction on the lock database ``path``."""
    connection = sqlite3.connect(
        path, timeout=0, isolation_level=None, check_same_thread=False
    )
    try:
        connection.execute("BEGIN IMMEDIATE")  # takes SQLite's write lock, or fails at once
    except sqlite3.Error:
        connection.close()
        raise
    return connection


def _read_holder(note: Path) -> dict[str, object]:
    try:
        about = json.loads(note.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return about if isinstance(about, dict) else {}


def _busy_sentence(session_file: Path, other: dict[str, object]) -> str:
    name = session_name(session_file)
    parts = [str(other["holder"])] if other.get("holder") else []
    if other.get("pid"):
        parts.append(f"process {other['pid']}")
    if other.get("since"):
        parts.append(f"since {other['since']}")
    who = f" ({', '.join(parts)})" if parts else ""
    return (
        f"The session {name!r} is already open in another window{who}; carry on there, or "
        "close it first: two windows on one game would each miss the other's moves."
    )
