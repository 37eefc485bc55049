"""Find the nights to escape and parole tokens to win that make a fair game for each group size.

**Fair** means the prisoners' team (outcome ``escape``) wins as often as ``target`` (0.5: as
often as the warden's side, which is ``parole`` + ``all_caught`` + ``time_up``; a parole is a
win for one prisoner and the warden, but a loss for the team).

The search spends games where the answer is uncertain:

- for one value of parole tokens to win, the escape rate falls as nights to escape rise: from a
  guess it gallops, then bisects on nights, each probe playing batches until the 95% interval of
  the escape rate lies wholly on one side of the target (sequential sampling) or a cap is hit;
- the two neighbouring nights that straddle the target, and one more on each side (a probe
  that took its point estimate may be wrong by one), are the candidates for that value;
- it brackets the scenario's parole tokens to win and always its neighbours on both sides,
  walking on while the best of the farthest tokens tried is not surely (95%) further from the
  target than the leader; every candidate gets ``rank_games`` before it may steer;
- candidates are ranked by ``|escape rate - target| + 0.01 * |tokens - scenario's tokens|``;
- the close calls are then **settled**: the leader gets ``min_games``, and every candidate not
  surely further from the target than the leader (the 99.7% interval of the difference of
  their scores, :func:`companion.sim.stats.closer_by`: among a dozen comparisons 95% would drop
  a close one by chance too often) is topped up with the leader, doubling the games each round,
  until it is, or both reach ``settle_factor * min_games``. A tie left goes to the designers'
  parole tokens, then to the team's side of the target (the most nights at which it still
  escapes at least that often), never to the noise; so another seed gives the same
  recommendation unless a difference lies at the edge of what that many games can tell apart.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.rules.prison.scenario import PrisonRules
from companion.sim.runner import DAY_CAP, OUTCOMES, Pool, Tally, sim_rules, split
from companion.sim.stats import Z95, Gap, Rate, closer_by, wilson

TOKEN_PENALTY = 0.01
SURE_Z = 3.0  # standard errors for 'surely closer' when settling: a 99.7% interval
MAX_NIGHTS = 200


@dataclass(frozen=True)
class Budget:
    min_games: int = 2000  # games behind every recommended setting
    probe_cap: int = 1000  # most games a probe plays before taking its point estimate
    rank_games: int = 600  # games a candidate needs before it may steer the search
    batch: int = 200  # games per round of sequential sampling (split across the processes)
    chunk: int = 100  # games per task handed to one process
    settle_factor: int = 8  # settling a close call plays up to this many times min_games

    @property
    def settle_games(self) -> int:
        return self.settle_factor * self.min_games


def point_label(mix: str, prisoners: int, nights: int, tokens: int) -> str:
    """The games of one setting: the search and the Balance screen play the same games there
    (game ``i`` is seeded from the run's seed, this label and ``i``), so on the same games they
    measure the same rate."""
    return f"balance/{mix}/{prisoners}/{nights}/{tokens}"


@dataclass
class Point:
    nights: int
    tokens: int
    tally: Tally = field(default_factory=Tally)

    @property
    def escape(self) -> Rate:
        return wilson(self.tally.counts["escape"], self.tally.games)

    def side(self, target: float) -> int:
        """+1 if the prisoners surely win more than the target, -1 if surely less, else 0."""
        r = self.escape
        if r.low > target:
            return 1
        if r.high < target:
            return -1
        return 0

    def summary(self) -> dict[str, Any]:
        return {"nights_to_escape": self.nights, "parole_tokens_to_win": self.tokens,
                "games": self.tally.games, "escape": self.escape.as_dict()}


@dataclass
class SizeResult:
    """The recommended setting for one group size, how surely it beats the runner-up, and the
    scenario's own numbers measured at this size."""

    prisoners: int
    best: Point
    points: list[Point]
    target: float
    runner_up: Point | None = None
    margin: Gap | None = None  # how much closer to the target best is than runner_up
    designers: Point | None = None

    @property
    def games(self) -> int:
        return sum(p.tally.games for p in self.points)

    @property
    def settled(self) -> bool:
        """Whether the best is surely closer to the target than every other candidate."""
        return self.margin is None or self.margin.low > 0

    def rates(self) -> dict[str, Rate]:
        t = self.best.tally
        return {k: wilson(t.counts[k], t.games) for k in OUTCOMES}

    def warden_side(self) -> Rate:
        t = self.best.tally
        return wilson(t.games - t.counts["escape"], t.games)

    def stability(self) -> str:
        """One sentence: how surely the recommendation beats its runner-up."""
        if self.runner_up is None or self.margin is None:
            return "The only candidate."
        r, m = self.runner_up, self.margin
        rival = f"{r.nights} nights and {r.tokens} parole tokens ({r.escape.short()}, " \
            f"{r.tally.games} games)"
        gap = f"by {100 * m.gap:+.1f} points (99.7% interval {100 * m.low:+.1f} to " \
            f"{100 * m.high:+.1f})"
        if self.settled:
            return f"Settled: closer to the target than the runner-up, {rival}, {gap}."
        return (
            f"A tie within the noise of {self.best.tally.games} games: closer to the target "
            f"than the runner-up, {rival}, {gap}; a tie goes to the designers' parole tokens, "
            "then to the most nights at which the team still escapes at least the target."
        )

    def as_dict(self) -> dict[str, Any]:
        t = self.best.tally
        return {
            "prisoners": self.prisoners,
            "nights_to_escape": self.best.nights,
            "parole_tokens_to_win": self.best.tokens,
            "games": t.games,
            "mean_days": round(t.days / t.games, 2) if t.games else None,
            "escape": self.best.escape.as_dict(),
            "warden_side": self.warden_side().as_dict(),
            "outcomes": {k: r.as_dict() for k, r in self.rates().items()},
            "games_in_search": self.games,
            "settled": self.settled,
            "stability": self.stability(),
            "runner_up": self.runner_up.summary() if self.runner_up else None,
            "closer_than_runner_up": self.margin.as_dict() if self.margin else None,
            "designers": self.designers.summary() if self.designers else None,
            "curve": [p.summary() for p in sorted(self.points, key=lambda p: (p.tokens, p.nights))],
        }


@dataclass
class SizeSearch:
    """The adaptive search for one group size."""

    pool: Pool
    base: PrisonRules
    prisoners: int
    target: float
    mix: str
    seed: int
    budget: Budget
    points: dict[tuple[int, int], Point] = field(default_factory=dict)

    def point(self, nights: int, tokens: int) -> Point:
        key = (nights, tokens)
        if key not in self.points:
            self.points[key] = Point(nights, tokens)
        return self.points[key]

    def play(self, point: Point, games: int) -> None:
        """Top ``point`` up to ``games`` games."""
        have = point.tally.games
        if have >= games:
            return
        rules, _ = sim_rules(
            self.base,
            self.prisoners,
            {"nights_to_escape": point.nights, "parole_tokens_to_win": point.tokens},
        )
        label = point_label(self.mix, self.prisoners, point.nights, point.tokens)
        batches = split(rules, self.prisoners, self.mix, self.seed, label, have, games,
                        self.budget.chunk)
        for tally in self.pool.map(batches):
            point.tally.merge(tally)

    def probe(self, nights: int, tokens: int) -> int:
        """Which side of the target (nights, tokens) lies on: +1 prisoners favoured, -1 not."""
        p = self.point(nights, tokens)
        while True:
            side = p.side(self.target)
            if side or p.tally.games >= self.budget.probe_cap:
                break
            self.play(p, p.tally.games + self.budget.batch)
        if side == 0:
            side = 1 if p.escape.rate >= self.target else -1
        return side

    def bracket(self, tokens: int, guess: int) -> tuple[int, int]:
        """Neighbouring nights (lo, lo + 1) with the prisoners favoured at lo, not at lo + 1."""
        n = max(1, min(guess, MAX_NIGHTS))
        if self.probe(n, tokens) > 0:
            lo, step = n, 1
            hi = n + step
            while hi < MAX_NIGHTS and self.probe(hi, tokens) > 0:
                lo, step = hi, step * 2
                hi = min(MAX_NIGHTS, lo + step)
        else:
            hi, step = n, 1
            lo = n - step
            while lo > 1 and self.probe(lo, tokens) < 0:
                hi, step = lo, step * 2
                lo = max(1, hi - step)
            lo = max(1, lo)
            if lo == hi:
                return lo, lo + 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.probe(mid, tokens) > 0:
                lo = mid
            else:
                hi = mid
        return lo, hi

    def penalty(self, p: Point) -> float:
        return TOKEN_PENALTY * abs(p.tokens - self.base.parole_tokens_to_win)

    def score(self, p: Point) -> float:
        return abs(p.escape.rate - self.target) + self.penalty(p)

    def closer(self, a: Point, b: Point, z: float = SURE_Z) -> Gap:
        """How much closer ``a`` is to the target than ``b`` (scores), with an interval of
        ``z`` standard errors (three: 99.7%, so that among a dozen comparisons a candidate is
        hardly ever dropped by chance)."""
        return closer_by(a.escape, b.escape, self.target, self.penalty(a), self.penalty(b), z)

    def candidates_for(self, tokens: int, guess: int) -> list[Point]:
        """The nights straddling the target at ``tokens`` and one more on each side (a probe
        that took its point estimate may have been wrong by one)."""
        lo, hi = self.bracket(tokens, guess)
        near = [self.point(n, tokens) for n in range(max(1, lo - 1), min(MAX_NIGHTS, hi + 1) + 1)]
        for p in near:
            self.play(p, self.budget.rank_games)
        return near

    def leader(self, candidates: list[Point]) -> Point:
        return min(candidates, key=lambda p: (self.score(p), p.nights))

    def explore(self, guess: int) -> list[Point]:
        """The candidates: the two nights straddling the target at the scenario's parole tokens
        and at its neighbours on both sides (always: whether to look must not hang on noise),
        walking on in a direction while the best of the farthest tokens tried is not surely
        further from the target than the leader (at 95%, on ``rank_games``: stopping must not
        hang on noise either)."""
        start = self.base.parole_tokens_to_win
        candidates = self.candidates_for(start, guess)
        for direction in (1, -1):
            tokens = start + direction
            while 1 <= tokens <= 50:
                edge = self.candidates_for(tokens, self.leader(candidates).nights)
                candidates += edge
                top = self.leader(candidates)
                if self.closer(top, self.leader(edge), Z95).low > 0:
                    break
                tokens += direction
        return candidates

    def open_calls(self, candidates: list[Point]) -> tuple[Point, list[Point]]:
        """The leader, and the candidates not surely further from the target than it."""
        top = self.leader(candidates)
        return top, [p for p in candidates if p is not top and not self.closer(top, p).low > 0]

    def settle_rounds(self, candidates: list[Point]) -> Iterator[list[Point]]:
        """Top up the leader to ``min_games``; then, while some candidate is not surely further
        from the target than the leader, top up both, doubling the games each round, until it
        is or both have ``settle_games``. Yields the points played in each round."""
        cap = max(self.budget.settle_games, self.budget.min_games)
        while True:
            top, open_ = self.open_calls(candidates)
            growing = [p for p in (top, *open_) if p.tally.games < cap] if open_ else []
            if top.tally.games < self.budget.min_games and top not in growing:
                growing.append(top)
            if not growing:
                return
            least = min(p.tally.games for p in growing)
            games = min(cap, max(self.budget.min_games, 2 * least))
            for p in growing:
                self.play(p, games)
            yield growing

    def settle_result(self, candidates: list[Point]) -> tuple[Point, Point | None, Gap | None]:
        """The recommendation once settled, its runner-up and how much closer it is. A tie left
        (a candidate not surely further after ``settle_games``) goes to the designers' parole
        tokens, then to the prisoners' side of the target (the most nights at which they still
        escape at least that often): never to the noise."""
        top, open_ = self.open_calls(candidates)
        if open_:
            tied = [top, *open_]
            tied = [p for p in tied if self.penalty(p) == min(map(self.penalty, tied))]
            ahead = [p for p in tied if p.escape.rate >= self.target]
            top = max(ahead, key=lambda p: p.nights) if ahead else min(tied, key=lambda p: p.nights)
        others = [p for p in candidates if p is not top]
        if not others:
            return top, None, None
        runner_up = min(others, key=lambda p: self.closer(top, p).gap)
        return top, runner_up, self.closer(top, runner_up)

    def run(self, guess: int) -> SizeResult:
        candidates = self.explore(guess)
        for _ in self.settle_rounds(candidates):
            pass
        best, runner_up, margin = self.settle_result(candidates)
        designers = self.point(self.base.nights_to_escape, self.base.parole_tokens_to_win)
        self.play(designers, self.budget.min_games)
        return SizeResult(self.prisoners, best, list(self.points.values()), self.target,
                          runner_up, margin, designers)


def balance(
    base: PrisonRules,
    sizes: list[int],
    *,
    target: float = 0.5,
    mix: str = "standard",
    seed: int = 1,
    jobs: int = 2,
    budget: Budget | None = None,
    on_size: Callable[[SizeResult], None] | None = None,
    on_games: Callable[[int], None] | None = None,
) -> list[SizeResult]:
    """Balance each group size in turn; each size's guess comes from the previous answer.
    ``on_size`` is told each size's result when it is done, ``on_games`` each batch's games as
    they are played (for a progress bar)."""
    budget = budget or Budget()
    results: list[SizeResult] = []
    ref_size, ref_nights = base.max_prisoners, base.nights_to_escape
    with Pool(jobs) as pool:
        pool.on_games = on_games
        for size in sizes:
            guess = max(1, round(ref_nights * size / ref_size))
            search = SizeSearch(pool, base, size, target, mix, seed, budget)
            result = search.run(guess)
            results.append(result)
            ref_size, ref_nights = size, result.best.nights
            if on_size is not None:
                on_size(result)
        pool.close()
    return results


def scenario_text(result: SizeResult, base: PrisonRules, *, mix: str, seed: int) -> str:
    """A scenario file for one group size, with a header saying how it was measured."""
    b = result.best
    t = b.tally
    r = result.rates()
    lines = [
        f"# Balanced for {result.prisoners} prisoners by 'companion balance' "
        f"(target: prisoners' team wins {result.target:.0%}).",
        f"# Mix '{mix}', seed {seed}: {t.games} games at these numbers "
        f"({result.games} games in the whole search).",
        f"# Measured (95% intervals): escape {r['escape'].short()}; "
        f"parole {r['parole'].short()};",
        f"#   all caught {r['all_caught'].short()}; time up {r['time_up'].short()}.",
        f"# Games longer than {DAY_CAP} days counted as time up (the rules set no day limit)."
        if base.max_days is None
        else f"# Day limit {base.max_days} (from the base scenario).",
        f"# Mean game length {t.days / t.games:.2f} days.",
        *_wrapped(result.stability()),
        *_designers_line(result, base),
        f'description = "Balanced for {result.prisoners} prisoners: '
        f"{b.nights} nights to escape, {b.tokens} parole tokens to win "
        f'({mix} mix)."',
        f"min_prisoners = {result.prisoners}",
        f"max_prisoners = {result.prisoners}",
        f"nights_to_escape = {b.nights}",
        f"parole_tokens_to_win = {b.tokens}",
        f"parole_tokens_per_day = {base.parole_tokens_per_day}",
        f"searches_per_day = {base.searches_per_day}",
        f"shivs_per_prisoner = {base.shivs_per_prisoner}",
        f"accusations_per_day = {base.accusations_per_day}",
    ]
    if base.max_days is not None:
        lines.append(f"max_days = {base.max_days}")
    return "\n".join(lines) + "\n"


def _wrapped(text: str) -> list[str]:
    return [f"# {line}" for line in textwrap.wrap(text, 92, subsequent_indent="  ")]


def _designers_line(result: SizeResult, base: PrisonRules) -> list[str]:
    d = result.designers
    return [] if d is None else _wrapped(
        f"The base scenario's own {d.nights} nights and {d.tokens} parole tokens for "
        f"{result.prisoners} prisoners: escape {d.escape.short()} ({d.tally.games} games).")
