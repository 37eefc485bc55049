"""``companion simulate`` and ``companion balance`` as a user runs them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.rules.prison.scenario import RULE_KEYS
from companion.session.paths import user_scenario_dir
from companion.session.prison.scenarios import load_rules_file
from companion.session.scenario_files import shipped_scenario_dir


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_json_reports_every_outcome_with_intervals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "simulate", "--games", "400", "--seed", "3", "--json",
                         "--jobs", "2")
    assert status == 0
    report = json.loads(out)
    outcomes = report["outcomes"]
    assert set(outcomes) == {"escape", "parole", "all_caught", "time_up"}
    assert sum(o["count"] for o in outcomes.values()) == report["games"] == 400
    for o in outcomes.values():
        assert 0 <= o["low"] <= o["rate"] <= o["high"] <= 1
    assert report["day_cap"] == 30 and report["rules"]["max_days"] == 30
    assert report["warden_side"]["count"] == 400 - outcomes["escape"]["count"]
    assert report["prisoners"] == 4 and report["mean_days"] >= 2


def test_simulate_same_seed_same_report_on_any_number_of_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("simulate", "--scenario", "balanced-7", "--prisoners", "7", "--games", "300",
            "--seed", "11", "--json")
    first = json.loads(run(capsys, *args, "--jobs", "1")[1])
    second = json.loads(run(capsys, *args, "--jobs", "2")[1])
    assert first["outcomes"] == second["outcomes"]
    assert first["mean_days"] == second["mean_days"]


def test_simulate_text_says_the_cap_applies(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "simulate", "--games", "200", "--mix", "loyal")
    assert status == 0 and err == ""
    assert "stopped after 30 days" in out and "time up" in out and "games/s" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--scenario", "balanced-6", "--prisoners", "4"],
         "The scenario 'balanced-6' is for 6 prisoners, not 4; use --prisoners 6, or a "
         "scenario for 4 prisoners: balanced-4, classic."),
        (["--prisoners", "3"],
         "The scenario 'classic' is for 4 prisoners, not 3; use --prisoners 4, or make a "
         "scenario for 3 prisoners with 'companion balance --prisoners 3'."),
    ],
)
def test_simulate_refuses_a_group_size_outside_the_scenario_s_range(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    status, out, err = run(capsys, "simulate", "--games", "100", "--jobs", "1", *argv)
    assert status == 2 and out == ""
    assert err.strip() == f"companion: {words}"


@pytest.mark.slow  # a search over the simulator's settings
def test_balance_on_a_small_budget_writes_valid_scenarios(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run(capsys, "balance", "--prisoners", "4-5", "--games-per-point", "100",
                           "--out", str(tmp_path), "--seed", "2")
    assert status == 0, err
    classic = tomllib.loads((shipped_scenario_dir() / "classic.toml").read_text())
    for size in (4, 5):
        path = tmp_path / f"balanced-{size}.toml"
        rules = load_rules_file(path)
        assert rules.min_prisoners == rules.max_prisoners == size
        data = tomllib.loads(path.read_text())
        assert set(data) - {"description"} == set(classic) - {"description"}
        assert set(data) <= set(RULE_KEYS) | {"description"}
        text = path.read_text()
        assert "Mix 'standard', seed 2" in text and "games at these numbers" in text
        assert "escape" in text and "%" in text
        assert f"| {size} | {rules.nights_to_escape} | {rules.parole_tokens_to_win} |" in out


@pytest.mark.slow  # a search over the simulator's settings
def test_balance_is_reproducible_across_process_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for jobs in ("1", "2"):
        args = ("balance", "--prisoners", "6", "--games-per-point", "100", "--json",
                "--out", str(tmp_path / jobs), "--jobs", jobs)
        status, out, _ = run(capsys, *args)
        assert status == 0
    one = (tmp_path / "1" / "balanced-6.toml").read_text()
    two = (tmp_path / "2" / "balanced-6.toml").read_text()
    assert one == two


@pytest.mark.slow  # a search over the simulator's settings
def test_balance_json_and_no_write(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "balance", "--prisoners", "4", "--games-per-point", "100",
                         "--no-write", "--json", "--out", str(tmp_path), "--target", "0.4")
    assert status == 0
    report = json.loads(out)
    assert list(tmp_path.iterdir()) == [] and report["written"] == []
    (size,) = report["sizes"]
    assert size["prisoners"] == 4 and size["games"] >= 100 and report["target"] == 0.4
    assert size["warden_side"]["count"] + size["escape"]["count"] == size["games"]
    # The search sampled more than one setting, and the curve lists each with its games.
    assert len(size["curve"]) >= 2
    assert sum(p["games"] for p in size["curve"]) == size["games_in_search"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "--games", "lots"], "--games must be a whole number"),
        (["simulate", "--games", "0"], "--games must be between 1"),
        (["simulate", "--prisoners", "1"], "--prisoners must be between 2 and 60"),
        (["simulate", "--mix", "chaos"], "There is no mix called 'chaos'"),
        (["simulate", "--scenario", "nowhere"], "There is no scenario called 'nowhere'"),
        (["simulate", "--scenario", "dilemma"], "not the prison break"),
        (["simulate", "--seed", "-4"], "--seed must be between 0"),
        (["balance", "--prisoners", "12-4"], "runs backwards"),
        (["balance", "--prisoners", "four"], "--prisoners must be a whole number"),
        (["balance", "--target", "1.5"], "--target must be between 0 and 1"),
        (["balance", "--target", "half"], "--target must be a number"),
        (["balance", "--games-per-point", "0"], "--games-per-point must be between 1"),
        (["balance", "--mix", "nope"], "There is no mix called 'nope'"),
        (["balance", "--json", "--csv"], "--json and --csv are two formats"),
    ],
)
def test_bad_input_gets_one_sentence_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str, tmp_path: Path
) -> None:
    before = sorted(p.name for p in shipped_scenario_dir().iterdir())
    status, out, err = run(capsys, *argv, "--jobs", "1")
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: ") and lines[0].endswith(".")
    assert words in lines[0] and "Traceback" not in err
    assert sorted(p.name for p in shipped_scenario_dir().iterdir()) == before
    assert list(user_scenario_dir().iterdir()) == []


def test_balance_refuses_to_write_into_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "not-a-folder"
    target.write_text("x")
    status, out, err = run(capsys, "balance", "--prisoners", "4", "--out", str(target))
    assert status == 2 and "is a file, not a folder" in err and target.read_text() == "x"


@pytest.mark.slow  # a search over the simulator's settings
def test_balance_writes_to_the_users_folder_and_says_where(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without --out, never into the shipped scenarios (the package, or the checkout's
    scenarios/): into the user's scenario folder, which then wins over the shipped file."""
    shipped = {p.name: p.read_bytes() for p in shipped_scenario_dir().iterdir()}
    status, out, err = run(capsys, "balance", "--prisoners", "5", "--games-per-point", "40",
                           "--jobs", "1", "--seed", "4")
    assert status == 0, err
    mine = user_scenario_dir() / "balanced-5.toml"
    assert f"Wrote 1 scenario file in {user_scenario_dir()}: balanced-5.toml." in out
    assert {p.name: p.read_bytes() for p in shipped_scenario_dir().iterdir()} == shipped
    assert load_rules_file(mine).min_prisoners == 5
    assert "Mix 'standard', seed 4" in mine.read_text()

    status, out, _ = run(capsys, "scenarios")
    assert status == 0
    shipped_part, own_part = out.split("Your scenarios")
    assert f"(in {user_scenario_dir()}):" in own_part
    assert "balanced-5" in shipped_part and "classic" in shipped_part
    assert "balanced-5" in own_part and "(replaces the shipped one)" in own_part
    assert "classic" not in own_part


