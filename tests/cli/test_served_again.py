"""After a crash, the phones' server comes back where it was: ``serve`` and ``resume`` reuse the
host and port the session last served on (flags still win), so no printed link goes stale."""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.session.create import open_session
from companion.session.links import served_on
from tests.conftest import demo_session, free_port


def serve(folder: Path, *flags: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(folder), "serve", "night", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_serving(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith("Serving phones"):
            return line
    process.kill()
    why = process.stderr.read() if process.stderr else ""
    raise AssertionError(f"the server did not start: {why}")


def board_answers(port: int) -> bool:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/board", timeout=5) as answer:
        return bool(answer.status == 200)


def test_serve_after_a_kill_listens_where_it_did_without_the_flags(tmp_path: Path) -> None:
    demo_session(tmp_path, "night").close()
    port = free_port()
    first = serve(tmp_path, "--host", "127.0.0.1", "--port", str(port))
    try:
        assert f"on 127.0.0.1:{port}." in wait_serving(first)
        assert board_answers(port)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    again = serve(tmp_path)  # no flags: the session remembers
    try:
        assert f"on 127.0.0.1:{port}." in wait_serving(again)
        assert board_answers(port)
    finally:
        again.terminate()
        again.wait(10)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[argparse.Namespace]:
    """``resume`` stops short of opening a console: the arguments it would open one with."""
    seen: list[argparse.Namespace] = []

    def fake_open(session, args):  # type: ignore[no-untyped-def]
        seen.append(args)
        session.close()
        return 0

    monkeypatch.setattr("companion.cli.resume.open_by_game", fake_open)
    return seen


def test_resume_reuses_the_last_host_and_port(tmp_path: Path, opened) -> None:  # type: ignore[no-untyped-def]
    session = demo_session(tmp_path, "night")
    session.set("served_on", {"host": "127.0.0.1", "port": 8799})
    session.close()
    assert main(["--data-dir", str(tmp_path), "resume", "night"]) == 0
    assert (opened[-1].host, opened[-1].port) == ("127.0.0.1", 8799)
    assert main(["--data-dir", str(tmp_path), "resume", "night", "--port", "8800"]) == 0
    assert (opened[-1].host, opened[-1].port) == ("127.0.0.1", 8800)
    assert main(["--data-dir", str(tmp_path), "resume", "night", "--host", "0.0.0.0"]) == 0
    assert (opened[-1].host, opened[-1].port) == ("0.0.0.0", 8799)


def test_a_session_that_never_served_keeps_the_defaults(tmp_path: Path, opened) -> None:  # type: ignore[no-untyped-def]
    demo_session(tmp_path, "night").close()
    assert main(["--data-dir", str(tmp_path), "resume", "night"]) == 0
    assert (opened[-1].host, opened[-1].port) == ("0.0.0.0", None)
    session = open_session(tmp_path, "night")
    try:
        assert served_on(session) is None
    finally:
        session.close()
