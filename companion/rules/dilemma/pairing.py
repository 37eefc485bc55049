"""Drawing the pairs of a round: nobody meets the same opponent again until everyone has met
everyone, and on odd counts the one who sits out rotates fairly.

Two ways, both pure (randomness comes in as a seeded :class:`random.Random`):

- while the roster holds, a round-robin *plan* (the circle method) gives every pair exactly
  once per cycle and every player one round out per cycle on odd counts;
- when players join or leave mid-cycle, each round is searched afresh: a perfect matching of
  the players who have met each other least (branch and bound on repeats), the one sitting out
  picked among those who sat out least.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, islice

Plan = tuple[str | None, ...]
SEARCH_BUDGET = 30_000  # search steps per round: bounded, and deterministic
EXACT_UP_TO = 24  # players searched exactly; a bigger room is matched greedily, then repaired


@dataclass(frozen=True)
class Pairing:
    pairs: tuple[tuple[str, str], ...]
    sitting_out: tuple[str, ...]
    plan: Plan | None
    plan_step: int


def key(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def circle_round(plan: Plan, step: int) -> list[tuple[str | None, str | None]]:
    """Round ``step`` of the circle method: slot 0 stays, the others turn."""
    fixed, turning = plan[0], list(plan[1:])
    k = step % len(turning)
    ring = [fixed, *turning[k:], *turning[:k]]
    m = len(ring)
    return [(ring[i], ring[m - 1 - i]) for i in range(m // 2)]


def plan_length(plan: Plan) -> int:
    return len(plan) - 1


def _split(slots: list[tuple[str | None, str | None]]) -> tuple[list[tuple[str, str]], list[str]]:
    pairs: list[tuple[str, str]] = []
    out: list[str] = []
    for a, b in slots:
        if a is None and b is not None:
            out.append(b)
        elif b is None and a is not None:
            out.append(a)
        elif a is not None and b is not None:
            pairs.append((a, b))
    return pairs, out


def new_plan(players: Sequence[str], sat: Mapping[str, int], rng: random.Random) -> Plan:
    """A shuffled circle plan; on odd counts, those who sat out least sit out first."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    if len(shuffled) % 2 == 0:
        return tuple(shuffled)
    order = sorted(shuffled, key=lambda p: sat.get(p, 0))  # stable: shuffled among equals
    m = len(order) + 1
    turning: list[str | None] = [None] * (m - 1)
    # In round r the fixed slot (the empty seat) faces turning[(r - 1) mod (m - 1)].
    for r, player in enumerate(order):
        turning[(r - 1) % (m - 1)] = player
    return (None, *turning)


def _plan_fits(plan: Plan | None, step: int, players: Sequence[str]) -> bool:
    if plan is None or step >= plan_length(plan):
        return False
    return {p for p in plan if p is not None} == set(players)


def draw(
    players: Sequence[str],
    met: Mapping[frozenset[str], int],
    sat: Mapping[str, int],
    plan: Plan | None,
    plan_step: int,
    rng: random.Random,
) -> Pairing:
    """The pairs of the next round among ``players`` (at least two)."""
    if len(players) < 2:
        raise ValueError("a round needs at least two players")
    here = set(players)
    # Only the pairs that met are counted (a hall of 1,000 has half a million pairs, most of
    # which never met): the others are at 0.
    seen = {k: c for k, c in met.items() if c and k <= here}
    every = len(players) * (len(players) - 1) // 2
    level = min(seen.values()) if len(seen) == every else 0

    def count(a: str, b: str) -> int:
        return seen.get(key(a, b), 0)

    if _plan_fits(plan, plan_step, players):
        assert plan is not None
        pairs, out = _split(circle_round(plan, plan_step))
        if all(count(a, b) == level for a, b in pairs):
            return Pairing(tuple(pairs), tuple(out), plan, plan_step + 1)
    if all(c == level for c in seen.values()):  # a clean slate: start a round robin
        fresh = new_plan(players, sat, rng)
        pairs, out = _split(circle_round(fresh, 0))
        return Pairing(tuple(pairs), tuple(out), fresh, 1)
    pairs, out = search(players, seen, level, sat, rng)
    return Pairing(tuple(pairs), tuple(out), None, 0)


