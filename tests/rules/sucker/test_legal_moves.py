"""``legal_moves``: the rules core's own list of what the referee may record now (the game
master's phone shows a button for each), checked against ``decide`` itself: every command it
lists is accepted, and every command it leaves out is refused."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.core.game import Refused
from companion.rules.sucker.commands import command_to_dict, parse_command
from companion.rules.sucker.engine import decide, evolve, initial_state, legal_moves
from companion.rules.sucker.state import SuckerState
from tests.conftest import examples
from tests.rules.sucker.test_properties import setups


def _key(command: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, str(v)) for k, v in command.items()))


def every_command(state: SuckerState) -> list[dict[str, Any]]:
    """Every command over this table's players, colors and piles, a stranger, a foreign
    color and a pile that is not there: the whole space ``legal_moves`` is a part of."""
    names = [*state.names, "Zed"]
    colors = [*state.colors, "pink"]
    piles: list[Any] = [*state.piles, "new", state.next_pile + 3]
    out: list[dict[str, Any]] = []
    for who in names:
        out.append({"do": "next", "player": who})
        out.append({"do": "refuse", "player": who})
        for color in colors:
            out += [{"do": "play", "player": who, "color": color, "pile": p} for p in piles]
            out.append({"do": "kill", "player": who, "color": color})
            out.append({"do": "kill_prisoner", "player": who, "color": color})
            out += [{"do": "transfer", "player": who, "color": color, "to": to} for to in names]
    return out


def _accepted(state: SuckerState) -> set[tuple[tuple[str, Any], ...]]:
    return {
        _key(c) for c in every_command(state)
        if not isinstance(decide(state, parse_command(c)), Refused)
    }


def _walk(setup: dict[str, Any], seed: int, steps: int) -> list[SuckerState]:
    rng = random.Random(seed)
    state = initial_state(setup)
    seen = [state]
    for _ in range(steps):
        moves = legal_moves(state)
        if not moves:
            break
        events = decide(state, rng.choice(moves))
        assert not isinstance(events, Refused)
        for event in events:
            state = evolve(state, event)
        seen.append(state)
    return seen


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 2**16))
def test_legal_moves_are_exactly_what_decide_accepts(setup: dict[str, Any], seed: int) -> None:
    for state in _walk(setup, seed, 60):
        listed = [_key(command_to_dict(c)) for c in legal_moves(state)]
        assert len(listed) == len(set(listed))  # each move once
        assert set(listed) == _accepted(state)


def test_a_game_played_from_legal_moves_alone_ends_with_nothing_legal() -> None:
    setup = {"players": [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"},
                         {"name": "Cat", "color": "green"}],
             "chips_per_player": 2, "first": "Ann"}
    for seed in range(20):
        last = _walk(setup, seed, 500)[-1]
        assert last.over and last.winner is not None
        assert legal_moves(last) == []


def test_the_awaited_move_comes_first_then_the_prisoners() -> None:
    state = initial_state({"players": [{"name": "Ann", "color": "red"},
                                       {"name": "Bo", "color": "blue"}],
                           "chips_per_player": 1, "first": "Ann"})
    assert [command_to_dict(c) for c in legal_moves(state)] == [
        {"do": "play", "player": "Ann", "color": "red", "pile": "new"},
    ]
