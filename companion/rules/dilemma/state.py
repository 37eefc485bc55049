"""The state of a dilemma tournament, and how each event changes it (a pure fold)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal

from companion.rules.dilemma.commands import Choice
from companion.rules.dilemma.events import (
    CameBack,
    Chose,
    DilemmaEvent,
    DoorsClosed,
    DoorsOpened,
    Ended,
    HouseChose,
    HouseSet,
    Joined,
    Left,
    Outcome,
    Renamed,
    RoundRevealed,
    RoundStarted,
)
from companion.rules.dilemma.pairing import Plan, key
from companion.rules.dilemma.scenario import DilemmaRules
from companion.rules.dilemma.strategies import NAMES, Strategy

HOUSE = "~house"  # house seats are ~house1, ~house2, ...: no player's id can start with "~"
# The house player's label in every language the warm-up speaks ("House (Tit for Tat)" and its
# translations): no player's name may read like it (tests/rules check them against the catalogs).
HOUSE_WORDS = ("House", "Haus", "Maison", "Casa")
# Who runs the game, in every language the warm-up speaks (the catalogs' words, and what the
# room says aloud): no player's name may read like them, so nobody poses as the staff.
STAFF_WORDS = (
    "Game master", "GM", "Meneur de jeu", "Maître du jeu", "MJ", "Spielleitung", "Spielleiter",
    "Spielleiterin", "SL", "Director de juego", "Directora de juego", "Máster", "DJ",
    "Warden", "Gardien", "Gardienne", "Wärter", "Wärterin", "Carcelero", "Carcelera",
    "Admin", "Administrator", "Administrateur", "Administratrice", "Administratorin",
    "Administrador", "Administradora",
)


def is_house(pid: str) -> bool:
    return pid.startswith(HOUSE)


_rostered: list[tuple[tuple[Player, ...], Roster]] = []


def _roster(players: tuple[Player, ...]) -> Roster:
    """The players by id, and the ids and names of those still in, made once per tuple of
    players (the latest tuple's only: every state after a choice shares it; tuples are
    immutable and held here, so their identity cannot be reused while remembered)."""
    last = _rostered[-1] if _rostered else None  # read once: another thread may replace it
    if last is not None and last[0] is players:
        return last[1]
    made: Roster = (
        {p.pid: p for p in players},
        tuple(p.pid for p in players if p.present),
        tuple(p.name for p in players if p.present),
    )
    _rostered[:] = [(players, made)]
    return made


Phase = Literal["lobby", "choosing", "revealed", "over"]


@dataclass(frozen=True)
class Player:
    pid: str
    name: str
    present: bool = True
    drawn: bool = False  # drawn into a round (paired or sitting out) at least once


# the players by id; the ids, then the names, of those still in
Roster = tuple[dict[str, Player], tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class Round:
    number: int
    pairs: tuple[tuple[str, str], ...]
    sitting_out: tuple[str, ...]
    choices: Mapping[str, Choice] = field(default_factory=dict)  # secret until revealed
    outcomes: tuple[Outcome, ...] = ()
    sitting_out_months: int = 0
    revealed: bool = False
    closed_early: bool = False
    timed_out: bool = False
    seed: int = 0
    # The strategy each house seat played in this round, from its ``house_chose`` (made at the
    # reveal): the round keeps it when the game master changes the house player afterwards.
    houses: Mapping[str, Strategy] = field(default_factory=dict)

    @cached_property
    def _partners(self) -> dict[str, str]:
        """Each paired seat's partner, made once per round value (a round never changes)."""
        partners: dict[str, str] = {}
        for a, b in self.pairs:
            partners[a], partners[b] = b, a
        return partners

    @cached_property
    def people(self) -> tuple[str, ...]:
        """The paired players, house seats left out, in the order of the pairs."""
        return tuple(p for pair in self.pairs for p in pair if not is_house(p))

    @cached_property
    def _houses(self) -> frozenset[str]:
        """The paired house seats (a few at most)."""
        return frozenset(p for pair in self.pairs for p in pair if is_house(p))

    def partner(self, pid: str) -> str | None:
        return self._partners.get(pid)

    def paired(self) -> list[str]:
        return [p for pair in self.pairs for p in pair]

    def chosen_count(self) -> int:
        """How many of the paired players have chosen (a house seat's choice not counted).
        Only paired seats have choices (a player unpaired mid-round takes theirs along)."""
        return len(self.choices) - len(self.choices.keys() & self._houses)


