"""Play whole games with bots through the real engine, one or thousands, on several cores.

Each game has its own ``random.Random`` seeded from (run seed, setting, game index), so a game's
result depends only on those and never on the process that played it or on how many there were.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.rules.core.game import Refused, fold
from companion.rules.prison.commands import (
    Accuse,
    Choose,
    ClosePlanning,
    EndDay,
    Interview,
    PrisonCommand,
    Search,
)
from companion.rules.prison.engine import PRISON_BREAK, new_game
from companion.rules.prison.scenario import PrisonRules, with_overrides
from companion.rules.prison.state import PrisonState
from companion.rules.prison.views import prisoner as prisoner_view
from companion.rules.prison.views import warden as warden_view
from companion.sim.bots import Table, seat_bots
from companion.sim.learned import mix_named
from companion.sim.measures import Measures, measure
from companion.sim.strategies.mixes import Mix
from companion.sim.strategies.yard import Plan

if TYPE_CHECKING:
    from multiprocessing.pool import Pool as ProcessPool

OUTCOMES = ("escape", "parole", "all_caught", "time_up")
DAY_CAP = 30
WARDEN = "Warden"


class BotError(RuntimeError):
    """A bot asked for something the rules refuse: a bug in the bots, never a user error."""


def prisoner_names(n: int) -> list[str]:
    return [f"P{i + 1}" for i in range(n)]


def sim_rules(
    base: PrisonRules, prisoners: int, overrides: dict[str, Any] | None = None, cap: int = DAY_CAP
) -> tuple[PrisonRules, bool]:
    """The scenario's rules widened to ``prisoners`` (and any overrides); when they set no
    ``max_days`` the simulator's cap applies. Returns the rules and whether the cap applies."""
    changes: dict[str, Any] = dict(overrides or {})
    changes["min_prisoners"] = min(base.min_prisoners, prisoners)
    changes["max_prisoners"] = max(base.max_prisoners, prisoners)
    capped = changes.get("max_days", base.max_days) is None
    if capped:
        changes["max_days"] = cap
    return with_overrides(base, changes, "The simulation's rules"), capped


def game_seed(seed: int, label: str, index: int) -> str:
    return f"{seed}/{label}/{index}"


@dataclass(frozen=True)
class GameResult:
    outcome: str
    days: int
    nights_done: int
    measures: Measures = field(default_factory=Measures)


def _apply(state: PrisonState, command: PrisonCommand, bots: Table) -> PrisonState:
    if bots.log is not None:
        bots.log.append(command)
    events = PRISON_BREAK.decide(state, command)
    if isinstance(events, Refused):
        raise BotError(f"the rules refused a bot's command {command!r}: {events.reason}")
    return fold(PRISON_BREAK, state, events)


def _planning(state: PrisonState, bots: Table) -> tuple[PrisonState, Plan]:
    active = state.active()
    plan = bots.yard.plan(prisoner_view(state, active[0]))
    for name in active:
        bot = bots.prisoners[name]
        view = prisoner_view(state, name) if bot.reads_view_to_choose else None
        choice = bot.choose(plan, view)
        state = _apply(state, Choose(prisoner=name, choice=choice), bots)
    return _apply(state, ClosePlanning(), bots), plan


def _interviews(state: PrisonState, bots: Table, plan: Plan) -> PrisonState:
    warden = bots.warden
    warden.start_day()
    for name in warden.offer_order(warden_view(state)):
        bot = bots.prisoners[name]
        view = prisoner_view(state, name) if bot.reads_views else None
        deal = bot.accept_deal(view)
        state = _apply(state, Interview(prisoner=name, deal=deal), bots)
        if state.over:
            return state
        if deal:
            warden.hear(name, bot.tell(plan, view))
            if state.day.deals >= state.rules.parole_tokens_per_day:
                break
    return state


def _search(state: PrisonState, bots: Table) -> PrisonState:
    while state.phase in ("interviews", "search"):
        state = _apply(state, Search(prisoner=bots.warden.search(warden_view(state))), bots)
    return state


def _accusations(state: PrisonState, bots: Table) -> PrisonState:
    habits = {bot.habit for bot in bots.prisoners.values() if bot.strategy.accuses}
    yard_view = prisoner_view(state, state.active()[0])
    triggered = [bots.yard.after_reveal(yard_view, habit) for habit in sorted(habits)]
    if not any(triggered):
        return state
    for name in state.active():
        me = state.prisoners[name]
        # The table shows everyone's shivs, so a prisoner without one is not even asked.
        if not me.active or me.shivs < 1 or not bots.prisoners[name].strategy.accuses:
            continue
        accused = bots.prisoners[name].accuse(prisoner_view(state, name))
        if accused is not None:
            state = _apply(state, Accuse(accuser=name, accused=accused), bots)
    return state


