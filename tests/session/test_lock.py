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
from companion.session.create import create_prison_session, open_session
from companion.session.lock import SessionBusy
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
