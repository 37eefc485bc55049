"""So Long Sucker: each command is checked against the state and refused with a reason or
turned into events (rules: ``docs/rules/so-long-sucker.md``).

``decide`` works on a :class:`~companion.rules.sucker.chain.Chain` so that a single command can
state a whole chain of consequences: a capture, a rebound, a player in need of rescue, a defeat
that hands the move back along the givers and defeats the next one, and so on. Setting a game
up is :mod:`companion.rules.sucker.setup`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from companion.rules.core.game import Engine, Listed, Param, Refusal, Refused, refusing
from companion.rules.core.words import N_
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
    "choices_for_next",
    "decide",
    "evolve",
    "initial_state",
    "legal_moves",
    "playable_colors",
]


# ---- what the table offers (what it says is :func:`companion.rules.sucker.views.says`) -------


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


def legal_moves(state: SuckerState) -> list[SuckerCommand]:
    """Every command :func:`decide` accepts now, and only those, in the table's order: the
    move awaited (a chip played on a pile or a new one, the next player named, a chip killed
    from the captured pile, a rescue refused), then the prisoners' moves open at any time (a
    prisoner given to another live player, or killed). Nothing once the game is over (undo
    is the session's, not a command)."""
    a = state.awaiting
    if state.over or a.player is None:
        return []
    out: list[SuckerCommand] = []
    if a.what == "play":
        piles: list[int | Literal["new"]] = [*sorted(state.piles), "new"]
        out += [Play(player=a.player, color=c, pile=p)
                for c in playable_colors(state, a.player) for p in piles]
    elif a.what == "next" and a.pile is not None:
        out += [Next(player=n) for n in choices_for_next(state, a.pile)]
    elif a.what == "kill" and a.pile is not None:
        chips = state.piles[a.pile]
        out += [Kill(player=a.player, color=c) for c in state.colors if c in chips]
    elif a.what == "rescue":
        out += [Refuse(player=n) for n in state.rescuers_pending()]
    for holder in state.live():
        for color in state.prisoners_of(holder):
            out += [Transfer(player=holder, color=color, to=n)
                    for n in state.live() if n != holder]
            out.append(KillPrisoner(player=holder, color=color))
    return out


# ---- checks ---------------------------------------------------------------------------------

# A move out of its turn: one whole sentence per move and what the table awaits instead (the
# game being over is refused before any move is looked at).
_NOT_NOW: dict[tuple[str, str], str] = {
    ("play", "next"): N_(
        "Nobody can play a chip now: %(player)s must name the next player (%(options)s)."
    ),
    ("play", "kill"): N_(
        "Nobody can play a chip now: "
        "%(player)s captured pile %(pile)s and must kill one chip from it."
    ),
    ("play", "rescue"): N_(
        "Nobody can play a chip now: "
        "%(player)s holds no chips and awaits rescue (from %(pending)s)."
    ),
    ("next", "play"): N_("Nobody can name the next player now: %(player)s must play a chip."),
    ("next", "kill"): N_(
        "Nobody can name the next player now: "
        "%(player)s captured pile %(pile)s and must kill one chip from it."
    ),
    ("next", "rescue"): N_(
        "Nobody can name the next player now: "
        "%(player)s holds no chips and awaits rescue (from %(pending)s)."
    ),
    ("kill", "play"): N_(
        "Nobody can kill a chip from a captured pile now: %(player)s must play a chip."
    ),
    ("kill", "next"): N_(
        "Nobody can kill a chip from a captured pile now: "
        "%(player)s must name the next player (%(options)s)."
    ),
    ("kill", "rescue"): N_(
        "Nobody can kill a chip from a captured pile now: "
        "%(player)s holds no chips and awaits rescue (from %(pending)s)."
    ),
    ("rescue", "play"): N_("Nobody can refuse a rescue now: %(player)s must play a chip."),
    ("rescue", "next"): N_(
        "Nobody can refuse a rescue now: %(player)s must name the next player (%(options)s)."
    ),
    ("rescue", "kill"): N_(
        "Nobody can refuse a rescue now: "
        "%(player)s captured pile %(pile)s and must kill one chip from it."
    ),
}


def _player(state: SuckerState, name: str) -> None:
    if name not in state.holdings:
        raise Refusal(
            "There is no player called %(name)s; the players are %(players)s.",
            name=repr(name),
            players=Listed(tuple(state.names), "comma"),
        )
    if name in state.defeated:
        raise Refusal("%(name)s is defeated and out of the game.", name=name)


def _color(state: SuckerState, color: str) -> None:
    if color not in state.colors:
        raise Refusal(
            "There is no color %(color)s in this game; use %(colors)s.",
            color=repr(color),
            colors=Listed(tuple(state.colors), "or"),
        )


def _waiting_for(state: SuckerState, what: str) -> None:
    a = state.awaiting
    if a.what != what:
        params: dict[str, Param] = {"player": a.player or ""}
        if a.what == "next":
            assert a.pile is not None
            params["options"] = Listed(tuple(choices_for_next(state, a.pile)), "or")
        elif a.what == "kill":
            assert a.pile is not None
            params["pile"] = a.pile
        elif a.what == "rescue":
            params["pending"] = Listed(tuple(state.rescuers_pending()), "or")
        raise Refusal(_NOT_NOW[what, a.what], **params)


def _prisoner(state: SuckerState, player: str, color: str, transfer: bool) -> None:
    _player(state, player)
    _color(state, color)
    if state.color_of(player) == color:
        if transfer:
            raise Refusal(
                "Nobody may transfer chips of their own color, and %(name)s's color is %(color)s.",
                name=player,
                color=color,
            )
        raise Refusal(
            "Nobody may kill chips of their own color, and %(name)s's color is %(color)s.",
            name=player,
            color=color,
        )
    if not state.holdings[player].get(color, 0):
        raise Refusal("%(name)s holds no %(color)s prisoner.", name=player, color=color)


# ---- commands -------------------------------------------------------------------------------


def _play(work: Chain, cmd: Play) -> None:
    state = work.state
    _waiting_for(state, "play")
    _player(state, cmd.player)
    if cmd.player != state.awaiting.player:
        raise Refusal(
            "It is %(mover)s's move, not %(player)s's.",
            mover=state.awaiting.player or "",
            player=cmd.player,
        )
    _color(state, cmd.color)
    if not state.holdings[cmd.player].get(cmd.color, 0):
        raise Refusal(
            "%(name)s holds no %(color)s chip; they can play %(colors)s.",
            name=cmd.player,
            color=cmd.color,
            colors=Listed(tuple(playable_colors(state, cmd.player)), "or"),
        )
    if cmd.pile == "new":
        pile, new = state.next_pile, True
    elif cmd.pile in state.piles:
        pile, new = cmd.pile, False
    else:
        if not state.piles:
            raise Refusal(
                'There is no pile %(pile)s (piles: none yet); play on one or on "new".',
                pile=cmd.pile,
            )
        raise Refusal(
            'There is no pile %(pile)s (piles: %(piles)s); play on one or on "new".',
            pile=cmd.pile,
            piles=Listed(tuple(state.piles), "comma"),
        )
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
    _waiting_for(state, "next")
    _player(state, cmd.player)
    pile = state.awaiting.pile
    assert pile is not None
    options = choices_for_next(state, pile)
    if cmd.player not in options:
        color = state.color_of(cmd.player)
        raise Refusal(
            "%(name)s's color %(color)s is already in pile %(pile)s; choose %(options)s.",
            name=cmd.player,
            color=color,
            pile=pile,
            options=Listed(tuple(options), "or"),
        )
    mover = state.awaiting.player
    work.give_move(cmd.player, mover)


def _kill(work: Chain, cmd: Kill) -> None:
    state = work.state
    _waiting_for(state, "kill")
    a = state.awaiting
    assert a.pile is not None and a.by is not None
    if cmd.player != a.player:
        raise Refusal(
            "Pile %(pile)s was captured by %(capturer)s, not %(player)s.",
            pile=a.pile,
            capturer=a.player or "",
            player=cmd.player,
        )
    chips = state.piles[a.pile]
    if cmd.color not in chips:
        raise Refusal(
            "Pile %(pile)s holds no %(color)s chip; kill %(colors)s.",
            pile=a.pile,
            color=cmd.color,
            colors=Listed(tuple(c for c in state.colors if c in chips), "or"),
        )
    work.emit(PileTaken(cmd.player, a.pile, cmd.color))
    work.give_move(cmd.player, a.by)


def _transfer(work: Chain, cmd: Transfer) -> None:
    state = work.state
    _prisoner(state, cmd.player, cmd.color, transfer=True)
    if cmd.to not in state.holdings:
        raise Refusal(
            "There is no player called %(name)s; the players are %(players)s.",
            name=repr(cmd.to),
            players=Listed(tuple(state.names), "comma"),
        )
    if cmd.to == cmd.player:
        raise Refusal(
            "%(name)s cannot transfer a chip to themselves; name another player.",
            name=cmd.player,
        )
    if cmd.to in state.defeated:
        raise Refusal("%(name)s is defeated; chips go to live players only.", name=cmd.to)
    work.emit(PrisonerTransferred(cmd.player, cmd.color, cmd.to))
    a = work.state.awaiting
    if a.what == "rescue" and a.player == cmd.to:
        work.give_move(cmd.to, None)  # R3: rescued, and must move
    else:
        work.after_holdings_change(cmd.player)


def _kill_prisoner(work: Chain, cmd: KillPrisoner) -> None:
    _prisoner(work.state, cmd.player, cmd.color, transfer=False)
    work.emit(PrisonerKilled(cmd.player, cmd.color))
    work.after_holdings_change(cmd.player)


def _refuse(work: Chain, cmd: Refuse) -> None:
    state = work.state
    _waiting_for(state, "rescue")
    _player(state, cmd.player)
    need = state.awaiting.player or ""
    if cmd.player == need:
        raise Refusal(
            "%(name)s is the one awaiting rescue; only holders of prisoners refuse.", name=need
        )
    if cmd.player in state.awaiting.refused:
        raise Refusal(
            "%(name)s has already refused to rescue %(need)s.", name=cmd.player, need=need
        )
    if not state.holds_prisoners(cmd.player):
        raise Refusal(
            "%(name)s holds no prisoners, so has nothing to refuse.", name=cmd.player
        )
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
        return Refusal(
            "The game is over (%(winner)s won); only undo is possible now.",
            winner=state.winner or "",
        ).refused
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


