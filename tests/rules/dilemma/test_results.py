"""Results to take home: the CSV and JSON rows, the Markdown summary, and the command."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.rules.dilemma.leaderboard import leaderboard
from companion.rules.dilemma.results import md, rows
from companion.session.session import Session
from tests.dilemma_helpers import ok, scenario, tournament


def _five_rounds(h, late: bool = True) -> None:  # type: ignore[no-untyped-def]
    for n in range(5):
        ok(h, {"do": "start_round", "seed": n})
        if late and n == 2:
            ok(h, {"do": "join", "pid": "late", "name": "=Late"})
        for i, pid in enumerate(h.state.waiting()):
            ok(h, {"do": "choose", "pid": pid, "choice": "betray" if (i + n) % 3 else "silent"})


def test_the_rows_add_up_to_the_leaderboard_and_label_the_house() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee", "Eve"], rounds=5)
    _five_rounds(h)
    table = rows(h.state)
    totals: dict[str, int] = {}
    for row in table:
        if not row["house"]:
            totals[row["player"]] = totals.get(row["player"], 0) + row["months"]
    assert totals == {row["name"]: row["months"] for row in leaderboard(h.state)}
    assert all(r["partner_house"] == (r["partner"] == "House (Tit for Tat)") for r in table)
    assert {r["player"] for r in table if r["house"]} == {"House (Tit for Tat)"}
    assert [r["choice"] for r in table if r["player"] == "=Late"][:2] == ["missed", "missed"]
    assert {r["round"] for r in table} == {1, 2, 3, 4, 5}


@pytest.fixture
def played(tmp_path: Path) -> Path:
    s = Session.create(tmp_path / "hall.sqlite", "dilemma", {"rules": scenario(rounds=5)})
    for i, name in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    for n in range(5):
        s.submit({"do": "start_round", "seed": n})
        for i, pid in enumerate(s.state.waiting()):
            s.submit({"do": "choose", "pid": pid, "choice": "betray" if i % 2 else "silent"})
    totals = {row["name"]: row["months"] for row in leaderboard(s.state)}
    s.close()
    (tmp_path / "totals.json").write_text(json.dumps(totals))
    return tmp_path


def test_the_csv_months_add_up_to_the_leaderboards_totals(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = played / "out.csv"
    assert main(["--data-dir", str(played), "dilemma", "hall", "--export", str(out)]) == 0
    assert "Wrote 30 rows" in capsys.readouterr().out  # 5 rounds x (5 people + the house)
    with out.open(encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0]) == [
        "round",
        "player",
        "partner",
        "choice",
        "months",
        "house",
        "partner_house",
    ]
    totals: dict[str, int] = {}
    for row in table:
        if row["house"] == "False":
            totals[row["player"]] = totals.get(row["player"], 0) + int(row["months"])
    assert totals == json.loads((played / "totals.json").read_text())
    house = [row for row in table if row["house"] == "True"]
    assert len(house) == 5 and all(row["player"] == "House (Tit for Tat)" for row in house)
    summary = (played / "out.md").read_text(encoding="utf-8")
    assert "## Leaderboard" in summary and "House (Tit for Tat), the house player" in summary


def test_the_json_export_and_its_errors(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = played / "out.json"
    assert main(["--data-dir", str(played), "dilemma", "hall", "--export", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len(data["rows"]) == 30 and data["house"]["rounds"] == 5
    assert {row["strategy"] for row in data["debrief"]["strategies"]} >= {"tit_for_tat"}
    capsys.readouterr()
    code = main(["--data-dir", str(played), "dilemma", "hall", "--export", str(played / "x.txt")])
    err = capsys.readouterr().err
    assert code != 0 and "must end in .csv or .json" in err and "Traceback" not in err
    code = main(["--data-dir", str(played), "dilemma", "nope", "--export", str(out)])
    assert code != 0 and "no session called 'nope'" in capsys.readouterr().err
    assert not (played / "nope.sqlite").exists()  # exporting creates nothing


def test_a_name_is_one_markdown_table_cell() -> None:
    assert md("C|y") == "C\\|y"
