"""Bots and the simulator: seeded, views only, every outcome the rules allow, plausible rates."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.prison import views as prison_views
from companion.rules.prison.state import Day, Prisoner, PrisonState
from companion.session.prison.scenarios import load_scenario
from companion.sim import runner
from companion.sim.runner import Batch, Pool, Tally, play_batch, play_game, run_games, sim_rules
from companion.sim.stats import wilson
from companion.sim.strategies import accusations, mixes, warden, yard
from companion.sim.strategies.mixes import MIXES
from tests.conftest import examples


def classic(prisoners: int = 4, **overrides: Any) -> Any:
    rules, _ = sim_rules(load_scenario("classic"), prisoners, overrides)
    return rules


def test_same_seed_same_games_and_other_seed_other_games() -> None:
    rules = classic()
    first = play_batch(Batch(rules, 4, "standard", 7, "t", 0, 300))
    again = play_batch(Batch(rules, 4, "standard", 7, "t", 0, 300))
    other = play_batch(Batch(rules, 4, "standard", 8, "t", 0, 300))
    assert first == again
    assert first.counts != other.counts or first.days != other.days


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    rules = classic(6, nights_to_escape=9)
    with Pool(1) as one:
        alone = run_games(one, rules, 6, "cutthroat", 3, 400, batch_size=70)
    with Pool(2) as two:
        shared = run_games(two, rules, 6, "cutthroat", 3, 400, batch_size=70)
        two.close()
    assert alone == shared
    assert alone.games == 400


def test_where_processes_cannot_fork_the_pool_spawns_them_with_the_same_results(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Windows has only "spawn": the same games, played in fresh processes."""
    import multiprocessing

    rules = classic(5)
    with Pool(1) as one:
        alone = run_games(one, rules, 5, "standard", 9, 120, batch_size=40)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert runner.start_method("fork") == runner.start_method("forkserver") == "spawn"
    with Pool(2) as spawned:
        assert spawned._pool._ctx.get_start_method() == "spawn"
        assert run_games(spawned, rules, 5, "standard", 9, 120, batch_size=40) == alone
        spawned.close()


@pytest.mark.parametrize(
    ("platform", "methods", "fork", "forkserver"),
    [
        ("linux", ["fork", "spawn", "forkserver"], "fork", "forkserver"),
        ("darwin", ["fork", "spawn", "forkserver"], "spawn", "spawn"),  # fork is unsafe there
        ("win32", ["spawn"], "spawn", "spawn"),
    ],
)
def test_each_system_gets_a_start_method_safe_there(
    monkeypatch: pytest.MonkeyPatch, platform: str, methods: list[str], fork: str,
    forkserver: str,
) -> None:
    import multiprocessing
    import sys

    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: methods)
    assert (runner.start_method("fork"), runner.start_method("forkserver")) == (fork, forkserver)


def test_on_macos_the_pool_does_not_fork_and_plays_the_same_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """macOS's system libraries start threads, so a forked child may crash there: the pool
    starts fresh processes, which play the same games."""
    import sys

    rules = classic(5)
    with Pool(1) as one:
        alone = run_games(one, rules, 5, "standard", 11, 120, batch_size=40)
    with monkeypatch.context() as patched:
        patched.setattr(sys, "platform", "darwin")
        spawned = Pool(2)  # its workers start while the system is taken for macOS
    with spawned:
        assert spawned._pool is not None
        assert spawned._pool._ctx.get_start_method() == "spawn"
        assert run_games(spawned, rules, 5, "standard", 11, 120, batch_size=40) == alone
        spawned.close()


def test_a_game_is_the_same_whichever_batch_plays_it() -> None:
    rules = classic()
    whole = play_batch(Batch(rules, 4, "standard", 5, "t", 0, 200))
    parts = Tally()
    for start in range(0, 200, 30):
        parts.merge(play_batch(Batch(rules, 4, "standard", 5, "t", start, min(200, start + 30))))
    assert parts == whole


