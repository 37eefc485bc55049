"""So Long Sucker: each command is checked against the state and refused with a reason or
turned into events (rules: ``docs/rules/so-long-sucker.md``).

``decide`` works on a :class:`~companion.rules.sucker.chain.Chain` so that a single command can
state a whole chain of consequences: a capture, a rebound, a player in need of rescue, a defeat
that hands the move back along the givers and defeats the next one, and so on. Setting a game
up is :mod:`companion.rules.sucker.setup`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.rules.core.game import Engine, Refusal, Refused, refusing
from companion.rules.core.words import joined
from companion.rules.sucker.chain import Chain
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
    PileKilled,
    PileTaken,
    PrisonerKilled,
    PrisonerTransferred,
    RescueRefused,
    SuckerEvent,
    event_from_dict,
    event_to_dict,
)
from companion.rules.sucker.setup import MAX_CHIPS, SetupError, initial_state
from companion.rules.sucker.state import SuckerState, evolve

__all__ = [
    "MAX_CHIPS",
    "SO_LONG_SUCKER",
    "SetupError",
    "awaiting_text",
    "choices_for_next",
    "decide",
    "evolve",
    "initial_state",
    "playable_colors",
]


def _either(items: Sequence[str]) -> str:
    """``red``, ``red or blue``, ``red, blue or green``."""
    return joined(items, last="or")


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
        options = _either(choices_for_next(state, a.pile))
        return f"{a.player} must name the next player ({options})."
    if a.what == "kill":
        return f"{a.player} captured pile {a.pile} and must kill one chip from it."
    pending = _either(state.rescuers_pending())
    return f"{a.player} holds no chips and awaits rescue (from {pending})."


# ---- checks ---------------------------------------------------------------------------------


def _player(state: SuckerState, name: str, role: str = "") -> None:
    if name not in state.holdings:
        raise Refusal(
            f"There is no player called {name!r}; the players are {', '.join(state.names)}."
        )
    if name in state.defeated:
        who = f"{name} ({role})" if role else name
        raise Refusal(f"{who} is defeated and out of the game.")


def _color(state: SuckerState, color: str) -> None:
    if color not in state.colors:
        raise Refusal(f"There is no color {color!r} in this game; use {_either(state.colors)}.")


def _waiting_for(state: SuckerState, what: str, doing: str) -> None:
    if state.awaiting.what != what:
        raise Refusal(f"Nobody can {doing} now: {awaiting_text(state)}")


def _prisoner(state: SuckerState, player: str, color: str, doing: str) -> None:
    _player(state, player)
    _color(state, color)
    if state.color_of(player) == color:
        raise Refusal(
            f"Nobody may {doing} chips of their own color, and {player}'s color is {color}."
        )
    if not state.holdings[player].get(color, 0):
        raise Refusal(f"{player} holds no {color} prisoner.")


# ---- commands -------------------------------------------------------------------------------


def _play(work: Chain, cmd: Play) -> None:
    state = work.state
    _waiting_for(state, "play", "play a chip")
    _player(state, cmd.player)
    if cmd.player != state.awaiting.player:
        raise Refusal(f"It is {state.awaiting.player}'s move, not {cmd.player}'s.")
    _color(state, cmd.color)
    if not state.holdings[cmd.player].get(cmd.color, 0):
        held = _either(playable_colors(state, cmd.player))
        raise Refusal(f"{cmd.player} holds no {cmd.color} chip; they can play {held}.")
    if cmd.pile == "new":
        pile, new = state.next_pile, True
    elif cmd.pile in state.piles:
        pile, new = cmd.pile, False
    else:
        numbers = ", ".join(str(n) for n in state.piles) or "none yet"
        raise Refusal(f"There is no pile {cmd.pile} (piles: {numbers}); play on one or on \"new\".")
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


def _next(work: Chain, cmd: Next) -> None:
    state = work.state
    _waiting_for(state, "next", "name the next player")
    _player(state, cmd.player)
    pile = state.awaiting.pile
    assert pile is not None
    options = choices_for_next(state, pile)
    if cmd.player not in options:
        color = state.color_of(cmd.player)
        raise Refusal(
            f"{cmd.player}'s color {color} is already in pile {pile}; "
            f"choose {_either(options)}."
        )
    mover = state.awaiting.player
    work.give_move(cmd.player, mover)


def _kill(work: Chain, cmd: Kill) -> None:
    state = work.state
    _waiting_for(state, "kill", "kill a chip from a captured pile")
    a = state.awaiting
    assert a.pile is not None and a.by is not None
    if cmd.player != a.player:
        raise Refusal(f"Pile {a.pile} was captured by {a.player}, not {cmd.player}.")
    chips = state.piles[a.pile]
    if cmd.color not in chips:
        options = _either([c for c in state.colors if c in chips])
        raise Refusal(f"Pile {a.pile} holds no {cmd.color} chip; kill {options}.")
    work.emit(PileTaken(cmd.player, a.pile, cmd.color))
    work.give_move(cmd.player, a.by)


def _transfer(work: Chain, cmd: Transfer) -> None:
    state = work.state
    _prisoner(state, cmd.player, cmd.color, "transfer")
    if cmd.to not in state.holdings:
        raise Refusal(
            f"There is no player called {cmd.to!r}; the players are {', '.join(state.names)}."
        )
    if cmd.to == cmd.player:
        raise Refusal(f"{cmd.player} cannot transfer a chip to themselves; name another player.")
    if cmd.to in state.defeated:
        raise Refusal(f"{cmd.to} is defeated; chips go to live players only.")
    work.emit(PrisonerTransferred(cmd.player, cmd.color, cmd.to))
    a = work.state.awaiting
    if a.what == "rescue" and a.player == cmd.to:
        work.give_move(cmd.to, None)  # R3: rescued, and must move
    else:
        work.after_holdings_change(cmd.player)


def _kill_prisoner(work: Chain, cmd: KillPrisoner) -> None:
    _prisoner(work.state, cmd.player, cmd.color, "kill")
    work.emit(PrisonerKilled(cmd.player, cmd.color))
    work.after_holdings_change(cmd.player)


def _refuse(work: Chain, cmd: Refuse) -> None:
    state = work.state
    _waiting_for(state, "rescue", "refuse a rescue")
    _player(state, cmd.player)
    need = state.awaiting.player
    if cmd.player == need:
        raise Refusal(f"{need} is the one awaiting rescue; only holders of prisoners refuse.")
    if cmd.player in state.awaiting.refused:
        raise Refusal(f"{cmd.player} has already refused to rescue {need}.")
    if not state.holds_prisoners(cmd.player):
        raise Refusal(f"{cmd.player} holds no prisoners, so has nothing to refuse.")
    work.emit(RescueRefused(cmd.player))
    work.after_holdings_change(cmd.player)


_HANDLERS: dict[type[Any], Callable[[Chain, Any], None]] = {
    Play: _play,
    Next: _next,
    Kill: _kill,
    Transfer: _transfer,
    KillPrisoner: _kill_prisoner,
    Refuse: _refuse,
}


def _consequences(state: SuckerState, command: SuckerCommand) -> list[SuckerEvent]:
    chain = Chain(state)
    _HANDLERS[type(command)](chain, command)
    return chain.events


def decide(state: SuckerState, command: SuckerCommand) -> Sequence[SuckerEvent] | Refused:
    if state.over:
        return Refused(f"The game is over ({state.winner} won); only undo is possible now.")
    return refusing(_consequences, state, command)


SO_LONG_SUCKER: Engine[SuckerState, SuckerCommand, SuckerEvent] = Engine(
    name="so-long-sucker",
    parse_command=parse_command,
    command_to_dict=command_to_dict,
    decide=decide,
    evolve=evolve,
    event_to_dict=event_to_dict,
    event_from_dict=event_from_dict,
)


