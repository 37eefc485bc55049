"""The night outlives the console: a real console in a pseudo-terminal, its night's server
started detached; the console's terminal stopped and killed while phones choose; a second
console; a server killed with ``kill -9`` and started again on the same port; ``companion
stop`` leaving no process behind."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.session.night import process_alive, read_record, record_path
from companion.session.prison.seats import seats_of
from companion.session.session import Session
from tests.conftest import demo_session
from tests.night_helpers import free_port

pytestmark = pytest.mark.slow

ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()=>78]")
COLS, ROWS = 120, 36


class Console:
    """``companion --data-dir D resume NAME --host 127.0.0.1 --port P`` in a pseudo-terminal;
    the console is the leader of its own process group (as a terminal's shell makes it)."""

    def __init__(self, data: Path, name: str, port: int) -> None:
        argv = [sys.executable, "-m", "companion", "--data-dir", str(data), "resume", name,
                "--host", "127.0.0.1", "--port", str(port)]
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(COLS), "LINES": str(ROWS)}
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
            os.execvpe(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        self.reaped = False
        self.raw = bytearray()
        threading.Thread(target=self._read, daemon=True).start()

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

    def shows(self, phrase: str, timeout: float = 60) -> None:
        wait_for(lambda: phrase in self.text(), f"the console showing {phrase!r}", timeout,
                 lambda: self.text()[-2000:])

    def signal(self, sig: int) -> None:
        os.killpg(self.pid, sig)

    def gone(self, timeout: float = 10) -> bool:
        deadline = time.monotonic() + timeout
        while not self.reaped and time.monotonic() < deadline:
            done, _ = os.waitpid(self.pid, os.WNOHANG)
            if done == self.pid:
                self.reaped = True
            else:
                time.sleep(0.05)
        return self.reaped

    def kill(self) -> None:
        if not self.reaped:
            with contextlib.suppress(ProcessLookupError):
                self.signal(signal.SIGKILL)
            self.gone()
        with contextlib.suppress(OSError):
            os.close(self.fd)


def wait_for(check: Callable[[], bool], what: str, timeout: float = 20,
             said: Callable[[], str] = lambda: "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"never saw {what}\n{said()}")


def choose(port: int, token: str, choice: str) -> int:
    """A phone's choice, answered (its status) or failing with the phone's own timeout: a
    server that waited on a frozen console would never answer."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/p/{token}/choice", method="POST",
        data=json.dumps({"choice": choice}).encode(), headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        answer.read()
        return int(answer.status)


def companion(data: Path, *args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(data), *args],
                         capture_output=True, text=True, timeout=60, check=True)
    return out.stdout


def test_a_stopped_then_killed_terminal_leaves_the_room_served(tmp_path: Path) -> None:
    session = demo_session(tmp_path, "friday")
    tokens = {s.name: s.token for s in seats_of(session)}
    path = session.store.path
    session.close()
    port = free_port()
    console = Console(tmp_path, "friday", port)
    try:
        console.shows("0 of 4 have chosen")
        record = read_record(path)
        assert record is not None and record.port == port
        server = record.pid
        assert os.getsid(server) != os.getsid(console.pid)  # detached: a session of its own
        assert os.getpgid(server) != os.getpgid(console.pid)

        console.signal(signal.SIGSTOP)  # a frozen terminal: phones and board go on
        for name in ("Ada", "Ben"):
            assert choose(port, tokens[name], "work") == 200
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/board", timeout=5) as board:
            assert board.status == 200
        console.signal(signal.SIGCONT)
        console.shows("2 of 4 have chosen")

        console.kill()  # a closed terminal: the server serves on
        assert process_alive(server)
        assert choose(port, tokens["Cy"], "rest") == 200

        console = Console(tmp_path, "friday", port)  # the console again: it attaches
        console.shows("3 of 4 have chosen")
        assert read_record(path) is not None and read_record(path).pid == server  # type: ignore[union-attr]
        wait_for(lambda: "1 console" in companion(tmp_path, "sessions"), "one console attached")

        os.kill(server, signal.SIGKILL)  # the server killed: the console starts it again
        wait_for(lambda: (r := read_record(path)) is not None and r.pid != server
                 and process_alive(r.pid), "a new server")
        again = read_record(path)
        assert again is not None and again.port == port  # the printed links still work
        wait_for(lambda: _answers(port), "the new server answering")
        assert choose(port, tokens["Dee"], "work") == 200
        console.shows("Everyone has chosen")

        said = companion(tmp_path, "stop", "friday")
        assert "Stopped serving friday" in said
        assert not process_alive(again.pid) and not record_path(path).exists()
        assert console.gone(15)  # the console closes with its night
    finally:
        console.kill()
    for line in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout.split(
        "\n"
    ):
        assert not (str(tmp_path) in line and " serve " in line), line
    final = Session.open(path)
    assert final.state.day.choices == {"Ada": "work", "Ben": "work", "Cy": "rest", "Dee": "work"}
    final.close()


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/board", timeout=1) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False
