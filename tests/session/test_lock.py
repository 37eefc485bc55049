"""One window at a time on a game: a second program that would play the same session is refused
in one sentence, and nothing is changed; a crashed holder leaves nothing locked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.errors import UserError
from companion.session.create import open_session
from companion.session.lock import SessionBusy
from companion.session.prison.create import create_prison_session
from companion.session.session import Session
from tests.conftest import ROSTER, demo_session


def night(folder: Path) -> Path:
    session = demo_session(folder, "night")
    session.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    session.close()
    return folder / "night.sqlite"


@pytest.fixture
def held_elsewhere(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another program (a real process) playing the session, as `companion serve` would."""
    path = night(tmp_path)
    script = textwrap.dedent(
        f"""
        import time
        from pathlib import Path
        from companion.session.session import Session
        session = Session.open(Path({str(path)!r}), holder="companion serve")
        print("held", flush=True)
        time.sleep(120)
        """
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    yield holder
    holder.kill()
    holder.wait()


def test_a_second_window_is_refused_in_one_sentence(
    tmp_path: Path, held_elsewhere: subprocess.Popen[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = (tmp_path / "night.sqlite").read_bytes()
    assert main(["--data-dir", str(tmp_path), "resume", "night"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert "'night' is already open in another window" in err
    assert f"companion serve, process {held_elsewhere.pid}, since " in err
    assert (tmp_path / "night.sqlite").read_bytes() == before


def test_a_held_session_is_not_replaced(
    tmp_path: Path, held_elsewhere: subprocess.Popen[str]
) -> None:
    with pytest.raises(UserError, match="already open in another window"):
        create_prison_session(
            tmp_path, "night", "classic", "Wendy", ROSTER, replace=True, holder="companion demo"
        )
    session = open_session(tmp_path, "night")  # reading needs no lock
    assert session.state.day.choices == {"Ada": "work"}
    session.close()


def test_a_killed_holder_leaves_the_session_free(
    tmp_path: Path, held_elsewhere: subprocess.Popen[str]
) -> None:
    with pytest.raises(UserError):
        open_session(tmp_path, "night", holder="companion resume")
    os.kill(held_elsewhere.pid, signal.SIGKILL)
    held_elsewhere.wait()
    session = open_session(tmp_path, "night", holder="companion resume")
    assert session.state.day.choices == {"Ada": "work"}
    session.close()


def test_closing_lets_the_next_window_in(tmp_path: Path) -> None:
    path = night(tmp_path)
    first = Session.open(path, holder="the console")
    with pytest.raises(SessionBusy, match=r"\(the console, process \d+, since \d\d:\d\d\)"):
        Session.open(path, holder="companion serve")
    first.close()
    second = Session.open(path, holder="companion serve")
    assert second.lock is not None and second.lock.held
    second.close()


def test_a_refused_open_holds_nothing(tmp_path: Path) -> None:
    (tmp_path / "broken.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(UserError):
        open_session(tmp_path, "broken", holder="the console")
    # The lock was let go with the refusal: the next try is refused for the file, not the lock.
    with pytest.raises(UserError) as again:
        open_session(tmp_path, "broken", holder="the console")
    assert "already open" not in str(again.value)


WITHOUT_FCNTL = """
import os
import socket
import sys
from pathlib import Path

sys.modules["fcntl"] = None  # as on Windows: 'import fcntl' fails
for unix_only in ("pread", "pwrite"):
    if hasattr(os, unix_only):
        delattr(os, unix_only)
del socket.if_nameindex  # no Linux interface calls either

from companion.errors import UserError
from companion.session.create import open_session
from companion.session.prison.create import create_prison_session

folder = Path(sys.argv[1])
session = create_prison_session(
    folder, "night", "classic", "Wendy", ["Ada", "Ben", "Cy", "Dee"], holder="companion new"
)
session.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
assert session.lock is not None and session.lock.held
try:
    open_session(folder, "night", holder="companion serve")
except UserError as error:
    print("refused:", error)
session.close()
again = open_session(folder, "night", holder="companion resume")
assert again.lock is not None and again.lock.held
print("resumed:", again.state.day.choices)
again.close()
print("fcntl imported:", sys.modules.get("fcntl") is not None)
"""


def test_open_lock_and_resume_without_fcntl_as_on_windows(tmp_path: Path) -> None:
    """The lock needs neither fcntl nor os.pread/pwrite (both missing on Windows): a session is
    created and held, a second window is refused in one sentence, and it resumes once free."""
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_FCNTL, str(tmp_path)], capture_output=True, text=True,
        cwd=Path(__file__).resolve().parents[2], timeout=60,
    )
    assert done.returncode == 0, done.stderr
    refused, resumed, imported = done.stdout.splitlines()
    assert refused.startswith("refused: The session 'night' is already open in another window")
    assert "(companion new, process " in refused
    assert resumed == "resumed: {'Ada': 'work'}"
    assert imported == "fcntl imported: False"