@pytest.mark.slow  # 3000 games
def test_classic_four_prisoners_every_outcome_occurs_and_rates_are_plausible() -> None:
    tally = play_batch(Batch(classic(), 4, "standard", 1, "t", 0, 3000))
    counts = tally.counts
    # The classic rules have no day limit: escape, parole and all caught are what they allow.
    for outcome in ("escape", "parole", "all_caught"):
        assert counts[outcome] >= 100, counts
        assert wilson(counts[outcome], tally.games).high < 0.9, counts
    assert counts["time_up"] == 0
    # Four prisoners need at least two days to make six nights (at most four work a night).
    assert 2 <= tally.days / tally.games <= 10


@pytest.mark.slow  # 2000 games
def test_a_day_limit_adds_time_up() -> None:
    tally = play_batch(Batch(classic(max_days=3), 4, "standard", 1, "t", 0, 2000))
    assert all(tally.counts[o] > 0 for o in runner.OUTCOMES), tally.counts
    assert tally.days / tally.games <= 3


def test_loyal_prisoners_are_never_paroled() -> None:
    tally = play_batch(Batch(classic(8, nights_to_escape=12), 8, "loyal", 2, "t", 0, 500))
    assert tally.counts["parole"] == 0
    assert tally.counts["escape"] > 0


def test_the_simulator_caps_games_when_the_scenario_has_no_day_limit() -> None:
    rules, capped = sim_rules(load_scenario("classic"), 9)
    assert capped and rules.max_days == runner.DAY_CAP
    assert (rules.min_prisoners, rules.max_prisoners) == (4, 9)
    limited, capped = sim_rules(load_scenario("classic"), 4, {"max_days": 5})
    assert not capped and limited.max_days == 5


@settings(max_examples=examples(25), deadline=None)
@given(
    prisoners=st.integers(2, 14),
    nights=st.integers(1, 40),
    tokens=st.integers(1, 6),
    mix=st.sampled_from(sorted(MIXES)),
    seed=st.integers(0, 10**6),
)
def test_bots_only_make_moves_the_rules_accept(
    prisoners: int, nights: int, tokens: int, mix: str, seed: int
) -> None:
    rules = classic(prisoners, nights_to_escape=nights, parole_tokens_to_win=tokens)
    result = play_game(rules, prisoners, MIXES[mix], random.Random(seed))  # BotError if refused
    assert result.outcome in runner.OUTCOMES
    assert 1 <= result.days <= runner.DAY_CAP


# ---- bots see only their views ---------------------------------------------------------------

ENGINE_TYPES = (PrisonState, Prisoner, Day)


