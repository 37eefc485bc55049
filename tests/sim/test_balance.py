"""The balance search: settled close calls, one answer with the Balance screen, the designers'
numbers beside the recommendation. Most tests play no games: a synthetic curve stands in for
the simulator (seeded draws from known rates), so even large budgets run in a moment."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.session.prison.scenarios import load_scenario
from companion.sim import balance as balance_module
from companion.sim.balance import Budget, Point, SizeSearch
from companion.sim.curve import escape_curve
from companion.sim.runner import Pool, Tally
from companion.sim.stats import closer_by, wilson


def synthetic(monkeypatch: pytest.MonkeyPatch, rate: Any) -> None:
    """Replace the games by draws: the team escapes with probability ``rate(nights, tokens)``,
    each setting with its own stream seeded from the search's seed (so topping up continues it)."""
    streams: dict[tuple[int, int, int, int], random.Random] = {}

    def play(self: SizeSearch, point: Point, games: int) -> None:
        have = point.tally.games
        if have >= games:
            return
        key = (self.seed, self.prisoners, point.nights, point.tokens)
        rng = streams.setdefault(key, random.Random(str(key)))
        p = rate(point.nights, point.tokens)
        hits = sum(rng.random() < p for _ in range(games - have))
        point.tally.merge(Tally({"escape": hits, "parole": 0, "all_caught": games - have - hits,
                                 "time_up": 0}, 3 * (games - have)))

    monkeypatch.setattr(SizeSearch, "play", play)


def near_tie(nights: int, tokens: int) -> float:
    """4 nights at 3 tokens is 1 point from 50%, 5 nights 3 points; 2 tokens is a hair further
    (0.2 points plus the token's 1) than the best: a tie no sample can settle."""
    return 0.51 - 0.04 * (nights - 4 - 0.3 * (tokens - 3))


def search(seed: int, budget: Budget | None = None) -> SizeSearch:
    return SizeSearch(Pool(1), load_scenario("classic"), 4, 0.5, "standard", seed,
                      budget or Budget())


def test_the_recommendation_does_not_move_with_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    synthetic(monkeypatch, near_tie)
    answers = {(r.best.nights, r.best.tokens) for r in (search(s).run(6) for s in range(1, 13))}
    assert answers == {(4, 3)}


def test_a_settled_call_names_its_runner_up_and_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    synthetic(monkeypatch, lambda n, t: 0.5 - 0.08 * (n - 4) - 0.2 * abs(t - 3))
    result = search(3).run(6)
    assert (result.best.nights, result.best.tokens) == (4, 3) and result.settled
    assert result.runner_up is not None and result.margin is not None
    assert result.margin.low > 0
    assert result.stability().startswith("Settled: closer to the target than the runner-up")
    # The designers' numbers (classic: 6 nights, 3 tokens) are measured beside it.
    assert result.designers is not None
    assert (result.designers.nights, result.designers.tokens) == (6, 3)
    assert result.designers.tally.games >= 2000
    row = result.as_dict()
    assert row["designers"]["nights_to_escape"] == 6 and row["settled"] is True


def test_a_tie_is_said_and_goes_to_the_designers_tokens_then_the_team_s_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 4 and 5 nights at 3 tokens are equally far from 50%: 52% and 48% (and 3 nights, at 56%,
    # is not surely further on these few games): the tie goes to 4, where the team still wins.
    synthetic(monkeypatch, lambda n, t: 0.52 - 0.04 * (n - 4) - 0.3 * abs(t - 3))
    result = search(5, Budget(min_games=400, settle_factor=4)).run(6)
    assert (result.best.nights, result.best.tokens) == (4, 3) and not result.settled
    assert result.best.tally.games == 1600  # settled as far as the budget goes
    assert result.stability().startswith("A tie within the noise of 1600 games")


def test_closer_by_is_the_difference_of_distances_with_an_interval() -> None:
    a, b = wilson(5000, 10000), wilson(4000, 10000)
    gap = closer_by(a, b, 0.5)
    assert gap.gap == pytest.approx(0.1) and gap.low > 0.08 and gap.settled
    assert not closer_by(wilson(51, 100), wilson(48, 100), 0.5).settled


def test_the_screen_s_curve_and_the_search_play_the_same_games() -> None:
    """The Balance screen's point and the search's point at the same setting and seed are the
    same games, so on the same games they give the same rate (they played different games)."""
    base = load_scenario("classic")
    with Pool(1) as pool:
        curve = list(escape_curve(pool, base, 4, 3, [5], games=60, seed=2))
        probe = SizeSearch(pool, base, 4, 0.5, "standard", 2, Budget())
        point = probe.point(5, 3)
        probe.play(point, 60)
    assert curve[0]["outcomes"] == point.tally.counts
    assert curve[0]["mean_days"] == round(point.tally.days / 60, 2)


def test_the_screen_settles_the_close_call_as_the_search_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    synthetic(monkeypatch, lambda n, t: 0.5 - 0.1 * (n - 4.3))
    budget = Budget(min_games=800, settle_factor=8)
    with Pool(1) as pool:
        points = list(escape_curve(pool, load_scenario("classic"), 4, 3, list(range(1, 9)),
                                   games=100, seed=4, settle=budget))
    last = points[-1]
    assert last["nights_to_escape"] == 4 and last["verdict"]["runner_up"]["nights_to_escape"] == 5
    assert last["games"] >= 800 and last["verdict"]["settled"]
    found = search(4, budget)
    found.base = load_scenario("classic").model_copy(update={"parole_tokens_to_win": 3})
    assert (found.run(4).best.nights) == 4
    assert balance_module.point_label("standard", 4, 4, 3) == "balance/standard/4/4/3"


SEVEN = {  # about as measured for 7 prisoners: escape rate by tokens, then nights
    2: {5: 0.97, 6: 0.85, 7: 0.365, 8: 0.25},
    3: {9: 0.65, 10: 0.572, 11: 0.436, 12: 0.39},
    4: {11: 0.63, 12: 0.565, 13: 0.445, 14: 0.40},
    5: {11: 0.63, 12: 0.563, 13: 0.50, 14: 0.427},
    6: {12: 0.60, 13: 0.551, 14: 0.467, 15: 0.41},
}


def seven_prisoners(nights: int, tokens: int) -> float:
    """Shaped like 7 prisoners as measured, the close call made clear: at 3 tokens no nights
    come nearer 50% than 7 points, at 4 tokens 5.5 points, at 5 tokens 13 nights are on the
    target."""
    curve = SEVEN.get(tokens) or {n + tokens - 6: r for n, r in SEVEN[6].items()}
    low, high = min(curve), max(curve)
    if nights < low:
        return min(1.0, curve[low] + 0.08 * (low - nights))
    if nights > high:
        return max(0.0, curve[high] - 0.05 * (nights - high))
    return curve[nights]


def test_other_tokens_are_tried_whatever_the_noise(monkeypatch: pytest.MonkeyPatch) -> None:
    """With seed 1 the search stopped at 4 tokens (12 nights) because 4 tokens looked no better
    than 3 on a few hundred games; with seed 7 it went on to 5 (13 nights). Whether to try the
    next tokens must not hang on that noise."""
    synthetic(monkeypatch, seven_prisoners)
    base = load_scenario("classic")
    answers = {
        (r.best.nights, r.best.tokens)
        for r in (SizeSearch(Pool(1), base, 7, 0.5, "standard", s, Budget()).run(12)
                  for s in range(1, 9))
    }
    assert answers == {(13, 5)}
