"""The Balance screen's measurements: the team's escape rate at each number of nights for one
group size and one number of parole tokens, then the close call settled as ``companion balance``
settles it (the same games, the same rule), so the screen and the table give one answer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion.rules.prison.scenario import PrisonRules
from companion.sim.balance import Budget, Point, SizeSearch
from companion.sim.runner import OUTCOMES, Pool


def curve_nights(base: PrisonRules, prisoners: int, width: int = 7) -> list[int]:
    """Nights to escape around a first guess for ``prisoners`` (scaled from the scenario)."""
    centre = max(1, round(base.nights_to_escape * prisoners / base.max_prisoners))
    low = max(1, centre - width)
    return list(range(low, low + 2 * width + 1))


def point_dict(search: SizeSearch, p: Point) -> dict[str, Any]:
    t = p.tally
    return {
        "prisoners": search.prisoners,
        "nights_to_escape": p.nights,
        "parole_tokens_to_win": p.tokens,
        "games": t.games,
        "escape": p.escape.as_dict(),
        "outcomes": {k: t.counts[k] for k in OUTCOMES},
        "mean_days": round(t.days / t.games, 2) if t.games else 0.0,
    }


def escape_curve(
    pool: Pool,
    base: PrisonRules,
    prisoners: int,
    tokens: int,
    nights: list[int],
    *,
    games: int = 400,
    mix: str = "standard",
    seed: int = 1,
    target: float = 0.5,
    settle: Budget | None = None,
) -> Iterator[dict[str, Any]]:
    """The team's escape rate at each number of nights, point by point as measured (``games``
    each); then, unless ``settle`` is None, the close call is settled as the search settles
    it: the closest setting and every one not surely further from the target are topped up
    round by round (each round yields their points again, with more games) until it is surely
    the closest or they have ``settle.settle_games``. The last point yielded is the answer,
    with a ``verdict``: ``settled``, the ``runner_up`` and ``gap`` (how much closer, with its
    95% interval). The games are those ``companion balance`` plays at the same settings and
    seed, and the rule is the same, so the two give one answer at these parole tokens."""
    search = SizeSearch(pool, base, prisoners, target, mix, seed, settle or Budget())
    measured: list[Point] = []
    for n in nights:
        p = search.point(n, tokens)
        search.play(p, games)
        measured.append(p)
        yield point_dict(search, p)
    if settle is None or not measured:
        return
    # Every setting not surely further from the target than the closest is topped up with it.
    for played in search.settle_rounds(measured):
        for p in played:
            yield point_dict(search, p)
    best, runner_up, gap = search.settle_result(measured)
    if runner_up is None or gap is None:
        return
    yield {
        **point_dict(search, best),
        "verdict": {
            "settled": gap.settled,
            "runner_up": point_dict(search, runner_up),
            "gap": gap.as_dict(),
        },
    }
