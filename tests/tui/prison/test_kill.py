"""Kill the console (SIGKILL) in the middle of a day; `companion resume` shows the same day,
phase and board. The console runs as a real process in a pseudo-terminal."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import signal
import sqlite3
import struct
import sys
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.rules.prison.views import table
from companion.session.session import Session
from tests.conftest import demo_session

pytestmark = pytest.mark.slow

ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()=>78]")
COLS, ROWS = 120, 36


class Console:
    """``companion --data-dir D resume NAME`` in a pseudo-terminal of COLS x ROWS."""

    def __init__(self, data: Path, name: str) -> None:
        argv = [
            sys.executable,
            "-m",
            "companion",
            "--data-dir",
            str(data),
            "resume",
            name,
            "--no-phones",
        ]
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(COLS), "LINES": str(ROWS)}
        pid, fd = pty.fork()
        if pid == 0:  # the child: a terminal of the right size, then the console
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
            os.execvpe(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        self.raw = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.raw.extend(chunk)

    def text(self) -> str:
        return ANSI.sub("", bytes(self.raw).decode("utf-8", "replace"))

    def wait_for(self, check: Callable[[], bool], what: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check():
                return
            time.sleep(0.1)
        raise AssertionError(f"the console never showed {what}; it showed:\n{self.text()[-3000:]}")

    def shows(self, *phrases: str) -> None:
        self.wait_for(lambda: all(p in self.text() for p in phrases), repr(phrases))

    def keys(self, data: str) -> None:
        for ch in data:
            os.write(self.fd, ch.encode())
            time.sleep(0.15)

    def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        _, status = os.waitpid(self.pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        os.close(self.fd)

    def wait_exit(self, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        self.kill()
        raise AssertionError("the console did not quit")


def logged_rows(path: Path) -> int:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM log").fetchone()[0])
    finally:
        db.close()


def test_killed_console_resumes_the_same_day_phase_and_board(tmp_path: Path) -> None:
    data = tmp_path / "data"
    session = demo_session(data, "night")
    session.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    session.submit({"do": "choose", "prisoner": "Ben", "choice": "rest"})
    path = session.store.path
    session.close()

    first = Console(data, "night")
    try:
        first.shows("night · Day 1 · Planning", "2 of 4 have chosen")
        first.keys("x")
        first.shows("Cy and Dee have not chosen")
        first.keys("y")
        first.wait_for(lambda: logged_rows(path) == 3, "planning closed in the log")
        first.shows("Day 1 · Interviews")
        first.keys("i\r")
        first.shows("Interview: Ada")
        first.keys("d")
        first.shows("Whom did Ada name?")
        first.keys(" \r")  # Ada named Ben (the first other prisoner listed)
        # the call-in (a stage note), the interview, then the end of it (a stage note)
        first.wait_for(lambda: logged_rows(path) == 6, "the interview in the log")
        first.shows("Ben, please come in")
    finally:
        first.kill()

    before = Session.open(path)
    view = table(before.state)
    named = before.state.day.named
    before.close()
    assert (view["day"], view["phase"], view["today"]["interviewed"]) == (1, "interviews", ["Ada"])
    assert named == (("Ada", ("Ben",)),)  # whom she named came back too

    again = Console(data, "night")
    try:
        again.shows(
            "night · Day 1 · Interviews",
            "Ben, please come in",
            "Queue: Ben, Cy, Dee",
            "Seen: Ada",
        )
        board = again.text()
        assert re.search(r"Ada\s+active\s+1\s+interviewed\s+hidden", board)
        assert re.search(r"Ben\s+active\s+1\s+next\s+hidden", board)
        assert re.search(r"Dee\s+active\s+1\s+queued\s+hidden", board)
        again.keys("q")
        again.shows("Quit?")
        again.keys("y")
        assert again.wait_exit() == 0
    except BaseException:
        with contextlib.suppress(ChildProcessError, OSError):
            again.kill()
        raise
