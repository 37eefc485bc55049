"""The commands on other systems' terms, emulated here: a console whose code page cannot write
the players' names (Windows' cp1252, as a redirected or piped stdout has it there), a session
folder that travels to Windows, a file another program holds, and the CSV tables' line ends."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.cli.replay import play_script
from tests.conftest import EXAMPLES, ROOT, demo_session

WARDEN = "Łucja"
PRISONERS = ["李雷", "Ada", "Ben", "Cy"]


def companion(*args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    """``companion ARGS`` in a fresh process, its output as bytes (nothing decodes it for us)."""
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env}, cwd=ROOT,
    )


def on_cp1252(*args: str) -> tuple[str, str]:
    """Run on a cp1252 console: exits 0, no traceback, and what it wrote is UTF-8."""
    run = companion(*args, PYTHONIOENCODING="cp1252")
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in run.stderr
    return run.stdout.decode("utf-8"), run.stderr.decode("utf-8")  # refuses anything but UTF-8


def test_non_latin_names_are_written_as_utf8_whatever_the_code_page() -> None:
    out, _ = on_cp1252("new", "łódź", "--warden", WARDEN, "--prisoners", ",".join(PRISONERS),
                       "--create-only")
    assert "Created the session 'łódź'" in out and "warden Łucja" in out and "李雷" in out

    out, _ = on_cp1252("links", "łódź", "--json")
    links = json.loads(out)
    assert [seat["name"] for seat in links["seats"]] == [WARDEN, *PRISONERS]
    assert "Łucja" in out  # JSON in UTF-8, the names as they are, not \u escapes

    out, _ = on_cp1252("sessions")
    assert "  łódź  prison break" in out.splitlines()


def test_a_script_with_non_latin_names_replays_as_utf8_whatever_the_code_page(
    tmp_path: Path,
) -> None:
    text = (EXAMPLES / "pb-first-day.json").read_text(encoding="utf-8")
    text = text.replace('"Wendy"', f'"{WARDEN}"').replace('"Ada"', '"李雷"')
    script = tmp_path / "day.json"
    script.write_text(text, encoding="utf-8")
    out, err = on_cp1252("replay", str(script))
    assert err == ""
    expected = play_script(json.loads(text))
    assert json.loads(out) == expected
    assert out == json.dumps(expected, indent=1, ensure_ascii=False) + "\n"
    assert "李雷" in out


def test_a_refusal_naming_a_non_latin_name_is_one_utf8_sentence_on_cp1252() -> None:
    run = companion("resume", "Łucja", PYTHONIOENCODING="cp1252")
    assert run.returncode == 2 and run.stdout == b""
    err = run.stderr.decode("utf-8")
    assert len(err.strip().splitlines()) == 1 and "'Łucja'" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["con", "NUL", "Aux.night", "com1", "LPT9", "prn.a.b", "com¹"])
def test_windows_device_names_are_refused_in_one_sentence_on_every_system(name: str) -> None:
    run = companion("new", name, "--warden", "Wendy", "--prisoners", "Ada,Ben,Cy,Dee",
                    "--create-only")
    assert run.returncode == 2 and run.stdout == b""
    lines = run.stderr.decode("utf-8").strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in lines[0]
    device = name.split(".")[0].upper()
    assert f"Windows keeps {device} for a device" in lines[0] and "another name" in lines[0]


def test_replacing_a_session_another_program_holds_is_refused_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On Windows a file another program has open cannot be deleted: replacing a session (as
    'companion demo' and 'companion rehearse' do) is refused in one sentence, not a PermissionError
    traceback."""
    from companion.errors import UserError

    demo_session(tmp_path, "demo").close()
    saved = (tmp_path / "demo.sqlite").read_bytes()
    real_unlink = Path.unlink

    def held(path: Path, missing_ok: bool = False) -> None:
        if path.name == "demo.sqlite":
            raise PermissionError(13, "The process cannot access the file", str(path))
        real_unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", held)
    with pytest.raises(UserError) as refused:
        demo_session(tmp_path, "demo", replace=True, holder="companion demo")
    sentence = str(refused.value)
    assert sentence == (
        "The session 'demo' cannot be replaced: another program has demo.sqlite open; close "
        "that program (or the other companion window) and try again."
    )
    assert (tmp_path / "demo.sqlite").read_bytes() == saved  # nothing lost
    monkeypatch.setattr(Path, "unlink", real_unlink)
    # Nothing is left held by the refused attempt: the next one replaces it.
    again = demo_session(tmp_path, "demo", replace=True, holder="companion demo")
    assert again.name == "demo"
    again.close()


def crlf_only(data: bytes) -> None:
    """Every line of a CSV table ends in CRLF (RFC 4180), none in a bare LF or CR."""
    assert data.endswith(b"\r\n") and data.count(b"\n") >= 2
    assert data.count(b"\n") == data.count(b"\r\n") == data.count(b"\r")


