"""Property tests of the dilemma tournament: pairing, sealing, undo and the log."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.dilemma.events import RoundStarted
from companion.rules.dilemma.pairing import draw, key
from companion.rules.dilemma.state import DilemmaState
from companion.rules.dilemma.views import board, gm, player
from tests.conftest import examples
from tests.dilemma_helpers import ok, tournament

NAMES = [f"P{i}" for i in range(20)]


# ---- a stable roster: a full round robin ------------------------------------------------


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(2, 16), st.integers(0, 2**32))
def test_a_stable_roster_meets_everyone_once_before_any_repeat(n: int, seed: int) -> None:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    cycle = n - 1 if n % 2 == 0 else n
    met: dict[frozenset[str], int] = {}
    sat: dict[str, int] = {}
    plan, step = None, 0
    for round_no in range(2 * cycle):
        pairing = draw(players, met, sat, plan, step, random.Random(rng.random()))
        plan, step = pairing.plan, pairing.plan_step
        seated = [p for pair in pairing.pairs for p in pair] + list(pairing.sitting_out)
        assert sorted(seated) == sorted(players)
        assert len(pairing.sitting_out) == n % 2
        if pairing.sitting_out:  # the one out is always among those who sat out least
            assert sat.get(pairing.sitting_out[0], 0) == min(sat.get(p, 0) for p in players)
        for a, b in pairing.pairs:
            met[key(a, b)] = met.get(key(a, b), 0) + 1
            assert met[key(a, b)] == round_no // cycle + 1, "a repeat before everyone met"
        for p in pairing.sitting_out:
            sat[p] = sat.get(p, 0) + 1
        if (round_no + 1) % cycle == 0:  # a cycle is done: everyone met everyone once more
            done = (round_no + 1) // cycle
            assert all(met.get(key(a, b)) == done for a, b in combinations(players, 2))
            if n % 2:
                assert all(sat[p] == done for p in players)


# ---- any roster: joins and leaves between rounds ----------------------------------------


def _matchings(players: list[str]) -> list[list[tuple[str, str]]]:
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    out = []
    for i, q in enumerate(rest):
        for m in _matchings(rest[:i] + rest[i + 1 :]):
            out.append([(first, q), *m])
    return out


def _best(
    players: list[str], met: dict[frozenset[str], int], sat: dict[str, int]
) -> tuple[int, int]:
    """Brute force: the least repeats (above the level), then the least rounds out."""
    level = min(met.get(key(a, b), 0) for a, b in combinations(players, 2))
    options = []
    sitters = players if len(players) % 2 else [None]
    for sitter in sitters:
        rest = [p for p in players if p != sitter]
        for m in _matchings(rest):
            cost = sum(met.get(key(a, b), 0) - level for a, b in m)
            options.append((cost, sat.get(sitter, 0) if sitter else 0))
    return min(options)


roster_moves = st.lists(
    st.tuples(st.sampled_from(["join", "leave", "back", "round"]), st.integers(0, 100)),
    min_size=1,
    max_size=14,
)


@settings(max_examples=examples(40), deadline=None)
@given(roster_moves)
def test_repeats_only_when_unavoidable_and_only_present_players_play(moves: list) -> None:  # type: ignore[type-arg]
    h = tournament(NAMES[:4], rounds=100)
    joined = 4
    for move, n in moves:
        s: DilemmaState = h.state
        present = s.present()
        gone = [p.pid for p in s.players if not p.present]
        if move == "join" and joined < 9:
            ok(h, {"do": "join", "pid": f"p{joined}", "name": NAMES[joined]})
            joined += 1
        elif move == "leave" and len(present) > 2:
            ok(h, {"do": "remove", "pid": present[n % len(present)]})
        elif move == "back" and gone:
            ok(h, {"do": "bring_back", "pid": gone[n % len(gone)]})
        elif move == "round":
            met, sat = s.met(), s.sat_out()
            present = present + ["~house1"] * (len(present) % 2)  # the house fills the seat
            entry = ok(h, {"do": "start_round", "seed": n})
            (started,) = entry.events
            assert isinstance(started, RoundStarted)
            seated = [p for pair in started.pairs for p in pair] + list(started.sitting_out)
            assert sorted(seated) == sorted(present)
            assert started.sitting_out == (), "nobody sits out: the house takes the empty seat"
            level = min(met.get(key(a, b), 0) for a, b in combinations(present, 2))
            cost = sum(met.get(key(a, b), 0) - level for a, b in started.pairs)
            best_cost, best_sat = _best(present, met, sat)
            assert cost == best_cost, "a repeat although a pairing without one existed"
            if started.plan is None and started.sitting_out:
                assert sat.get(started.sitting_out[0], 0) == best_sat, "unfair sitting out"
            ok(h, {"do": "close_round"})


# ---- sealing: the views and the streams tests/rules/test_conformance.py checks them with ---


def _views(state: DilemmaState) -> dict[str, Any]:
    views: dict[str, Any] = {"board": board(state), "gm": gm(state)}
    for p in state.players:
        views[f"player:{p.pid}"] = player(state, p.pid)
    return views


def _flip(state: DilemmaState, pid: str) -> DilemmaState:
    r = state.current
    assert r is not None
    flipped = {**r.choices, pid: "silent" if r.choices[pid] == "betray" else "betray"}
    return replace(state, rounds=(*state.rounds[:-1], replace(r, choices=flipped)))


commands = st.lists(
    st.tuples(
        st.sampled_from(["choose", "choose", "choose", "start", "close", "remove", "join", "undo"]),
        st.integers(0, 1000),
        st.sampled_from(["silent", "betray"]),
    ),
    max_size=30,
)


def _steer(state: DilemmaState, move: str, n: int, choice: str, joined: int) -> dict[str, Any]:
    present = state.present() or ["p0"]
    if move == "choose":
        return {"do": "choose", "pid": present[n % len(present)], "choice": choice}
    if move == "start":
        return {"do": "start_round", "seed": n}
    if move == "close":
        return {"do": "close_round"}
    if move == "remove":
        return {"do": "remove", "pid": present[n % len(present)]}
    if move == "join":
        return {"do": "join", "pid": f"p{joined}", "name": NAMES[joined % len(NAMES)]}
    return {"do": "undo"}


def test_a_hall_of_300_after_departures_meets_nobody_twice() -> None:
    """Past the exact search's size the matching is greedy and repaired: still no repeats
    where a pairing without one is easy to find."""
    h = tournament([f"Student {i}" for i in range(300)], rounds=8)
    for n in range(6):
        if n == 2:
            for i in range(7):
                ok(h, {"do": "remove", "pid": f"p{i}"})
        ok(h, {"do": "start_round", "seed": n})
        assert h.state.current.sitting_out == ()
        ok(h, {"do": "close_round"})
    assert max(h.state.met().values()) == 1


@settings(max_examples=examples(6), deadline=None)
@given(st.integers(0, 2**32))
def test_a_hall_of_1000_mid_cycle_meets_nobody_twice_and_everyone_plays(seed: int) -> None:
    """1,000 players who already met nine partners each, drawn afresh (no plan): every player
    is in exactly one pair, and no pair has met before."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(1000)]
    met: dict[frozenset[str], int] = {}
    for _ in range(9):
        order = players[:]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            met[key(a, b)] = met.get(key(a, b), 0) + 1
    pairing = draw(players, met, {}, None, 0, random.Random(seed + 1))
    assert sorted(p for pair in pairing.pairs for p in pair) == sorted(players)
    assert not [pair for pair in pairing.pairs if key(*pair) in met]
    assert pairing.plan is None and pairing.sitting_out == ()
