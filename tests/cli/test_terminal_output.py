"""Long work on a terminal: ``companion balance``, ``simulate`` and ``playtests`` show a
progress bar (on stderr) and their results as tables no wider than the terminal; piped, they
print no progress and their plain tables (balance's in Markdown). The simulations are kept tiny
(a few games a point)."""

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

from companion.cli.main import main
from tests.cli.test_playtests import scripts

ROOT = Path(__file__).resolve().parents[2]
BALANCE = ["balance", "--prisoners", "4", "--games-per-point", "5", "--jobs", "1",
           "--no-write", "--seed", "3"]
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")

pytestmark = pytest.mark.terminal


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(PYTHONPATH=str(ROOT), TERM="xterm-256color")
    return env


def on_a_terminal(columns: int, tmp: Path, argv: list[str] = BALANCE) -> str:
    """Everything ``companion ARGV`` writes to a pseudo-terminal ``columns`` wide."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(tmp), *argv],
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


SIMULATE = ["simulate", "--games", "300", "--jobs", "1", "--seed", "3"]
PLAYTESTS = ["playtests", "--games", "200", "--jobs", "1", "--seed", "3"]


def played(tmp: Path) -> None:
    """Three finished games by bots in the data folder ``tmp``, for the notebook."""
    for path in scripts(tmp / "scripts", 3, mix="cutthroat"):
        assert main(["--data-dir", str(tmp), "playtests", "import", str(path)]) == 0


def drawn_within(raw: str, columns: int) -> list[str]:
    """The table lines as shown, each checked no wider than the terminal."""
    drawn = [line for line in shown_lines(raw) if any(c in line for c in "┃│┏┡└━")]
    assert max(len(line) for line in drawn) <= columns, [d for d in drawn if len(d) > columns]
    bar = [s for s in re.split(r"\r|\n", ANSI.sub("", raw)) if " games · " in s]
    assert bar, raw[-2000:]  # the progress bar was drawn: games done, their rate, time left
    assert all("/s" in s and " left" in s for s in bar), bar
    assert any(re.search(r"\d/s", s) for s in bar), bar  # a rate measured
    assert max(len(s) for s in bar) <= columns, bar
    return drawn


@pytest.mark.parametrize("columns", [80, 120])
def test_simulate_on_a_terminal_progress_and_a_table_that_fits(
    columns: int, tmp_path: Path
) -> None:
    raw = on_a_terminal(columns, tmp_path, SIMULATE)
    assert "Simulating 4 " in raw and "/300 games" in ANSI.sub("", raw)
    drawn = drawn_within(raw, columns)
    assert any("┃ outcome " in line for line in drawn), raw[-2000:]
    body = [line for line in drawn if line.startswith("│")]
    assert [line.split("│")[1].strip() for line in body] == [
        "escape", "parole", "all caught", "time up", "prisoners team (escape)",
        "warden side (parole, caught, time up)"]
    assert "95% interval" in raw and "[" not in "".join(body)  # the table, not the plain text


@pytest.mark.parametrize("columns", [80, 120])
def test_playtests_on_a_terminal_progress_and_tables_that_fit(
    columns: int, tmp_path: Path
) -> None:
    played(tmp_path)
    raw = on_a_terminal(columns, tmp_path, PLAYTESTS)
    assert "/200 games" in ANSI.sub("", raw)
    drawn = drawn_within(raw, columns)
    assert any("real tables" in line for line in drawn) and any(
        "bots (200" in line for line in drawn), raw[-2000:]
    assert any(line.startswith("│ mean days ") for line in drawn), drawn
    assert "The designers' notebook: 3 finished games" in raw


@pytest.mark.parametrize("argv", [SIMULATE, PLAYTESTS], ids=["simulate", "playtests"])
def test_simulate_and_playtests_piped_no_progress_and_the_plain_table(
    argv: list[str], tmp_path: Path
) -> None:
    if argv is PLAYTESTS:
        played(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(tmp_path), *argv],
        capture_output=True, text=True, env=environment(), cwd=tmp_path, check=True,
    )
    assert done.stderr == ""
    assert "\x1b" not in done.stdout and not any(c in done.stdout for c in "┃│┏━")
    if argv is SIMULATE:
        assert "  outcome        games    rate  95% interval" in done.stdout
        assert "  warden side (parole, caught, time up)  " in done.stdout
    else:
        assert "  mean days " in done.stdout and "bots (200 games)" in done.stdout
