"""So Long Sucker: each command is checked against the state and refused with a reason or
turned into events (spec: ``shared/spec/so-long-sucker.md``).

``decide`` works on a scratch copy of the state (:class:`_Work`) so that a single command can
state a whole chain of consequences: a capture, a rebound, a player in need of rescue, a defeat
that hands the move back along the givers and defeats the next one, and so on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules.core import registry
from companion.rules.core.game import Refused
from companion.rules.core.roster import RosterError, check_name
from companion.rules.sucker.commands import (
    Kill,
    KillPrisoner,
    Next,
    Play,
    Refuse,
    SuckerCommand,
    Transfer,
    command_to_dict,
    parse_command,
)
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
    event_from_dict,
    event_to_dict,
)
from companion.rules.sucker.state import Seat, SuckerState, evolve, new_game

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_CHIPS = 30
MAX_COLOR = 20


class SetupError(ValueError):
    """A setup that cannot be played; the message is one clear sentence."""


class _No(Exception):
    """Raised inside ``decide`` to refuse; turned into :class:`Refused` at its edge."""


def _or_list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


# ---- what the rules say ---------------------------------------------------------------------


def choices_for_next(state: SuckerState, pile: int) -> list[str]:
    """The live players whose color is not in ``pile`` (spec, A move, 3)."""
    colors = set(state.piles.get(pile, ()))
    return [n for n in state.live() if state.color_of(n) not in colors]


def deepest_player(state: SuckerState, pile: int) -> str:
    """The live player whose topmost chip of their color lies deepest in ``pile``."""
    chips = state.piles[pile]

    def top(name: str) -> int:
        color = state.color_of(name)
        return max(i for i, c in enumerate(chips) if c == color)

    return min(state.live(), key=top)


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


def playable_colors(state: SuckerState, name: str) -> list[str]:
    """The colors ``name`` could play, in seating order."""
    return [c for c in state.colors if state.holdings[name].get(c, 0) > 0]


def awaiting_text(state: SuckerState) -> str:
    """What the table is waiting for, as one sentence."""
    a = state.awaiting
    if a.what == "over":
        return f"The game is over: {state.winner} won."
    if a.what == "play":
        return f"{a.player} must play a chip."
    if a.what == "next":
        assert a.pile is not None
        options = _or_list(choices_for_next(state, a.pile))
        return f"{a.player} must name the next player ({options})."
    if a.what == "kill":
        return f"{a.player} captured pile {a.pile} and must kill one chip from it."
    pending = _or_list(state.rescuers_pending())
    return f"{a.player} holds no chips and awaits rescue (from {pending})."


# ---- the scratch state used by decide -------------------------------------------------------


class _Work:
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


# ---- checks ---------------------------------------------------------------------------------


def _player(state: SuckerState, name: str, role: str = "") -> None:
    if name not in state.holdings:
        raise _No(
            f"There is no player called {name!r}; the players are {', '.join(state.names)}."
        )
    if name in state.defeated:
        who = f"{name} ({role})" if role else name
        raise _No(f"{who} is defeated and out of the game.")


def _color(state: SuckerState, color: str) -> None:
    if color not in state.colors:
        raise _No(f"There is no color {color!r} in this game; use {_or_list(state.colors)}.")


def _waiting_for(state: SuckerState, what: str, doing: str) -> None:
    if state.awaiting.what != what:
        raise _No(f"Nobody can {doing} now: {awaiting_text(state)}")


def _prisoner(state: SuckerState, player: str, color: str, doing: str) -> None:
    _player(state, player)
    _color(state, color)
    if state.color_of(player) == color:
        raise _No(f"Nobody may {doing} chips of their own color, and {player}'s color is {color}.")
    if not state.holdings[player].get(color, 0):
        raise _No(f"{player} holds no {color} prisoner.")


# ---- commands -------------------------------------------------------------------------------


def _play(work: _Work, cmd: Play) -> None:
    state = work.state
    _waiting_for(state, "play", "play a chip")
    _player(state, cmd.player)
    if cmd.player != state.awaiting.player:
        raise _No(f"It is {state.awaiting.player}'s move, not {cmd.player}'s.")
    _color(state, cmd.color)
    if not state.holdings[cmd.player].get(cmd.color, 0):
        held = _or_list(playable_colors(state, cmd.player))
        raise _No(f"{cmd.player} holds no {cmd.color} chip; they can play {held}.")
    if cmd.pile == "new":
        pile, new = state.next_pile, True
    elif cmd.pile in state.piles:
        pile, new = cmd.pile, False
    else:
        numbers = ", ".join(str(n) for n in state.piles) or "none yet"
        raise _No(f"There is no pile {cmd.pile} (piles: {numbers}); play on one or on \"new\".")
    work.emit(ChipPlayed(cmd.player, cmd.color, pile, new))
    chips = work.state.piles[pile]
    if len(chips) >= 2 and chips[-1] == chips[-2]:
        capturer = work.state.owner_of(cmd.color)
        if capturer in work.state.defeated:
            work.emit(PileKilled(pile))
            work.give_move(cmd.player, None)  # R4: the move rebounds; the giver stays
        else:
            work.emit(CaptureAwaited(capturer, pile, cmd.player))
        return
    options = choices_for_next(work.state, pile)
    if len(options) > 1:
        work.emit(ChoiceAwaited(cmd.player, pile))
    elif len(options) == 1:
        work.give_move(options[0], cmd.player)  # R1
    else:
        work.give_move(deepest_player(work.state, pile), cmd.player)


def _next(work: _Work, cmd: Next) -> None:
    state = work.state
    _waiting_for(state, "next", "name the next player")
    _player(state, cmd.player)
    pile = state.awaiting.pile
    assert pile is not None
    options = choices_for_next(state, pile)
    if cmd.player not in options:
        color = state.color_of(cmd.player)
        raise _No(
            f"{cmd.player}'s color {color} is already in pile {pile}; "
            f"choose {_or_list(options)}."
        )
    mover = state.awaiting.player
    work.give_move(cmd.player, mover)


def _kill(work: _Work, cmd: Kill) -> None:
    state = work.state
    _waiting_for(state, "kill", "kill a chip from a captured pile")
    a = state.awaiting
    assert a.pile is not None and a.by is not None
    if cmd.player != a.player:
        raise _No(f"Pile {a.pile} was captured by {a.player}, not {cmd.player}.")
    chips = state.piles[a.pile]
    if cmd.color not in chips:
        options = _or_list([c for c in state.colors if c in chips])
        raise _No(f"Pile {a.pile} holds no {cmd.color} chip; kill {options}.")
    work.emit(PileTaken(cmd.player, a.pile, cmd.color))
    work.give_move(cmd.player, a.by)


def _transfer(work: _Work, cmd: Transfer) -> None:
    state = work.state
    _prisoner(state, cmd.player, cmd.color, "transfer")
    if cmd.to not in state.holdings:
        raise _No(
            f"There is no player called {cmd.to!r}; the players are {', '.join(state.names)}."
        )
    if cmd.to == cmd.player:
        raise _No(f"{cmd.player} cannot transfer a chip to themselves; name another player.")
    if cmd.to in state.defeated:
        raise _No(f"{cmd.to} is defeated; chips go to live players only.")
    work.emit(PrisonerTransferred(cmd.player, cmd.color, cmd.to))
    a = work.state.awaiting
    if a.what == "rescue" and a.player == cmd.to:
        work.give_move(cmd.to, None)  # R3: rescued, and must move
    else:
        work.after_holdings_change(cmd.player)


def _kill_prisoner(work: _Work, cmd: KillPrisoner) -> None:
    _prisoner(work.state, cmd.player, cmd.color, "kill")
    work.emit(PrisonerKilled(cmd.player, cmd.color))
    work.after_holdings_change(cmd.player)


def _refuse(work: _Work, cmd: Refuse) -> None:
    state = work.state
    _waiting_for(state, "rescue", "refuse a rescue")
    _player(state, cmd.player)
    need = state.awaiting.player
    if cmd.player == need:
        raise _No(f"{need} is the one awaiting rescue; only holders of prisoners refuse.")
    if cmd.player in state.awaiting.refused:
        raise _No(f"{cmd.player} has already refused to rescue {need}.")
    if not state.holds_prisoners(cmd.player):
        raise _No(f"{cmd.player} holds no prisoners, so has nothing to refuse.")
    work.emit(RescueRefused(cmd.player))
    work.after_holdings_change(cmd.player)


_HANDLERS: dict[type[Any], Any] = {
    Play: _play,
    Next: _next,
    Kill: _kill,
    Transfer: _transfer,
    KillPrisoner: _kill_prisoner,
    Refuse: _refuse,
}


def decide(state: SuckerState, command: SuckerCommand) -> Sequence[SuckerEvent] | Refused:
    if state.over:
        return Refused(f"The game is over ({state.winner} won); only undo is possible now.")
    work = _Work(state)
    try:
        _HANDLERS[type(command)](work, command)
    except _No as refusal:
        return Refused(str(refusal))
    return work.events


# ---- setup ----------------------------------------------------------------------------------


def _check_color(color: object, where: str) -> str:
    if not isinstance(color, str) or not color.strip():
        raise SetupError(f"{where} needs a color, such as \"red\".")
    if color != color.strip() or len(color) > MAX_COLOR or any(ord(c) < 32 for c in color):
        raise SetupError(
            f"{where} has the color {color!r}; use a plain word of at most {MAX_COLOR} letters."
        )
    return color


def seats_from(players: object) -> list[Seat]:
    if not isinstance(players, list):
        raise SetupError("'players' must be a list of {\"name\", \"color\"} objects.")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(
            f"So Long Sucker takes {MIN_PLAYERS} to {MAX_PLAYERS} players, "
            f"not {len(players)}; change the list of players."
        )
    seats: list[Seat] = []
    for i, player in enumerate(players):
        where = f"Player #{i + 1}"
        if not isinstance(player, Mapping) or set(player) != {"name", "color"}:
            raise SetupError(f"{where} must be an object with exactly 'name' and 'color'.")
        try:
            name = check_name(player["name"], f"player #{i + 1}")
        except RosterError as error:
            raise SetupError(str(error)) from None
        seats.append(Seat(name, _check_color(player["color"], f"{where} ({name})")))
    for attr, what in (("name", "name"), ("color", "color")):
        seen: set[str] = set()
        for seat in seats:
            value = getattr(seat, attr).casefold()
            if value in seen:
                raise SetupError(
                    f"The {what} {getattr(seat, attr)!r} is used twice; "
                    f"every player needs their own {what}."
                )
            seen.add(value)
    return seats


def initial_state(setup: Mapping[str, Any]) -> SuckerState:
    """The first state from a JSON setup: players, chips_per_player (7), first."""
    seats = seats_from(setup.get("players"))
    chips = setup.get("chips_per_player", 7)
    if isinstance(chips, bool) or not isinstance(chips, int) or not 1 <= chips <= MAX_CHIPS:
        raise SetupError(f"'chips_per_player' must be a whole number from 1 to {MAX_CHIPS}.")
    first = setup.get("first")
    names = [s.name for s in seats]
    if first not in names:
        raise SetupError(
            f"The first mover {first!r} is not one of the players; name one of {', '.join(names)}."
        )
    assert isinstance(first, str)
    return new_game(seats, chips, first)


# ---- the engine -----------------------------------------------------------------------------


class SoLongSucker:
    """The So Long Sucker engine, as a :class:`companion.rules.core.game.Game`."""

    name = "so-long-sucker"

    def parse_command(self, data: Mapping[str, Any]) -> SuckerCommand:
        return parse_command(data)

    def command_to_dict(self, command: SuckerCommand) -> dict[str, Any]:
        return command_to_dict(command)

    def decide(self, state: SuckerState, command: SuckerCommand) -> Sequence[SuckerEvent] | Refused:
        return decide(state, command)

    def evolve(self, state: SuckerState, event: SuckerEvent) -> SuckerState:
        return evolve(state, event)

    def event_to_dict(self, event: SuckerEvent) -> dict[str, Any]:
        return event_to_dict(event)

    def event_from_dict(self, data: Mapping[str, Any]) -> SuckerEvent:
        return event_from_dict(data)


SO_LONG_SUCKER = SoLongSucker()


def _kind() -> registry.GameKind:
    return registry.GameKind("so-long-sucker", "So Long Sucker", SO_LONG_SUCKER, initial_state)


registry.register("so-long-sucker", _kind)

__all__ = ["SO_LONG_SUCKER", "SetupError", "SoLongSucker", "decide", "evolve", "initial_state"]
