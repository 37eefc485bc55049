"""Shared helpers for the dilemma tests: a tournament in memory, driven by plain commands."""

from __future__ import annotations

import tomllib
from typing import Any

from companion.rules.core.game import History, Refused
from companion.rules.dilemma.engine import DILEMMA, initial_state
from tests.conftest import ROOT


def scenario(**overrides: Any) -> dict[str, Any]:
    with (ROOT / "scenarios" / "dilemma.toml").open("rb") as handle:
        data = tomllib.load(handle)
    data.update(overrides)
    return data


def tournament(names: list[str], **overrides: Any) -> History[Any, Any, Any]:
    h: History[Any, Any, Any] = History(DILEMMA, initial_state({"rules": scenario(**overrides)}))
    for i, name in enumerate(names):
        ok(h, {"do": "join", "pid": f"p{i}", "name": name})
    return h


def ok(h: History[Any, Any, Any], command: dict[str, Any]) -> Any:
    entry = h.submit(DILEMMA.parse_command(command))
    assert not isinstance(entry, Refused), entry
    return entry


def refused(h: History[Any, Any, Any], command: dict[str, Any]) -> str:
    entry = h.submit(DILEMMA.parse_command(command))
    assert isinstance(entry, Refused), entry
    return entry.reason
