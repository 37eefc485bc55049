"""Scenario files with every kind of mistake: ``companion check-scenario FILE`` says one clear
sentence (exit 2) or accepts the file (exit 0), never a traceback; a file it accepts also
starts a session when it is picked by name.

The files are the shipped ones (prison break and dilemma) broken at the level of their keys
(missing, unknown, wrong type, out of range, nested, NaN and infinities, dates) and at the
level of their bytes (cut short, bytes flipped, invalid UTF-8, a BOM, NUL).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from tests.conftest import ROOT, ROSTER, examples

SHIPPED = {
    name: tomllib.loads((ROOT / "scenarios" / f"{name}.toml").read_text("utf-8"))
    for name in ("classic", "dilemma", "balanced-8")
}
FUZZ = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def to_toml(data: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(key)} = {toml_value(value)}\n" for key, value in data.items())


scalars = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.sampled_from([0, -1, 1, 2, 3, 4, 60, 61, 200, 201, 10**6, 2**63 - 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=30),
    st.dates(),
    st.datetimes(),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(min_size=1, max_size=8), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def broken_mappings(draw: st.DrawFn) -> dict[str, Any]:
    data = dict(SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))])
    for _ in range(draw(st.integers(1, 4))):
        keys = sorted(data) or ["rounds"]
        kind = draw(st.sampled_from(["drop", "retype", "add", "nest", "game"]))
        key = draw(st.sampled_from(keys))
        if kind == "drop":
            data.pop(key, None)
        elif kind == "retype":
            data[key] = draw(values)
        elif kind == "add":
            data[draw(st.text(min_size=1, max_size=12))] = draw(values)
        elif kind == "nest" and isinstance(data.get("sentences"), dict):
            sentences = dict(data["sentences"])
            sentences[draw(st.sampled_from([*sentences, "extra"]))] = draw(values)
            data["sentences"] = sentences
        else:
            data["game"] = draw(st.one_of(st.sampled_from(["prison-break", "dilemma", "sucker"]),
                                          values))
    return data


@st.composite
def broken_bytes(draw: st.DrawFn) -> bytes:
    name = draw(st.sampled_from(sorted(SHIPPED)))
    raw = bytearray((ROOT / "scenarios" / f"{name}.toml").read_bytes())
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["cut", "flip", "insert", "bom", "nul"]))
        at = draw(st.integers(0, max(0, len(raw) - 1)))
        if kind == "cut":
            del raw[at:]
        elif kind == "flip" and raw:
            raw[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            raw[at:at] = draw(st.sampled_from(
                [b"\xff", b"\xc3", b"=", b"[", b"]]", b'"', b"\n[sentences]\n", b"\\u", b"'''"]
            ))
        elif kind == "bom":
            raw[0:0] = b"\xef\xbb\xbf"
        else:
            raw[at:at] = b"\x00"
    return bytes(raw)


def check(path: Path, capsys: pytest.CaptureFixture[str]) -> int:
    status = main(["check-scenario", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    if status == 0:
        assert out.strip().endswith(")."), out
        assert err == ""
    else:
        assert status == 2 and out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("companion: ") and lines[0].endswith("."), lines[0]
    return status


@FUZZ
@given(data=broken_mappings())
def test_scenario_files_with_wrong_keys_and_values(
    data: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(to_toml(data), encoding="utf-8")
    check(path, capsys)


@FUZZ
@given(raw=broken_bytes())
def test_scenario_files_with_broken_bytes(
    raw: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.toml"
    path.write_bytes(raw)
    check(path, capsys)


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=broken_mappings())
def test_a_scenario_picked_by_name_refuses_in_one_sentence_too(
    data: dict[str, Any], tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """``companion new`` reads the same files by name: a broken one is one sentence there."""
    from companion.errors import UserError
    from companion.session.prison.create import create_prison_session

    folder = tmp_path_factory.mktemp("scenarios")
    (folder / "mine.toml").write_text(to_toml(data), encoding="utf-8")
    monkeypatch.setenv("COMPANION_SCENARIOS", str(folder))
    try:
        session = create_prison_session(
            folder, "s", "mine", "Wendy", ROSTER
        )
    except UserError as error:
        text = str(error)
        assert "\n" not in text and "Traceback" not in text and text.endswith("."), text
    else:
        session.close()
        assert data.get("game", "prison-break") == "prison-break"


def test_the_shipped_scenarios_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in SHIPPED:
        path = tmp_path / f"{name}.toml"
        path.write_text(to_toml(SHIPPED[name]), encoding="utf-8")
        assert check(path, capsys) == 0  # the writer above makes files the checker reads


def test_companion_scenarios_names_the_data_folder_of_ones_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With COMPANION_DATA_DIR set, your scenarios are in it, and the listing says so."""
    monkeypatch.delenv("COMPANION_SCENARIOS")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "night"))
    (tmp_path / "night" / "scenarios").mkdir(parents=True)
    classic = (ROOT / "scenarios" / "classic.toml").read_text(encoding="utf-8")
    (tmp_path / "night" / "scenarios" / "mine.toml").write_text(classic, encoding="utf-8")
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert f"Your scenarios (in {tmp_path / 'night' / 'scenarios'}):" in out
    assert "  mine " in out
