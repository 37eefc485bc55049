"""The pieces every engine is built from: refusals, Engine as a Game, the scenario describer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from companion.rules.core.game import Engine, Game, History, Refusal, Refused, refusing
from companion.rules.core.parsing import StrictModel
from companion.rules.core.scenario import ScenarioError, validated


def _count_up(state: int, command: int) -> list[int]:
    if command < 1:
        raise Refusal("Count up by at least 1.")
    return [command]


def _counter() -> Engine[int, int, int]:
    def decide(state: int, command: int) -> list[int] | Refused:
        return refusing(_count_up, state, command)

    def parse(data: Mapping[str, Any]) -> int:
        return int(data["by"])

    return Engine(
        name="counter",
        parse_command=parse,
        command_to_dict=lambda command: {"by": command},
        decide=decide,
        evolve=lambda state, event: state + event,
        event_to_dict=lambda event: {"by": event},
        event_from_dict=lambda data: int(data["by"]),
    )


def test_refusing_turns_a_refusal_into_refused() -> None:
    assert refusing(_count_up, 0, 2) == [2]
    assert refusing(_count_up, 0, 0) == Refused("Count up by at least 1.")


def test_an_engine_plays_as_a_game_in_a_history() -> None:
    game: Game[int, int, int] = _counter()
    history = History(game, 0)
    history.submit(game.parse_command({"by": 2}))
    assert history.submit(0) == Refused("Count up by at least 1.")
    history.submit(3)
    assert history.state == 5
    history.record_undo()
    assert history.state == 2
    assert game.name == "counter"


class _Rules(StrictModel):
    rounds: int


def test_validated_names_where_a_scenario_is_wrong() -> None:
    assert validated(_Rules, {"rounds": 3}, "here").rounds == 3
    with pytest.raises(ScenarioError, match=r"^here sets 'rounds' to '3', which is not a whole"):
        validated(_Rules, {"rounds": "3"}, "here")
    with pytest.raises(ScenarioError, match=r"^here has an unknown key 'round'"):
        validated(_Rules, {"rounds": 3, "round": 1}, "here")
