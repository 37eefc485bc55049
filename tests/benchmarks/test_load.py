"""Short smoke runs of the load benchmarks: benchmarks/phones.py (5 phones for 1 s against
``companion serve`` with the game master's console attached in tmux, the server alone and the
bare aiohttp server) and benchmarks/dilemma_hall.py (8 phones, two rounds, the console killed
in the middle of one and opened again). Each checks that the run completes, loses nothing and
prints its figures; they assert nothing about time."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def test_the_load_benchmark_runs_and_loses_nothing() -> None:
    assert shutil.which("tmux"), "tmux is needed (scripts/system-deps.sh installs it)"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "phones.py"), "--phones", "5", "--seconds",
         "1", "--think", "0.2", "--console", "running", "--beside", "alone,bare"],
        capture_output=True, text=True, timeout=180, cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert "Traceback" not in run.stderr
    for label in ("ours + console (running)", "ours alone"):
        kept = "every seat's last acknowledged choice is in the session file (5 seats)"
        assert f"{label}: {kept}" in out
    figures = re.search(r"submit p50 / p99 \(ms\)(\s+[\d.]+ / [\d.]+){3}", out)
    assert figures, out
    fan_out = re.search(r"fan-out to all p50 / p99 \(ms\)\s+([\d.]+) / ([\d.]+)", out)
    assert fan_out, out
    assert re.search(r"failed requests\s+0\s+0\s+0", out), out
    files = re.search(r"server open files before / after\s+(\d+) / (\d+)", out)
    assert files and int(files.group(2)) <= int(files.group(1)), out  # phones left nothing open
    assert re.search(
        r"ratio ours \+ console \(running\) / bare \(p99\): submit [\d.]+x, fan-out [\d.]+x, "
        r"page load [\d.]+x", out
    ), out
    assert re.search(r"console \(running\): attached .* behind the phones", out), out
    assert "nothing lost: yes" in out, out


def test_the_hall_benchmark_kills_the_console_and_loses_nothing() -> None:
    """The hall with the console killed halfway through the first round and opened again: every
    choice acknowledged and in the file, every result on every phone, the console attached
    again (``companion sessions`` says "1 console")."""
    assert shutil.which("tmux"), "tmux is needed (scripts/system-deps.sh installs it)"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "dilemma_hall.py"), "--players", "8",
         "--rounds", "2", "--join", "1", "--choose", "2", "--console", "killed", "--beside",
         "none"],
        capture_output=True, text=True, timeout=180, cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    out = run.stdout
    assert "Traceback" not in run.stderr
    assert "the figure of record: ours + console (killed)" in out, out
    assert re.search(r"choices acknowledged\s+16 of 16", out), out
    assert re.search(r"results not received\s+0\b", out), out
    assert re.search(r"companion sessions says\s+1 console", out), out
    assert re.search(r"console reopened: attached \(s\)\s+[\d.]+", out), out
    assert re.search(r"nothing lost\s+yes", out), out


def test_the_costs_count_one_whole_part_and_patches_for_the_others(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--costs``' rows for the streams: at each first choice the chooser's stream makes its
    whole part and every other prisoner's stream sends the counts' line as a patch."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.phones import stream_costs

    stream_costs([f"P{i}" for i in range(1, 7)])
    out = capsys.readouterr().out
    assert re.search(r"the chooser stream: its whole part rendered and encoded\s+\d+ us", out)
    assert re.search(r"every other prisoner stream: the counts line \(a patch\)\s+\d+ us", out)
    assert "(x 5 streams;" in out, out  # six prisoners: one chooser, five patched
