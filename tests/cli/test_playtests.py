"""``companion playtests`` as a designer runs it: the report over finished games, importing games
played elsewhere, the anonymous export and the mix learned from the table."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.cli.main import main
from companion.rules.prison.scenario import with_overrides
from companion.session.prison.scenarios import load_scenario
from companion.sim.notebook.stand_ins import bot_script
from tests.conftest import EXAMPLES, demo_session

NAMES = ["Zoë", "Bartholomew", "Quincy", "Ingrid", "Marguerite"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def scripts(folder: Path, count: int, *, mix: str = "standard", prisoners: int = 4,
            first: int = 0) -> list[Path]:
    """``count`` finished games played by bots, written as game scripts."""
    folder.mkdir(parents=True, exist_ok=True)
    rules = load_scenario("classic")
    if prisoners != 4:
        rules = with_overrides(rules, {"max_prisoners": prisoners, "min_prisoners": prisoners},
                               "the test")
    paths = []
    for i in range(first, first + count):
        data = bot_script("classic", rules, "Wendy", NAMES[:prisoners], mix=mix, seed=i)
        path = folder / f"game-{i}.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


def replayed_outcome(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    outcome: str = json.loads(out)["outcome"]
    return outcome


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = run(capsys, "playtests", "--json", "--games", "40", "--jobs", "1", *argv)
    assert status == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def outcomes_of(data: dict[str, Any]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for g in data["groups"]:
        for k, o in g["real"]["outcomes"].items():
            counts[k] += o["count"]
    return +counts


def finished_session(folder: Path, name: str, seed: int, *, rehearsal: bool = False) -> None:
    """A session file holding a whole game played by bots, through Session.submit."""
    script = bot_script("classic", load_scenario("classic"), "Wendy", NAMES[:4], seed=seed)
    session = demo_session(folder, name, NAMES[:4])
    try:
        for i, command in enumerate(script["commands"]):
            if command["do"] == "choose" and i == 1:  # a slip, taken back: no part of the game
                slip = {**command, "choice": "rest" if command["choice"] == "work" else "work"}
                assert not hasattr(session.submit(slip), "reason")
                session.undo()
            result = session.submit(command)
            assert not hasattr(result, "reason"), result
        if rehearsal:
            session.set("rehearsal", True)
    finally:
        session.close()


# ---- importing --------------------------------------------------------------------------------


def test_imported_scripts_give_the_outcomes_replay_gives_in_any_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [EXAMPLES / "pb-escape.json", EXAMPLES / "pb-parole.json",
             *scripts(tmp_path / "scripts", 6)]
    expected = Counter(replayed_outcome(capsys, p) for p in paths)
    assert len(expected) >= 3  # the set is varied enough to tell outcomes apart

    seen = []
    for order, folder in ((paths, tmp_path / "a"), (list(reversed(paths)), tmp_path / "b")):
        monkeypatch.setenv("COMPANION_DATA_DIR", str(folder))
        random.Random(len(seen)).shuffle(order)
        for p in order:
            assert run(capsys, "playtests", "import", str(p))[0] == 0
        data = report(capsys)
        assert outcomes_of(data) == expected
        assert sum(g["real"]["games"] for g in data["groups"]) == len(paths)
        seen.append(data)
    assert seen[0] == seen[1]

    # Importing one again changes nothing: no new file, the same report.
    before = sorted(os.listdir(tmp_path / "b" / "notebook"))
    status, out, _ = run(capsys, "playtests", "import", str(paths[2]))
    assert status == 0 and "already in the notebook" in out
    assert sorted(os.listdir(tmp_path / "b" / "notebook")) == before
    assert report(capsys) == seen[1]


def test_a_session_file_counts_once_however_it_comes_in(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    laptop = tmp_path / "other-laptop"
    finished_session(laptop, "friday", seed=3)
    mine = tmp_path / "mine"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(mine))
    status, out, _ = run(capsys, "playtests", "import", str(laptop / "friday.sqlite"))
    assert status == 0 and out.startswith("Imported 1 game")
    # The other laptop's folder read too: still one game.
    data = report(capsys, "--data-dir", str(laptop))
    assert sum(g["real"]["games"] for g in data["groups"]) == 1
    # Its anonymous export, brought back in, is the same game.
    export = tmp_path / "team.json"
    assert run(capsys, "playtests", "export", "--anonymous", str(export))[0] == 0
    status, out, _ = run(capsys, "playtests", "import", str(export))
    assert status == 0 and "already in the notebook" in out


def test_bad_files_are_refused_in_one_sentence_and_change_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data_dir))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text((EXAMPLES / "pb-first-day.json").read_text(encoding="utf-8"))
    malformed = tmp_path / "malformed.json"
    malformed.write_text(json.dumps({"scenario": "classic", "warden": "W",
                                     "prisoners": ["A", "B", "C", "D"],
                                     "commands": [{"do": "fly"}]}))
    for path, words in (
        (tmp_path / "missing.json", "There is no file"),
        (broken, "not valid JSON"),
        (unfinished, "not finished"),
        (malformed, "Command 0"),
        (tmp_path, "is a folder"),
    ):
        status, out, err = run(capsys, "playtests", "import", str(path))
        assert status == 2 and out == ""
        assert words in err and "Nothing was imported" in err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (data_dir / "notebook").exists()


# ---- the report -------------------------------------------------------------------------------


def test_no_finished_game_is_said_in_one_sentence_with_how_to_get_some(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    demo_session(Path(os.environ["COMPANION_DATA_DIR"]), "tonight").close()  # not finished
    status, out, err = run(capsys, "playtests")
    assert status == 1 and out == ""
    assert err.startswith("companion: No finished prison break yet in ")
    assert "companion playtests import FILE" in err and len(err.strip().splitlines()) == 1


def test_rehearsals_are_left_out_unless_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = Path(os.environ["COMPANION_DATA_DIR"])
    finished_session(folder, "rehearsal", seed=1, rehearsal=True)
    status, _, err = run(capsys, "playtests")
    assert status == 1 and "1 rehearsal with bots left out" in err
    finished_session(folder, "thursday", seed=2)
    data = report(capsys)
    assert data["rehearsals_left_out"] == 1
    assert sum(g["real"]["games"] for g in data["groups"]) == 1
    data = report(capsys, "--include-rehearsals")
    assert data["rehearsals_left_out"] == 0 and data["rehearsals_counted"] == 1
    assert sum(g["real"]["games"] for g in data["groups"]) == 2


def test_text_csv_and_markdown_reports(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for p in scripts(tmp_path / "s", 4, mix="cutthroat"):
        assert run(capsys, "playtests", "import", str(p))[0] == 0
    status, out, _ = run(capsys, "playtests", "--games", "40", "--jobs", "1")
    assert status == 0
    assert "classic, 4 prisoners (6 nights to escape, 3 parole tokens to win): 4 games" in out
    assert "real tables" in out and "bots (40 games)" in out and "escape" in out

    status, out, _ = run(capsys, "playtests", "--csv", "--games", "40", "--jobs", "1")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["side"] for r in rows] == ["real", "bots"]
    assert rows[0]["games"] == "4" and rows[1]["games"] == "40"
    assert 0 <= float(rows[0]["escape_low"]) <= float(rows[0]["escape"]) <= 1

    folder = tmp_path / "design"
    status, out, _ = run(capsys, "playtests", "--markdown", str(folder), "--games", "40",
                         "--jobs", "1")
    assert status == 0 and "playtests.md" in out
    text = (folder / "playtests.md").read_text(encoding="utf-8")
    charts = sorted((folder / "charts").glob("*.svg"))
    assert len(charts) == 2
    for chart in charts:
        assert f"(charts/{chart.name})" in text
        root = ET.parse(chart).getroot()
        assert root.tag.endswith("svg") and len(root) > 10


# ---- export and fit ----------------------------------------------------------------------------


def test_an_anonymous_export_holds_no_player_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = Path(os.environ["COMPANION_DATA_DIR"])
    finished_session(folder, "Zoë-and-friends", seed=5)
    for p in scripts(tmp_path / "s", 2, prisoners=5, first=7):
        assert run(capsys, "playtests", "import", str(p))[0] == 0
    path = tmp_path / "share.json"
    status, out, _ = run(capsys, "playtests", "export", "--anonymous", str(path))
    assert status == 0 and "Wrote 3 games" in out
    text = path.read_text(encoding="utf-8").casefold()
    for name in [*NAMES, "Wendy"]:
        assert name.casefold() not in text
    assert "seat 1" in text
    # Without --anonymous the names are kept (so the test above can fail).
    run(capsys, "playtests", "export", str(path))
    assert "zoë" in path.read_text(encoding="utf-8").casefold()


def test_the_fitted_mix_reproduces_the_work_rate_it_was_fitted_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from companion.sim.runner import Pool, run_games, sim_rules

    for p in scripts(tmp_path / "s", 12, mix="loyal"):
        assert run(capsys, "playtests", "import", str(p))[0] == 0
    status, out, _ = run(capsys, "simulate", "--mix", "table", "--games", "10")
    assert status == 2  # nothing learned yet

    status, out, _ = run(capsys, "playtests", "fit")
    assert status == 0 and "From 12 finished games" in out and "--mix table" in out
    data = report(capsys, "--mix", "table")
    real = data["groups"][0]["real"]["rates"]["work"]
    rules, _ = sim_rules(load_scenario("classic"), 4)
    with Pool(1) as pool:
        tally = run_games(pool, rules, 4, "table", 9, 300)
    m = tally.measures
    assert real["low"] <= m.work / m.prisoner_nights <= real["high"]
    # The standard bots work at another rate: the check can fail.
    with Pool(1) as pool:
        other = run_games(pool, rules, 4, "standard", 9, 300).measures
    assert not real["low"] <= other.work / other.prisoner_nights <= real["high"]

    status, out, _ = run(capsys, "simulate", "--mix", "table", "--games", "50", "--jobs", "1")
    assert status == 0 and "Mix table (learned from 12 recorded games): prisoners work" in out


def test_the_export_tells_each_games_epilogue_in_its_sessions_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = Path(os.environ["COMPANION_DATA_DIR"])
    finished_session(folder, "soir", seed=5)
    from companion.session.session import Session

    session = Session.open(folder / "soir.sqlite")
    session.set("lang", "fr")
    session.close()
    path = tmp_path / "share.json"
    assert run(capsys, "playtests", "export", str(path))[0] == 0
    [game] = json.loads(path.read_text(encoding="utf-8"))["playtests"]
    assert game["language"] == "fr"
    heads = [step["head"] for step in game["epilogue"]]
    assert heads[0] == "Nuit 1" and len(heads) >= 2
    assert all(step["lines"] for step in game["epilogue"])
    said = " ".join(line for step in game["epilogue"] for line in step["lines"])
    assert "Victoire\u00a0:" in said and "worked" not in said
    # An anonymous export tells it with the seats; the language comes back with an import.
    assert run(capsys, "playtests", "export", "--anonymous", str(path))[0] == 0
    [anonymous] = json.loads(path.read_text(encoding="utf-8"))["playtests"]
    told = json.dumps(anonymous["epilogue"], ensure_ascii=False)
    assert "Seat 1" in told or "seat 1" in told
    assert not [n for n in NAMES if n in told]
    other = tmp_path / "other"
    assert run(capsys, "--data-dir", str(other), "playtests", "import", str(path))[0] == 0
    again = tmp_path / "again.json"
    assert run(capsys, "--data-dir", str(other), "playtests", "export", str(again))[0] == 0
    [back] = json.loads(again.read_text(encoding="utf-8"))["playtests"]
    assert back["language"] == "fr" and back["epilogue"] == anonymous["epilogue"]