def search(
    players: Sequence[str],
    counts: Mapping[frozenset[str], int],
    level: int,
    sat: Mapping[str, int],
    rng: random.Random,
) -> tuple[list[tuple[str, str]], list[str]]:
    """The matching with the fewest repeats; the one out sat out least among equals.
    ``counts`` holds the pairs that met (a pair not in it met 0 times)."""
    order = list(players)
    rng.shuffle(order)
    budget = [SEARCH_BUDGET]
    if len(order) % 2 == 0:
        return _best_matching(order, counts, level, rng, budget)[1], []
    sitters = sorted(order, key=lambda p: sat.get(p, 0))
    best: tuple[tuple[int, int], list[tuple[str, str]], str] | None = None
    for sitter in sitters:
        rest = [p for p in order if p != sitter]
        cost, pairs = _best_matching(rest, counts, level, rng, budget)
        score = (cost, sat.get(sitter, 0))
        if best is None or score < best[0]:
            best = (score, pairs, sitter)
        if cost == 0:
            break  # sitters come in order of rounds sat out: none can do better
    assert best is not None
    return best[1], [best[2]]


def _best_matching(
    players: list[str],
    counts: Mapping[frozenset[str], int],
    level: int,
    rng: random.Random,
    budget: list[int],
) -> tuple[int, list[tuple[str, str]]]:
    """Branch and bound over perfect matchings, cost = meetings above the level; ``budget``
    (shared by the calls of one round) bounds the steps. Past ``EXACT_UP_TO`` players, a
    greedy matching repaired by swaps (:func:`_greedy_matching`)."""
    if len(players) > EXACT_UP_TO:
        return _greedy_matching(players, counts, level, rng)
    cost = {key(a, b): counts.get(key(a, b), 0) - level for a, b in combinations(players, 2)}
    best_cost = [10**9]
    best: list[list[tuple[str, str]]] = [[]]
    ties = {p: rng.random() for p in players}

    def free_partners(p: str, left: list[str]) -> int:
        return sum(1 for q in left if q != p and cost[key(p, q)] == 0)

    def go(left: list[str], acc: int, chosen: list[tuple[str, str]]) -> None:
        if acc >= best_cost[0] or (budget[0] <= 0 and best[0]):
            return
        budget[0] -= 1
        if not left:
            best_cost[0] = acc
            best[0] = list(chosen)
            return
        p = min(left, key=lambda x: (free_partners(x, left), ties[x]))
        rest = [q for q in left if q != p]
        for q in sorted(rest, key=lambda x: (cost[key(p, x)], ties[x])):
            chosen.append((p, q))
            go([x for x in rest if x != q], acc + cost[key(p, q)], chosen)
            chosen.pop()
            if best_cost[0] == 0:
                return

    go(players, 0, [])
    return best_cost[0], best[0]


def _greedy_matching(
    players: list[str], counts: Mapping[frozenset[str], int], level: int, rng: random.Random
) -> tuple[int, list[tuple[str, str]]]:
    """A matching for a big room, in time about proportional to the players and the pairs that
    met: those who met the most others choose first (ties at random), each the first unmet
    player left in a shuffled order (or, when none is left, the one met least); then a pair
    that repeats swaps partners with another pair while that lowers the repeats. Not always the
    fewest repeats, but close; a few milliseconds at 300, well under a second at 1,000."""
    above: dict[str, dict[str, int]] = {p: {} for p in players}  # meetings above the level
    for pair, times in counts.items():
        if times > level:
            one, other = sorted(pair)
            if one in above and other in above:
                above[one][other] = above[other][one] = times - level
    order = list(players)
    rng.shuffle(order)
    order.sort(key=lambda p: -len(above[p]))  # stable: at random among equals
    taken: set[str] = set()
    pairs: list[tuple[str, str]] = []
    for i, p in enumerate(order):
        if p in taken:
            continue
        taken.add(p)
        mine = above[p]
        best: str | None = None
        for q in islice(order, i + 1, None):
            if q in taken:
                continue
            if q not in mine:
                best = q
                break
            if best is None or mine[q] < mine[best]:
                best = q
        assert best is not None  # an even count: someone is left
        taken.add(best)
        pairs.append((p, best))

    def cost(a: str, b: str) -> int:
        return above[a].get(b, 0)

    for _ in range(3):  # repair: a pair that repeats swaps partners with another pair
        better = False
        for i, (a, b) in enumerate(pairs):
            here = cost(a, b)
            if here == 0:
                continue
            for j, (c, d) in enumerate(pairs):
                if i == j:
                    continue
                now = here + cost(c, d)
                for x, y, z, w in ((a, c, b, d), (a, d, b, c)):
                    if cost(x, y) + cost(z, w) < now:
                        pairs[i], pairs[j] = (x, y), (z, w)
                        better = True
                        break
                else:
                    continue
                break
        if not better:
            break
    return sum(cost(a, b) for a, b in pairs), pairs