def holds_engine_object(value: Any) -> bool:
    if isinstance(value, ENGINE_TYPES):
        return True
    if isinstance(value, dict):
        return any(holds_engine_object(v) for v in value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(holds_engine_object(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(holds_engine_object(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


class Spy:
    """Records every view the runner builds, and every argument any strategy receives."""

    def __init__(self) -> None:
        self.issued: dict[int, tuple[str, Any]] = {}  # id(view) -> (whose, view)
        self.received: list[tuple[str, str | None, Any]] = []  # (where, who, argument)

    def prisoner_view(self, state: PrisonState, name: str) -> dict[str, Any]:
        view = prison_views.prisoner(state, name)
        self.issued[id(view)] = (name, view)
        return view

    def warden_view(self, state: PrisonState) -> dict[str, Any]:
        view = prison_views.warden(state)
        self.issued[id(view)] = ("warden", view)
        return view

    def wrap(self, where: str, fn: Any) -> Any:
        def spied(*args: Any, **kwargs: Any) -> Any:
            for arg in (*args, *kwargs.values()):
                self.received.append((where, None, arg))
            return fn(*args, **kwargs)

        return spied


def spy_strategy(spy: Spy, cls: type) -> type:
    class Spied(cls):  # type: ignore[misc, valid-type]
        reads_views = True
        reads_view_to_choose = True

        def choose(self, me: str, plan: Any, rng: Any, view: Any) -> str:
            spy.received.append(("choose", me, view))
            return str(super().choose(me, plan, rng, view))

        def accept_deal(self, me: str, rng: Any, view: Any) -> bool:
            spy.received.append(("accept_deal", me, view))
            return bool(super().accept_deal(me, rng, view))

        def tell(self, me: str, plan: Any, rng: Any, view: Any) -> tuple[str, ...]:
            spy.received.append(("tell", me, view))
            return tuple(super().tell(me, plan, rng, view))

    return Spied


@pytest.mark.parametrize("mix", ["standard", "cutthroat"])
def test_bots_receive_only_their_own_views(monkeypatch: pytest.MonkeyPatch, mix: str) -> None:
    spy = Spy()
    monkeypatch.setattr(runner, "prisoner_view", spy.prisoner_view)
    monkeypatch.setattr(runner, "warden_view", spy.warden_view)
    for cls_name in ("Loyal", "Opportunist", "Saboteur"):  # as a mix draws its prisoners
        monkeypatch.setattr(mixes, cls_name, spy_strategy(spy, getattr(mixes, cls_name)))
    m = MIXES[mix]
    for table, key in (
        (yard.PLANNING, m.planning),
        (accusations.ACCUSATION, m.accusation),
        (accusations.TRIGGERS, m.accusation),
        (warden.OFFERS, m.offers),
        (warden.SEARCH, m.search),
    ):
        monkeypatch.setitem(table, key, spy.wrap(f"{key}", table[key]))

    rules = classic(6, nights_to_escape=10)
    outcomes = set()
    for seed in range(40):
        outcomes.add(play_game(rules, 6, m, random.Random(seed)).outcome)

    views = [(where, who, a) for where, who, a in spy.received if isinstance(a, dict)]
    assert len(views) > 200 and len(outcomes) >= 2
    for where, _who, arg in spy.received:
        assert not holds_engine_object(arg), f"{where} received engine state: {arg!r}"
    for where, who, view in views:
        assert id(view) in spy.issued, f"{where} received a dict that no view function built"
        whose, _ = spy.issued[id(view)]
        if who is not None:  # a prisoner's own decision: their own view, nobody else's
            assert whose == who and view["me"]["name"] == who
        if whose != "warden":
            assert "parole_tokens" not in view  # prisoners never see others' tokens
    seen = {where for where, _, _ in views}
    assert {"choose", "accept_deal", "tell", m.planning, m.offers, m.search} <= seen
    assert m.accusation in seen


def test_wilson_interval_matches_known_values() -> None:
    r = wilson(5, 10)
    assert r.low == pytest.approx(0.2366, abs=1e-4) and r.high == pytest.approx(0.7634, abs=1e-4)
    zero = wilson(0, 20)
    assert zero.low == 0.0 and zero.high == pytest.approx(0.1611, abs=1e-4)
    assert wilson(20, 20).high == 1.0


@pytest.mark.slow  # the same games played four times
def test_skipping_views_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner skips views a bot would not read (every built-in prisoner at planning; loyal
    prisoners and saboteurs outside the accusations; nights when no habit is triggered).
    Handing every view over anyway must give exactly the same games."""
    rules = classic(7, nights_to_escape=12)
    batch = Batch(rules, 7, "standard", 9, "t", 0, 300)
    skipping = play_batch(batch)
    for cls_name in ("Loyal", "Opportunist", "Saboteur"):
        flags = {"reads_views": True, "reads_view_to_choose": True}
        looks = type(cls_name, (getattr(mixes, cls_name),), flags)
        monkeypatch.setattr(mixes, cls_name, looks)
    for habit in list(accusations.TRIGGERS):
        monkeypatch.setitem(accusations.TRIGGERS, habit, lambda view, talk: True)
    assert play_batch(batch) == skipping
