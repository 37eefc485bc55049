"""Property-based tests of So Long Sucker: random streams of legal and illegal commands."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.core.game import History, Refused
from companion.rules.sucker.engine import SO_LONG_SUCKER, initial_state
from companion.rules.sucker.events import ChipPlayed
from companion.rules.sucker.state import SuckerState
from companion.rules.sucker.views import legal
from tests.conftest import examples

COLORS = ["red", "blue", "green", "yellow", "white", "orange"]
NAMES = ["Ann", "Bo", "Cat", "Dan", "Eve", "Fay"]


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(2, 6))
    players = [{"name": NAMES[i], "color": COLORS[i]} for i in range(n)]
    chips = draw(st.integers(1, 4))
    first = draw(st.sampled_from(NAMES[:n]))
    return {"players": players, "chips_per_player": chips, "first": first}


def candidates(state: SuckerState) -> list[dict[str, Any]]:
    """Commands likely to be legal now (plus the prisoner moves open to anyone)."""
    view = legal(state)
    who = view["player"]
    out: list[dict[str, Any]] = []
    if view["what"] == "play":
        out += [{"do": "play", "player": who, "color": c, "pile": p}
                for c in view["colors"] for p in view["piles"]]
    elif view["what"] == "next":
        out += [{"do": "next", "player": p} for p in view["players"]]
    elif view["what"] == "kill":
        out += [{"do": "kill", "player": who, "color": c} for c in view["colors"]]
    elif view["what"] == "rescue":
        out += [{"do": "refuse", "player": p} for p in view["pending"]]
    for name in state.live():
        for color in state.prisoners_of(name):
            out.append({"do": "kill_prisoner", "player": name, "color": color})
            out += [{"do": "transfer", "player": name, "color": color, "to": to}
                    for to in state.live() if to != name]
    return out


def noise(state: SuckerState) -> st.SearchStrategy[dict[str, Any]]:
    names = st.sampled_from(list(state.names) + ["Zed"])
    colors = st.sampled_from(list(state.colors) + ["pink"])
    return st.one_of(
        st.builds(lambda p, c, n: {"do": "play", "player": p, "color": c, "pile": n},
                  names, colors, st.one_of(st.just("new"), st.integers(-1, 9))),
        st.builds(lambda p: {"do": "next", "player": p}, names),
        st.builds(lambda p, c: {"do": "kill", "player": p, "color": c}, names, colors),
        st.builds(lambda p: {"do": "refuse", "player": p}, names),
        st.builds(lambda p, c, t: {"do": "transfer", "player": p, "color": c, "to": t},
                  names, colors, names),
        st.builds(lambda p, c: {"do": "kill_prisoner", "player": p, "color": c}, names, colors),
    )


def draw_command(data: st.DataObject, state: SuckerState) -> dict[str, Any]:
    kind = data.draw(st.sampled_from(["legal"] * 8 + ["noise", "undo"]))
    options = candidates(state)
    if kind == "legal" and options:
        return data.draw(st.sampled_from(options))
    if kind == "undo":
        return {"do": "undo"}
    return data.draw(noise(state))


def check_invariants(before: SuckerState, after: SuckerState, events: Any) -> None:
    total = len(after.seats) * after.chips_per_player
    assert after.chips_in_play() + sum(after.dead.values()) == total
    assert all(k > 0 for h in after.holdings.values() for k in h.values())
    assert all(after.chips_held(n) == 0 for n in after.defeated)
    live = after.live()
    assert after.over == (len(live) == 1)
    assert (after.winner == live[0]) if after.over else after.winner is None
    if not after.over:
        assert after.awaiting.player in live
    for event in events:
        if isinstance(event, ChipPlayed):
            assert event.player not in before.defeated
            assert event.player == before.awaiting.player


def run(h: History, data: st.DataObject, steps: int, log: list[dict[str, Any]]) -> None:
    for _ in range(steps):
        before = h.state
        command = draw_command(data, before)
        log.append(command)
        if command["do"] == "undo":
            h.record_undo()
            continue
        outcome = h.submit(SO_LONG_SUCKER.parse_command(command))
        if isinstance(outcome, Refused):
            assert h.state == before
            continue
        check_invariants(before, h.state, outcome.events)
        assert set(before.defeated) <= set(h.state.defeated)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_random_games_keep_every_invariant(setup: dict[str, Any], data: st.DataObject) -> None:
    h = History(SO_LONG_SUCKER, initial_state(setup))
    run(h, data, data.draw(st.integers(1, 80)), [])


@settings(max_examples=examples(60), deadline=None)
@given(setup=setups(), data=st.data())
def test_games_are_played_to_a_single_winner(setup: dict[str, Any], data: st.DataObject) -> None:
    """Only legal moves, no undo: every game ends with exactly one live player."""
    h = History(SO_LONG_SUCKER, initial_state(setup))
    for _ in range(2000):
        if h.state.over:
            break
        before = h.state
        command = data.draw(st.sampled_from(candidates(before)))
        outcome = h.submit(SO_LONG_SUCKER.parse_command(command))
        assert not isinstance(outcome, Refused), (command, outcome)
        check_invariants(before, h.state, outcome.events)
    assert h.state.over and len(h.state.live()) == 1