@dataclass(frozen=True)
class DilemmaState:
    rules: DilemmaRules
    players: tuple[Player, ...] = ()
    rounds: tuple[Round, ...] = ()
    phase: Phase = "lobby"
    ended_early: bool = False
    plan: Plan | None = None
    plan_step: int = 0
    house: Strategy = "tit_for_tat"
    doors_closed: bool = False  # the game master closed the doors: nobody may join

    # ---- looking things up ----------------------------------------------------------------

    @cached_property
    def _by_pid(self) -> dict[str, Player]:
        """Each player by id, made once per list of players: a choice makes a new state with
        the same players, and indexing 1,000 of them at each choice was most of its cost."""
        return _roster(self.players)[0]

    def player(self, pid: str) -> Player | None:
        return self._by_pid.get(pid)

    def name(self, pid: str) -> str:
        if is_house(pid):
            return self.house_name()
        p = self.player(pid)
        return p.name if p else pid

    def house_name(self, strategy: Strategy | None = None) -> str:
        """``House (Tit for Tat)``: the house player playing ``strategy`` (by default the one
        it plays now, in the open round or the next)."""
        return f"House ({NAMES[strategy or self.house]})"

    def seat_name(self, r: Round, pid: str) -> str:
        """A name as round ``r`` knows it: a house seat that played ``r`` under the strategy
        it played (whatever the house player plays now)."""
        strategy = r.houses.get(pid) if is_house(pid) else None
        return self.house_name(strategy) if strategy is not None else self.name(pid)

    def house_history(self, seat: str) -> list[tuple[Choice, Choice]]:
        """What happened in a house seat's revealed rounds: (its choice, its partner's)."""
        seen: list[tuple[Choice, Choice]] = []
        for r in self.rounds:
            for o in r.outcomes:
                if o.a == seat:
                    seen.append((o.choice_a, o.choice_b))
                elif o.b == seat:
                    seen.append((o.choice_b, o.choice_a))
        return seen

    def present(self) -> list[str]:
        return list(_roster(self.players)[1])

    def present_names(self) -> tuple[str, ...]:
        """The names of the players still in, in the order they joined."""
        return _roster(self.players)[2]

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def open_round(self) -> Round | None:
        """The round being chosen now, if any."""
        r = self.current
        return r if r is not None and self.phase == "choosing" else None

    @cached_property
    def _months(self) -> dict[str, int]:
        """Total months per player over the revealed rounds. A player in the tournament who
        took no part in a round (they joined after it began, or were away) serves it as if
        they had sat it out: joining late is no way to a shorter sentence."""
        total = {p.pid: 0 for p in self.players}  # made once per state (a state never changes)
        for r in self.rounds:
            if not r.revealed:
                continue
            for o in r.outcomes:
                total[o.a] = total.get(o.a, 0) + o.months_a
                total[o.b] = total.get(o.b, 0) + o.months_b
            for pid in (*r.sitting_out, *self.missed(r)):
                total[pid] = total.get(pid, 0) + r.sitting_out_months
        return total

    def months(self) -> dict[str, int]:
        """Total months per player over the revealed rounds (see ``_months``); read only."""
        return self._months

    def missed(self, r: Round) -> list[str]:
        """Players now in the tournament who were neither paired nor sitting out in ``r``."""
        took_part = {*r.sitting_out, *(pid for o in r.outcomes for pid in (o.a, o.b))}
        return [p.pid for p in self.players if p.present and p.pid not in took_part]

    def met(self) -> dict[frozenset[str], int]:
        counts: dict[frozenset[str], int] = {}
        for r in self.rounds:
            for a, b in r.pairs:
                counts[key(a, b)] = counts.get(key(a, b), 0) + 1
        return counts

    def sat_out(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for r in self.rounds:
            for pid in r.sitting_out:
                counts[pid] = counts.get(pid, 0) + 1
        return counts

    def waiting(self) -> list[str]:
        """Paired players of the open round who have not chosen yet."""
        r = self.open_round()
        if r is None:
            return []
        if r.chosen_count() == len(r.people):
            return []
        return [p for p in r.people if p not in r.choices]

    def all_chosen(self) -> bool:
        """Whether every paired player of the open round has chosen (none open: true)."""
        r = self.open_round()
        return r is None or r.chosen_count() == len(r.people)


def new_state(rules: DilemmaRules) -> DilemmaState:
    return DilemmaState(rules, house=rules.house)


def _set_player(state: DilemmaState, pid: str, change: Callable[[Player], Player]) -> DilemmaState:
    players = tuple(change(p) if p.pid == pid else p for p in state.players)
    return replace(state, players=players)


# What a round works out from its pairs alone (``Round``'s cached properties): a round with
# the same pairs (a choice made, a reveal) keeps them instead of working them out again.
_FROM_PAIRS = ("_partners", "people", "_houses")


def _set_current(state: DilemmaState, current: Round) -> DilemmaState:
    old = state.rounds[-1] if state.rounds else None
    if old is not None and old.pairs is current.pairs:
        made = {k: old.__dict__[k] for k in _FROM_PAIRS if k in old.__dict__}
        current.__dict__.update(made)  # cached_property's own store; the fields stay frozen
    return replace(state, rounds=(*state.rounds[:-1], current))


def evolve(state: DilemmaState, event: DilemmaEvent) -> DilemmaState:
    if isinstance(event, Joined):
        return replace(state, players=(*state.players, Player(event.pid, event.name)))
    if isinstance(event, Renamed):
        return _set_player(state, event.pid, lambda p: replace(p, name=event.name))
    if isinstance(event, Left):
        state = _set_player(state, event.pid, lambda p: replace(p, present=False))
        r = state.open_round()
        if r is not None and r.partner(event.pid) is not None:
            partner = event.partner
            pairs = tuple(p for p in r.pairs if event.pid not in p)
            choices = {k: v for k, v in r.choices.items() if k != event.pid}
            out = r.sitting_out
            if partner is not None and event.house is not None:  # the house takes the seat
                pairs += ((partner, event.house),)
            elif partner is not None and not is_house(partner):  # a log from before the house
                choices.pop(partner, None)
                out += (partner,)
            state = _set_current(state, replace(r, pairs=pairs, choices=choices, sitting_out=out))
        return state
    if isinstance(event, CameBack):
        return _set_player(state, event.pid, lambda p: replace(p, present=True))
    if isinstance(event, DoorsClosed):
        return replace(state, doors_closed=True)
    if isinstance(event, DoorsOpened):
        return replace(state, doors_closed=False)
    if isinstance(event, RoundStarted):
        started = Round(event.number, event.pairs, event.sitting_out, seed=event.seed)
        drawn = {*started.paired(), *started.sitting_out}
        players = tuple(
            replace(p, drawn=True) if not p.drawn and p.pid in drawn else p for p in state.players
        )
        return replace(
            state,
            players=players,
            rounds=(*state.rounds, started),
            phase="choosing",
            plan=event.plan,
            plan_step=event.plan_step,
        )
    if isinstance(event, Chose):
        r = state.current
        assert r is not None
        return _set_current(state, replace(r, choices={**r.choices, event.pid: event.choice}))
    if isinstance(event, HouseChose):
        r = state.current
        assert r is not None
        houses = {**r.houses, event.seat: event.strategy}
        choices = {**r.choices, event.seat: event.choice}
        return _set_current(state, replace(r, choices=choices, houses=houses))
    if isinstance(event, HouseSet):
        return replace(state, house=event.strategy)
    if isinstance(event, RoundRevealed):
        r = state.current
        assert r is not None
        revealed = replace(
            r,
            outcomes=event.outcomes,
            sitting_out_months=event.sitting_out_months,
            revealed=True,
            closed_early=event.closed_early,
            timed_out=event.timed_out,
        )
        return replace(_set_current(state, revealed), phase="revealed")
    if isinstance(event, Ended):
        return replace(state, phase="over", ended_early=event.early)
    raise ValueError(f"unknown event {event!r}")
