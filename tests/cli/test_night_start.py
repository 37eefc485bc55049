"""How the console's commands start a night's server apart from the terminal, on every system
(the Windows and macOS paths as unit tests: no fork, the right flags), and the sentence when it
cannot start."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import night
from companion.errors import UserError
from companion.session.night import log_path


def test_on_windows_a_detached_process_with_no_window_in_its_own_group() -> None:
    options = night.detached("nt")
    flags = options["creationflags"]
    assert flags & night.DETACHED_PROCESS and flags & night.CREATE_NEW_PROCESS_GROUP
    assert flags & night.CREATE_NO_WINDOW
    assert "start_new_session" not in options and "preexec_fn" not in options  # no fork there
    if sys.platform == "win32":  # the numbers are Windows' own
        assert night.DETACHED_PROCESS == subprocess.DETACHED_PROCESS  # type: ignore[attr-defined]


@pytest.mark.parametrize("system", ["posix"])  # Linux and macOS alike: os.name is "posix"
def test_on_linux_and_macos_a_session_and_process_group_of_its_own(system: str) -> None:
    options = night.detached(system)
    assert options == {"start_new_session": True, "close_fds": True}
    assert "preexec_fn" not in options  # subprocess's own spawn, never a bare fork


class FakeProcess:
    def __init__(self, code: int | None) -> None:
        self.code = code
        self.killed = False

    def poll(self) -> int | None:
        return self.code

    def kill(self) -> None:
        self.killed = True


def test_the_server_command_and_how_it_is_spawned(tmp_path: Path) -> None:
    path = tmp_path / "friday.sqlite"
    path.write_bytes(b"")
    spawned: list[tuple[list[str], dict[str, Any]]] = []

    def spawn(command: list[str], **options: Any) -> FakeProcess:
        spawned.append((command, options))
        out = options["stdout"]
        out.write(b"companion: The phone server cannot listen on port 9000: it is in use.\n")
        return FakeProcess(1)

    args = argparse.Namespace(host="0.0.0.0", public_url="http://192.168.1.20:9000",
                              per_device=3)
    with pytest.raises(UserError, match="cannot listen on port 9000"):
        night.start_server(path, tmp_path, args, 9000, spawn=spawn)
    [(command, options)] = spawned
    assert command[:3] == [sys.executable, "-m", "companion"]
    assert command[3:7] == ["--data-dir", str(tmp_path), "serve", "friday"]
    assert "--quiet" in command and command[command.index("--port") + 1] == "9000"
    assert command[command.index("--public-url") + 1] == "http://192.168.1.20:9000"
    assert command[command.index("--per-device") + 1] == "3"
    assert options["stdin"] == subprocess.DEVNULL
    for key, value in night.detached().items():
        assert options[key] == value
    if sys.platform != "win32":
        assert log_path(path).stat().st_mode & 0o777 == 0o600  # no one else reads its log


def test_a_server_that_never_answers_is_ended_and_said_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "friday.sqlite"
    path.write_bytes(b"")
    monkeypatch.setattr(night, "START_SECONDS", 0.2)
    process = FakeProcess(None)
    with pytest.raises(UserError, match="did not start in time"):
        night.start_server(path, tmp_path, argparse.Namespace(), None,
                           spawn=lambda *a, **k: process)
    assert process.killed