def play_game(
    rules: PrisonRules, prisoners: int, mix: Mix, rng: random.Random,
    log: list[PrisonCommand] | None = None, names: list[str] | None = None,
    warden: str = WARDEN,
) -> GameResult:
    """One whole game: bots decide from their views; the engine decides what happens. With
    ``log``, every command played is appended to it (a game script's commands)."""
    names = names or prisoner_names(prisoners)
    state = new_game(rules, warden, names)
    bots = seat_bots(mix, names, rng)
    bots.log = log
    while not state.over:
        state, plan = _planning(state, bots)
        state = _interviews(state, bots, plan)
        if state.over:
            break
        state = _search(state, bots)
        if state.over:
            break
        state = _accusations(state, bots)
        state = _apply(state, EndDay(), bots)
    assert state.outcome is not None
    return GameResult(state.outcome, state.day.number, state.nights_done, measure(state))


@dataclass
class Tally:
    """Outcome counts, total game length and how the games were played, of a batch."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    days: int = 0
    measures: Measures = field(default_factory=Measures)

    @property
    def games(self) -> int:
        return sum(self.counts.values())

    def add(self, result: GameResult) -> None:
        self.counts[result.outcome] += 1
        self.days += result.days
        self.measures.add(result.measures)

    def merge(self, other: Tally) -> None:
        for k, v in other.counts.items():
            self.counts[k] += v
        self.days += other.days
        self.measures.add(other.measures)


@dataclass(frozen=True)
class Batch:
    """Games ``start`` to ``stop - 1`` of one setting."""

    rules: PrisonRules
    prisoners: int
    mix: str
    seed: int
    label: str
    start: int
    stop: int


def play_batch(batch: Batch) -> Tally:
    tally = Tally()
    mix = mix_named(batch.mix)
    for i in range(batch.start, batch.stop):
        rng = random.Random(game_seed(batch.seed, batch.label, i))
        tally.add(play_game(batch.rules, batch.prisoners, mix, rng))
    return tally


def default_jobs() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def start_method(preferred: str) -> str:
    """``preferred`` ("fork", "forkserver") where this system has it and it is safe, else
    "spawn": Windows has only that, and on macOS a forked child may crash in the system's
    libraries, which start threads of their own (Python itself spawns there since 3.8)."""
    import multiprocessing
    import sys

    if sys.platform == "darwin":
        return "spawn"
    return preferred if preferred in multiprocessing.get_all_start_methods() else "spawn"


class Pool:
    """A pool of worker processes (or none, for ``jobs == 1``) that plays batches."""

    def __init__(self, jobs: int) -> None:
        """The workers are forked at once (started afresh where the system cannot fork): make
        the pool before starting any threads (the console makes it before the app runs)."""
        self.jobs = jobs
        self.on_games: Callable[[int], None] | None = None  # told each batch's games, as played
        self._pool: ProcessPool | None = None
        if jobs > 1:
            import multiprocessing

            self._pool = multiprocessing.get_context(start_method("fork")).Pool(jobs)

    def map(self, batches: Sequence[Batch]) -> Iterable[Tally]:
        """Tallies in the order of the batches, as they come."""
        if self._pool is None:
            tallies: Iterable[Tally] = (play_batch(b) for b in batches)
        else:
            tallies = self._pool.imap(play_batch, batches)
        return tallies if self.on_games is None else self._counted(tallies, self.on_games)

    @staticmethod
    def _counted(tallies: Iterable[Tally], told: Callable[[int], None]) -> Iterator[Tally]:
        for tally in tallies:
            told(tally.games)
            yield tally

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def split(
    rules: PrisonRules, prisoners: int, mix: str, seed: int, label: str, start: int, stop: int,
    size: int,
) -> list[Batch]:
    return [
        Batch(rules, prisoners, mix, seed, label, a, min(a + size, stop))
        for a in range(start, stop, size)
    ]


def run_games(
    pool: Pool,
    rules: PrisonRules,
    prisoners: int,
    mix: str,
    seed: int,
    games: int,
    label: str = "simulate",
    on_progress: Callable[[int], None] | None = None,
    batch_size: int = 100,
) -> Tally:
    total = Tally()
    for tally in pool.map(split(rules, prisoners, mix, seed, label, 0, games, batch_size)):
        total.merge(tally)
        if on_progress is not None:
            on_progress(total.games)
    return total
