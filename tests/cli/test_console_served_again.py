"""The console itself, killed with -9 while serving phones on a port given by flags, comes back
on that same port from a bare ``companion resume NAME`` (in a real terminal)."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.conftest import demo_session, free_port


def console(folder: Path, *args: str) -> tuple[subprocess.Popen[bytes], int]:
    """The console in a pseudo-terminal of 120×36, its screen drained in the background."""
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "36"}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(folder), *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)

    def drain() -> None:
        try:
            while os.read(master, 65536):
                pass
        except OSError:
            pass

    threading.Thread(target=drain, daemon=True).start()
    return process, master


def board_answers(port: int, within: float = 60.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/board", timeout=2) as answer:
                return bool(answer.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    return False


def stop(process: subprocess.Popen[bytes], master: int) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(10)
    os.close(master)


def test_resume_after_a_killed_console_serves_on_the_same_port(tmp_path: Path) -> None:
    demo_session(tmp_path, "night").close()
    port = free_port()
    first, screen = console(tmp_path, "resume", "night", "--host", "127.0.0.1", "--port", str(port))
    try:
        assert board_answers(port), "the console did not serve the phones on the given port"
    finally:
        stop(first, screen)  # kill -9
    try:
        again, screen = console(tmp_path, "resume", "night")  # no flags
        try:
            assert board_answers(port), "resume without flags did not serve on the same port"
        finally:
            stop(again, screen)
    finally:  # the night the console started outlives it: stopped too, so no server is left
        subprocess.run(
            [sys.executable, "-m", "companion", "--data-dir", str(tmp_path), "stop", "night"],
            capture_output=True, timeout=60, check=False,
        )
