"""Helpers to build prison-break games in tests."""

from __future__ import annotations

from typing import Any

from companion.rules.core.game import History, Refused
from companion.rules.prison.commands import parse_command
from companion.rules.prison.engine import PRISON_BREAK, new_game
from companion.rules.prison.scenario import PrisonRules
from tests.conftest import ROSTER

CLASSIC = {
    "min_prisoners": 4,
    "max_prisoners": 4,
    "nights_to_escape": 6,
    "parole_tokens_to_win": 3,
    "parole_tokens_per_day": 1,
    "searches_per_day": 1,
    "shivs_per_prisoner": 1,
    "accusations_per_day": 1,
}


def rules(**changes: Any) -> PrisonRules:
    data = {**CLASSIC, **changes}
    if "max_prisoners" not in changes:
        data["max_prisoners"] = max(data["max_prisoners"], data["min_prisoners"])
    return PrisonRules.model_validate(data)


def game(prisoners: list[str] | None = None, **changes: Any) -> History:
    names = prisoners or ROSTER
    r = rules(min_prisoners=min(4, len(names)), max_prisoners=max(4, len(names)), **changes)
    return History(PRISON_BREAK, new_game(r, "Wendy", names))


def do(history: History, **command: Any) -> Any:
    """Submit a command given as keywords; returns the entry, or the Refused marker."""
    if command.get("do") == "undo":
        return history.record_undo()
    return history.submit(parse_command(command))


def ok(history: History, **command: Any) -> Any:
    result = do(history, **command)
    assert not isinstance(result, Refused), result.reason
    return result


def refused(history: History, **command: Any) -> str:
    before = history.state
    result = do(history, **command)
    assert isinstance(result, Refused), f"{command} was accepted"
    assert history.state is before
    return result.reason
