"""So Long Sucker's state, and ``evolve``: the state is a fold of the events (see
:mod:`companion.rules.sucker.events`), and folding needs no rule knowledge at all."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Literal

from companion.rules.sucker.events import (
    CaptureAwaited,
    ChipPlayed,
    ChoiceAwaited,
    GameWon,
    MoveGiven,
    PileKilled,
    PileTaken,
    PlayerDefeated,
    PrisonerKilled,
    PrisonerTransferred,
    RescueAwaited,
    RescueRefused,
    SuckerEvent,
)

What = Literal["play", "next", "kill", "rescue", "over"]


@dataclass(frozen=True)
class Seat:
    name: str
    color: str


@dataclass(frozen=True)
class Awaiting:
    """Who must act now, and on what.

    ``pile`` is the pile just played on (``next``) or the captured pile (``kill``); ``by`` is
    who played the capturing chip (``kill``); ``refused`` lists who declined a rescue.
    """

    what: What
    player: str | None
    pile: int | None = None
    by: str | None = None
    refused: tuple[str, ...] = ()


def _frozen(d: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(d)


@dataclass(frozen=True)
class SuckerState:
    seats: tuple[Seat, ...]
    chips_per_player: int
    first: str
    holdings: Mapping[str, Mapping[str, int]]  # name -> color -> count (no zeros)
    piles: Mapping[int, tuple[str, ...]]  # number -> colors, bottom to top
    awaiting: Awaiting
    next_pile: int = 1
    dead: Mapping[str, int] = dataclasses.field(default_factory=lambda: _frozen({}))
    defeated: tuple[str, ...] = ()
    givers: Mapping[str, str] = dataclasses.field(default_factory=lambda: _frozen({}))
    winner: str | None = None
    plays: int = 0

    # ---- reading ----------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def colors(self) -> tuple[str, ...]:
        return tuple(seat.color for seat in self.seats)

    @property
    def over(self) -> bool:
        return self.awaiting.what == "over"

    def color_of(self, name: str) -> str:
        for seat in self.seats:
            if seat.name == name:
                return seat.color
        raise KeyError(name)

    def owner_of(self, color: str) -> str:
        for seat in self.seats:
            if seat.color == color:
                return seat.name
        raise KeyError(color)

    def is_live(self, name: str) -> bool:
        return name in self.holdings and name not in self.defeated

    def live(self) -> list[str]:
        return [n for n in self.names if n not in self.defeated]

    def chips_held(self, name: str) -> int:
        return sum(self.holdings[name].values())

    def prisoners_of(self, name: str) -> dict[str, int]:
        """The chips ``name`` holds that are not their own color."""
        own = self.color_of(name)
        return {c: n for c, n in self.holdings[name].items() if c != own}

    def holds_prisoners(self, name: str) -> bool:
        return bool(self.prisoners_of(name))

    def rescuers_pending(self) -> list[str]:
        """R5: live holders of prisoners who have not yet refused the player awaiting rescue."""
        need = self.awaiting.player
        return [
            n
            for n in self.live()
            if n != need and self.holds_prisoners(n) and n not in self.awaiting.refused
        ]

    def chips_in_play(self) -> int:
        held = sum(self.chips_held(n) for n in self.names)
        return held + sum(len(p) for p in self.piles.values())


def new_game(seats: list[Seat], chips_per_player: int, first: str) -> SuckerState:
    holdings = {s.name: _frozen({s.color: chips_per_player}) for s in seats}
    return SuckerState(
        seats=tuple(seats),
        chips_per_player=chips_per_player,
        first=first,
        holdings=_frozen(holdings),
        piles=_frozen({}),
        awaiting=Awaiting("play", first),
    )


# ---- the fold -----------------------------------------------------------------------------


def _add(
    holdings: Mapping[str, Mapping[str, int]], name: str, color: str, n: int
) -> Mapping[str, Mapping[str, int]]:
    mine = dict(holdings[name])
    count = mine.get(color, 0) + n
    if count < 0:
        raise ValueError(f"{name} would hold {count} chips of {color}")
    if count:
        mine[color] = count
    else:
        mine.pop(color, None)
    return _frozen({**holdings, name: _frozen(mine)})


def _kill(dead: Mapping[str, int], colors: tuple[str, ...]) -> Mapping[str, int]:
    out = dict(dead)
    for color in colors:
        out[color] = out.get(color, 0) + 1
    return _frozen(out)


def _without_pile(state: SuckerState, pile: int) -> Mapping[int, tuple[str, ...]]:
    return _frozen({k: v for k, v in state.piles.items() if k != pile})


def evolve(state: SuckerState, event: SuckerEvent) -> SuckerState:
    if isinstance(event, ChipPlayed):
        chips = (*state.piles.get(event.pile, ()), event.color)
        return replace(
            state,
            holdings=_add(state.holdings, event.player, event.color, -1),
            piles=_frozen({**state.piles, event.pile: chips}),
            next_pile=max(state.next_pile, event.pile + 1) if event.new else state.next_pile,
            plays=state.plays + 1,
        )
    if isinstance(event, ChoiceAwaited):
        return replace(state, awaiting=Awaiting("next", event.mover, pile=event.pile))
    if isinstance(event, MoveGiven):
        givers = state.givers
        if event.by is not None and event.by != event.player:
            givers = _frozen({**givers, event.player: event.by})
        return replace(state, awaiting=Awaiting("play", event.player), givers=givers)
    if isinstance(event, CaptureAwaited):
        awaiting = Awaiting("kill", event.capturer, pile=event.pile, by=event.by)
        return replace(state, awaiting=awaiting)
    if isinstance(event, PileTaken):
        taken = list(state.piles[event.pile])
        taken.remove(event.killed)
        holdings = state.holdings
        for color in taken:
            holdings = _add(holdings, event.player, color, 1)
        return replace(
            state,
            holdings=holdings,
            piles=_without_pile(state, event.pile),
            dead=_kill(state.dead, (event.killed,)),
        )
    if isinstance(event, PileKilled):
        return replace(
            state,
            piles=_without_pile(state, event.pile),
            dead=_kill(state.dead, state.piles[event.pile]),
        )
    if isinstance(event, RescueAwaited):
        return replace(state, awaiting=Awaiting("rescue", event.player))
    if isinstance(event, RescueRefused):
        refused = (*state.awaiting.refused, event.holder)
        return replace(state, awaiting=replace(state.awaiting, refused=refused))
    if isinstance(event, PrisonerTransferred):
        holdings = _add(state.holdings, event.player, event.color, -1)
        return replace(state, holdings=_add(holdings, event.to, event.color, 1))
    if isinstance(event, PrisonerKilled):
        return replace(
            state,
            holdings=_add(state.holdings, event.player, event.color, -1),
            dead=_kill(state.dead, (event.color,)),
        )
    if isinstance(event, PlayerDefeated):
        return replace(state, defeated=(*state.defeated, event.player))
    if isinstance(event, GameWon):
        return replace(state, winner=event.player, awaiting=Awaiting("over", None))
    raise TypeError(f"unknown event {event!r}")
