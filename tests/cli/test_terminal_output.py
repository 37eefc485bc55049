"""Long work on a terminal: ``companion balance`` shows a progress bar (on stderr) and its
results as tables no wider than the terminal; piped, it prints no progress and the Markdown
table. The simulations are kept tiny (a few games a point)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BALANCE = ["balance", "--prisoners", "4", "--games-per-point", "5", "--jobs", "1",
           "--no-write", "--seed", "3"]
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")

pytestmark = pytest.mark.terminal


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(PYTHONPATH=str(ROOT), TERM="xterm-256color")
    return env


def on_a_terminal(columns: int, tmp: Path) -> str:
    """Everything ``companion balance`` writes to a pseudo-terminal ``columns`` wide."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(tmp), *BALANCE],
        stdin=follower, stdout=follower, stderr=follower, env=environment(), cwd=tmp,
        close_fds=True,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed: the command is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(300) == 0, b"".join(chunks).decode("utf-8", "replace")[-3000:]
    return b"".join(chunks).decode("utf-8", "replace")


def shown_lines(raw: str) -> list[str]:
    """The lines as the terminal shows them: escape sequences dropped, each carriage return
    starting the line over."""
    lines = []
    for line in ANSI.sub("", raw).split("\n"):
        lines.append(line.split("\r")[-1] if not line.endswith("\r") else line.rstrip("\r")
                     .split("\r")[-1])
    return lines


@pytest.mark.parametrize("columns", [80, 120])
def test_on_a_terminal_progress_and_a_table_that_fits(columns: int, tmp_path: Path) -> None:
    raw = on_a_terminal(columns, tmp_path)
    assert "Balancing 4 " in raw and "/s" in raw and " games" in raw  # the progress bar
    assert "sizes" in raw and "left" in raw
    lines = shown_lines(raw)
    assert "| --- |" not in raw  # not the Markdown table
    assert any("┃ prisoners ┃" in line for line in lines), raw[-2000:]  # a table heading
    drawn = [line for line in lines if any(c in line for c in "┃│┏┡└━")]  # the tables
    assert len(drawn) >= 6
    assert max(len(line) for line in drawn) <= columns, [d for d in drawn if len(d) > columns]
    bar = [s for s in re.split(r"\r|\n", ANSI.sub("", raw)) if " sizes " in s]
    assert bar and max(len(s) for s in bar) <= columns, bar  # the bar too, as it was drawn


def test_piped_no_progress_and_the_markdown_table(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(tmp_path), *BALANCE],
        capture_output=True, text=True, env=environment(), cwd=tmp_path, check=True,
    )
    assert done.stderr == ""
    assert "\x1b" not in done.stdout and "games/s)" in done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| prisoners | nights to escape |") and rows[1].startswith("| ---")
    assert [r.split(" | ")[0] for r in rows[2:]] == ["| 4"]