def test_the_warm_ups_export_ends_its_lines_in_crlf(tmp_path: Path) -> None:
    from companion.session.session import Session
    from tests.dilemma_helpers import scenario

    s = Session.create(tmp_path / "hall.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i, name in enumerate(["Ann", "Bob", "李雷"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    for n in range(2):
        s.submit({"do": "start_round", "seed": n})
        for pid in s.state.waiting():
            s.submit({"do": "choose", "pid": pid, "choice": "silent"})
    s.close()
    out = tmp_path / "out.csv"
    assert main(["--data-dir", str(tmp_path), "dilemma", "hall", "--export", str(out)]) == 0
    crlf_only(out.read_bytes())
    assert "李雷" in out.read_text(encoding="utf-8")


def test_the_balance_table_ends_its_lines_in_crlf() -> None:
    from companion.session.prison.scenarios import load_scenario
    from companion.sim.balance import Point, SizeResult
    from companion.sim.runner import Batch, play_batch, sim_rules
    from companion.sim.table import as_csv

    rules, _ = sim_rules(load_scenario("classic"), 4)
    best = Point(6, 3, play_batch(Batch(rules, 4, "standard", 1, "t", 0, 20)))
    other = Point(7, 3, play_batch(Batch(rules, 4, "standard", 1, "u", 0, 20)))
    results = [SizeResult(4, best, [best, other], 0.5), SizeResult(5, other, [other], 0.5)]
    text = as_csv(results)
    crlf_only(text.encode("utf-8"))
    assert [row["prisoners"] for row in csv.DictReader(io.StringIO(text))] == ["4", "5"]


def test_the_playtests_table_is_printed_with_crlf_untouched(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    from tests.cli.test_playtests import scripts

    for p in scripts(tmp_path / "s", 2):
        assert main(["playtests", "import", str(p)]) == 0
    capsysbinary.readouterr()
    assert main(["playtests", "--csv", "--games", "20", "--jobs", "1"]) == 0
    out = capsysbinary.readouterr().out
    crlf_only(out)
    rows = list(csv.DictReader(io.StringIO(out.decode("utf-8"), newline="")))
    assert [r["side"] for r in rows] == ["real", "bots"]


def test_the_sessions_list_shows_a_decomposed_name_composed(
    _isolated_data_dir: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    import unicodedata

    demo_session(_isolated_data_dir, "soirée").close()
    decomposed = unicodedata.normalize("NFD", "soirée")
    (_isolated_data_dir / "soirée.sqlite").rename(_isolated_data_dir / f"{decomposed}.sqlite")
    assert main(["sessions"]) == 0
    out = capsys.readouterr().out
    assert "  soirée  prison break" in out.splitlines() and decomposed not in out


@pytest.mark.skipif(os.name != "posix", reason="a C-locale shell is a POSIX system's")
@pytest.mark.parametrize("utf8_mode", [None, "0"], ids=["PYTHONUTF8 unset", "PYTHONUTF8=0"])
def test_a_c_locale_shell_creates_and_opens_a_session_with_a_non_ascii_name(
    tmp_path: Path, utf8_mode: str | None
) -> None:
    """In a shell with LANG=C (cron, a container, some SSH logins), with Python's UTF-8 mode
    off or left to Python, the arguments are read as the UTF-8 they are: the session is made,
    listed and opened by its name; bytes that are not UTF-8 get one sentence."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONUTF8", "PYTHONIOENCODING")}
    env.update(LANG="C", LC_ALL="C", PYTHONCOERCECLOCALE="0", PYTHONPATH=str(ROOT),
               COMPANION_DATA_DIR=str(tmp_path))
    if utf8_mode is not None:
        env["PYTHONUTF8"] = utf8_mode

    def run(*args: str | bytes) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                              check=False, env=env, cwd=tmp_path)

    made = run("new", "Ñandú", "--warden", "Wendy", "--prisoners", "Ada,Ben,Cy,Dee",
               "--create-only")
    assert made.returncode == 0, made.stderr.decode("utf-8", "replace")
    assert "Created the session 'Ñandú'" in made.stdout.decode("utf-8")
    assert (tmp_path / "Ñandú.sqlite").is_file()
    links = run("links", "Ñandú", "--json")
    assert links.returncode == 0, links.stderr.decode("utf-8", "replace")
    assert [s["name"] for s in json.loads(links.stdout)["seats"]][:2] == ["Wendy", "Ada"]
    assert "  Ñandú  prison break" in run("sessions").stdout.decode("utf-8").splitlines()
    latin1 = run("links", "Ñandú".encode("latin-1"))
    said = latin1.stderr.decode("utf-8")
    assert latin1.returncode == 2 and b"Traceback" not in latin1.stderr
    assert said.splitlines() == [
        "companion: the argument '\\xd1and\\xfa' is not UTF-8 text (the shell's locale writes "
        "another encoding); set a UTF-8 locale (export LANG=C.UTF-8) and type it again."
    ]
