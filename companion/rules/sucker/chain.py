"""The chain of consequences one command can set off in So Long Sucker: the move given on, a
player with no chips awaiting rescue, a defeat that hands the move back along the givers (R6)
and may leave a player without chips in turn, and the last live player winning."""

from __future__ import annotations

from companion.rules.sucker.events import (
    GameWon,
    MoveGiven,
    PlayerDefeated,
    RescueAwaited,
    SuckerEvent,
)
from companion.rules.sucker.state import SuckerState, evolve


def return_target(state: SuckerState, defeated: str) -> str:
    """R6: the nearest live player back along the givers, else the next live one in seating."""
    seen = {defeated}
    giver = state.givers.get(defeated)
    while giver is not None and giver not in seen:
        if state.is_live(giver):
            return giver
        seen.add(giver)
        giver = state.givers.get(giver)
    names = state.names
    at = names.index(defeated)
    for step in range(1, len(names)):
        name = names[(at + step) % len(names)]
        if state.is_live(name):
            return name
    raise ValueError("no live player is left to take the move")


class Chain:
    """The consequences of one command, worked out on a scratch state: each is emitted as an
    event and folded in, so a capture, a rebound, a rescue or a defeat can lead to the next."""

    def __init__(self, state: SuckerState) -> None:
        self.state = state
        self.events: list[SuckerEvent] = []

    def emit(self, event: SuckerEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    def give_move(self, player: str, by: str | None) -> None:
        self.emit(MoveGiven(player, by))
        self.check_in_need(player)

    def check_in_need(self, player: str) -> None:
        """A player with the move and no chips awaits rescue, or is defeated (5, R5)."""
        state = self.state
        if state.chips_held(player):
            return
        if any(n != player and state.holds_prisoners(n) for n in state.live()):
            self.emit(RescueAwaited(player))
        else:
            self.defeat(player)

    def defeat(self, player: str) -> None:
        self.emit(PlayerDefeated(player))
        live = self.state.live()
        if len(live) == 1:
            self.emit(GameWon(live[0]))
            return
        self.give_move(return_target(self.state, player), None)

    def after_holdings_change(self, player: str) -> None:
        """After a kill or a transfer: a rescue may be settled, or the mover left empty-handed."""
        a = self.state.awaiting
        if a.what == "rescue" and a.player is not None and not self.state.rescuers_pending():
            self.defeat(a.player)
        elif a.what == "play" and a.player == player:
            self.check_in_need(player)
