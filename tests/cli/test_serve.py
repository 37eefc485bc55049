"""``companion serve`` stops cleanly on Ctrl+C or a terminate signal, also where the event loop
takes no signal handlers (Windows): the session is let go and "Stopped." is the last word."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.session.create import open_session
from companion.session.prison.create import create_prison_session
from tests.conftest import ROSTER, free_port

ROOT = Path(__file__).resolve().parents[2]

# `companion serve` as on Windows: the loop refuses signal handlers.
WITHOUT_LOOP_SIGNALS = """
import asyncio
import sys


def refuse(self, sig, callback, *args):
    raise NotImplementedError


asyncio.unix_events._UnixSelectorEventLoop.add_signal_handler = refuse
from companion.cli.main import main

sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("loop_signals", [True, False], ids=["loop", "no-loop-signals"])
def test_serve_stops_on_a_signal(tmp_path: Path, sig: signal.Signals, loop_signals: bool) -> None:
    create_prison_session(tmp_path, "night", "classic", "Wendy", ROSTER).close()
    port = free_port()
    start = ["-m", "companion"] if loop_signals else ["-c", WITHOUT_LOOP_SIGNALS]
    server = subprocess.Popen(
        [sys.executable, *start, "--data-dir", str(tmp_path), "serve", "night",
         "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline() for _ in range(8)]  # the title, 5 seats, the board
        assert lines[-1].strip() == "Press Ctrl+C to stop.", lines
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/board", timeout=10) as answer:
            assert answer.status == 200
        time.sleep(0.2)
        server.send_signal(sig)
        out, err = server.communicate(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 0, err
    assert out.strip().splitlines()[-1] == "Stopped." and "Traceback" not in err
    session = open_session(tmp_path, "night", holder="companion resume")  # it was let go
    session.close()


def test_stop_says_what_a_so_long_sucker_night_had(tmp_path: Path) -> None:
    """A So Long Sucker night has no phones and no board: ``companion stop`` names the
    referee's page and the consoles instead."""
    from companion.session.create import create_session

    setup = {"players": [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"},
                         {"name": "Cat", "color": "green"}], "chips_per_player": 3,
             "first": "Ann"}
    create_session(tmp_path / "chips.sqlite", "so-long-sucker", setup, None).close()
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(tmp_path), "serve", "chips",
         "--host", "127.0.0.1", "--port", str(free_port())],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        assert server.stdout is not None
        while "Press Ctrl+C to stop." not in server.stdout.readline():
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
        stopped = subprocess.run(
            [sys.executable, "-m", "companion", "--data-dir", str(tmp_path), "stop", "chips"],
            capture_output=True, text=True, cwd=ROOT, timeout=60,
        )
        server.communicate(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert stopped.returncode == 0, stopped.stderr
    said = stopped.stdout.strip()
    assert said.startswith("Stopped serving chips: the referee's page and the consoles are off")
    assert "phones" not in said and "board" not in said
