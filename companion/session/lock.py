"""One window at a time on a game: the console, the phone server or a referee holds its session.

Two programs playing the same session would each decide against their own copy of the game
and miss the other's moves (a phone's choice after the console closed planning, say), so the
program that plays a session holds an exclusive lock on ``NAME.sqlite.lock`` beside it while it
is open. The lock is the operating system's (``flock``): it goes with the process, so a crash
or ``kill -9`` never leaves a session locked. The file itself only says who holds it, for the
sentence the next opener gets. Reading a session (``companion links``, ``print``) needs no lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from pathlib import Path

from companion.session.store import StoreError


class SessionBusy(StoreError):
    """The session is open in another program."""


class SessionLock:
    """An exclusive hold on one session, until :meth:`release` or the process ends."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path
        self._fd = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    @classmethod
    def take(cls, session_file: Path, holder: str) -> SessionLock:
        """Hold ``session_file`` for ``holder`` (for example "the console"), or refuse.

        Raises :class:`SessionBusy` with one sentence when another program holds it. Where no
        lock file can be made (a read-only folder), the session opens unlocked: the log itself
        refuses to be written there, in its own sentence.
        """
        path = Path(f"{session_file}.lock")
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return cls(path, None)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = _read_holder(fd)
            os.close(fd)
            raise SessionBusy(_busy_sentence(session_file, other)) from None
        except OSError:  # a filesystem without locks: carry on as before locks existed
            os.close(fd)
            return cls(path, None)
        about = {"holder": holder, "pid": os.getpid(), "since": time.strftime("%H:%M")}
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(about).encode(), 0)
        return cls(path, fd)

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            os.close(fd)  # closing the file lets the lock go


def _read_holder(fd: int) -> dict[str, object]:
    try:
        about = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        return {}
    return about if isinstance(about, dict) else {}


def _busy_sentence(session_file: Path, other: dict[str, object]) -> str:
    name = session_file.stem
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