@pytest.mark.slow  # a search over the simulator's settings
def test_balance_csv_puts_the_designers_numbers_beside_the_recommendation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import csv

    status, out, err = run(capsys, "balance", "--prisoners", "4-5", "--games-per-point", "100",
                           "--csv", "--no-write", "--jobs", "1")
    assert status == 0, err
    rows = list(csv.DictReader(out.splitlines()))  # nothing but the table on stdout
    assert [int(r["prisoners"]) for r in rows] == [4, 5]
    for r in rows:
        # classic's own numbers, measured at each size beside the recommendation
        assert (r["designers_nights"], r["designers_tokens"]) == ("6", "3")
        assert int(r["designers_games"]) >= 100
        assert 0 <= float(r["designers_escape_low"]) <= float(r["designers_escape"]) <= 1
        assert float(r["escape_low"]) <= float(r["escape"]) <= float(r["escape_high"])
        assert r["settled"] in ("yes", "no") and r["runner_up_nights"]


@pytest.mark.slow  # a search over the simulator's settings
def test_balance_table_says_the_runner_up_and_the_designers_numbers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "balance", "--prisoners", "4", "--games-per-point", "100",
                         "--no-write", "--jobs", "1")
    assert status == 0
    header = next(line for line in out.splitlines() if line.startswith("| prisoners"))
    assert "runner-up" in header and "designers' nights, tokens" in header
    (line,) = [line for line in out.splitlines() if line.startswith("| 4 |")]
    assert "| 6, 3 |" in line and ("settled" in line or "a tie" in line)
