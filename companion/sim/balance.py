"""Find the nights to escape and parole tokens to win that make a fair game for each group size.

**Fair** means the prisoners' team (outcome ``escape``) wins as often as ``target`` (0.5: as
often as the warden's side, which is ``parole`` + ``all_caught`` + ``time_up``; a parole is a
win for one prisoner and the warden, but a loss for the team).

The search spends games where the answer is uncertain:

- for one value of parole tokens to win, the escape rate falls as nights to escape rise. Starting
  from a guess, it gallops and then bisects on nights; at each probe it plays games in batches
  until the 95% interval of the escape rate lies wholly on one side of the target (sequential
  sampling: a probe far from the target is settled in a batch or two) or a probe cap is hit;
- the two neighbouring nights that straddle the target are the candidates for that value;
- it starts from the scenario's parole tokens to win and tries its neighbours only when the
  best candidate's interval does not hold the target, walking on while that improves the best
  candidate; this is done once with ``rank_games`` per leading candidate and once more after the
  best is topped up to ``min_games`` (an interval that held the target on fewer games may not);
- candidates are ranked by ``|escape rate - target| + 0.01 * |tokens - scenario's tokens|``
  (a small preference for the designers' number); the leading one is topped up to
  ``rank_games`` before it steers the search, and at the end the best is topped up to at least
  ``min_games`` games, re-ranking until the best has them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.rules.prison.scenario import PrisonRules
from companion.sim.runner import DAY_CAP, OUTCOMES, Pool, Tally, sim_rules, split
from companion.sim.stats import Rate, wilson

TOKEN_PENALTY = 0.01
MAX_NIGHTS = 200


@dataclass(frozen=True)
class Budget:
    min_games: int = 2000  # games behind every recommended setting
    probe_cap: int = 1000  # most games a probe plays before taking its point estimate
    rank_games: int = 600  # games a candidate needs before it may steer the search
    batch: int = 200  # games per round of sequential sampling (split across the processes)
    chunk: int = 100  # games per task handed to one process


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


@dataclass
class SizeResult:
    prisoners: int
    best: Point
    points: list[Point]
    target: float

    @property
    def games(self) -> int:
        return sum(p.tally.games for p in self.points)

    def rates(self) -> dict[str, Rate]:
        t = self.best.tally
        return {k: wilson(t.counts[k], t.games) for k in OUTCOMES}

    def warden_side(self) -> Rate:
        t = self.best.tally
        return wilson(t.games - t.counts["escape"], t.games)

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
            "curve": [
                {
                    "nights_to_escape": p.nights,
                    "parole_tokens_to_win": p.tokens,
                    "games": p.tally.games,
                    "escape": p.escape.as_dict(),
                }
                for p in sorted(self.points, key=lambda p: (p.tokens, p.nights))
            ],
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
        """Top ``point`` up to ``games`` games (in whole batches)."""
        have = point.tally.games
        if have >= games:
            return
        rules, _ = sim_rules(
            self.base,
            self.prisoners,
            {"nights_to_escape": point.nights, "parole_tokens_to_win": point.tokens},
        )
        label = f"balance/{self.mix}/{self.prisoners}/{point.nights}/{point.tokens}"
        stop = have + -(-(games - have) // self.budget.batch) * self.budget.batch
        batches = split(rules, self.prisoners, self.mix, self.seed, label, have, stop,
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

    def score(self, p: Point) -> float:
        return abs(p.escape.rate - self.target) + TOKEN_PENALTY * abs(
            p.tokens - self.base.parole_tokens_to_win
        )

    def candidates_for(self, tokens: int, guess: int) -> list[Point]:
        lo, hi = self.bracket(tokens, guess)
        return [self.point(lo, tokens), self.point(hi, tokens)]

    def best(self, candidates: list[Point], games: int) -> Point:
        """The best candidate, topped up (with re-ranking) until it has ``games`` games."""
        while True:
            top = min(candidates, key=lambda p: (self.score(p), p.nights))
            if top.tally.games >= games:
                return top
            self.play(top, games)

    def widen(self, candidates: list[Point], explored: set[int], games: int) -> Point:
        """Unless the best candidate's interval holds the target, try the parole tokens next
        to it, walking on in a direction while that improves the best."""
        top = self.best(candidates, games)
        for direction in (1, -1):
            tokens = top.tokens + direction
            while (
                not _holds(top.escape, self.target)
                and 1 <= tokens <= 50
                and tokens not in explored
            ):
                before = self.score(top)
                explored.add(tokens)
                candidates += self.candidates_for(tokens, top.nights)
                top = self.best(candidates, games)
                if self.score(top) >= before:
                    break
                tokens += direction
        return top

    def run(self, guess: int) -> SizeResult:
        tokens = self.base.parole_tokens_to_win
        candidates = self.candidates_for(tokens, guess)
        explored = {tokens}
        # First steer with a few hundred games a candidate, then check with the full number.
        self.widen(candidates, explored, self.budget.rank_games)
        top = self.widen(candidates, explored, self.budget.min_games)
        return SizeResult(self.prisoners, top, list(self.points.values()), self.target)


def _holds(rate: Rate, target: float) -> bool:
    return rate.low <= target <= rate.high


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
) -> list[SizeResult]:
    """Balance each group size in turn; each size's guess comes from the previous answer."""
    budget = budget or Budget()
    results: list[SizeResult] = []
    ref_size, ref_nights = base.max_prisoners, base.nights_to_escape
    with Pool(jobs) as pool:
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


def curve_nights(base: PrisonRules, prisoners: int, width: int = 7) -> list[int]:
    """Nights to escape around a first guess for ``prisoners`` (scaled from the scenario)."""
    centre = max(1, round(base.nights_to_escape * prisoners / base.max_prisoners))
    low = max(1, centre - width)
    return list(range(low, low + 2 * width + 1))


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
) -> Iterator[dict[str, Any]]:
    """The prisoners' team's escape rate at each number of nights, point by point as measured
    (for the console's Balance chart). Seeded like ``balance``: the same points every time."""
    for n in nights:
        changes = {"nights_to_escape": n, "parole_tokens_to_win": tokens}
        rules, _ = sim_rules(base, prisoners, changes)
        label = f"curve/{mix}/{prisoners}/{n}/{tokens}"
        tally = Tally()
        for part in pool.map(split(rules, prisoners, mix, seed, label, 0, games, 100)):
            tally.merge(part)
        escape = wilson(tally.counts["escape"], tally.games)
        yield {
            "prisoners": prisoners,
            "nights_to_escape": n,
            "parole_tokens_to_win": tokens,
            "games": tally.games,
            "escape": escape.as_dict(),
            "outcomes": {k: tally.counts[k] for k in OUTCOMES},
            "mean_days": round(tally.days / tally.games, 2),
        }
