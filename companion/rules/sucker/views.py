"""What the table sees of a So Long Sucker game: everything (all information is public).

Every face (the referee screen, the script player, the printouts) reads the game through these
functions; each returns plain JSON-ready data, typed by the ``TypedDict`` of its shape.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

from companion.rules.core.phrase import Listed, Phrase, phrase
from companion.rules.core.words import N_
from companion.rules.sucker.engine import choices_for_next, playable_colors
from companion.rules.sucker.events import (
    CaptureAwaited,
    ChipPlayed,
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
from companion.rules.sucker.state import SuckerState, What


class LegalView(TypedDict):
    """Who must act now and the choices open to them (:func:`legal`); the other keys depend
    on ``what``."""

    what: What
    player: str | None
    colors: NotRequired[list[str]]  # play, kill
    piles: NotRequired[list[int | Literal["new"]]]  # play
    players: NotRequired[list[str]]  # next
    pile: NotRequired[int]  # next, kill
    pending: NotRequired[list[str]]  # rescue
    refused: NotRequired[list[str]]  # rescue


class SeatRow(TypedDict):
    name: str
    color: str
    supply: int
    prisoners: dict[str, int]
    defeated: bool


class TableView(TypedDict):
    """The whole table (:func:`table`)."""

    game: Literal["so-long-sucker"]
    players: list[SeatRow]
    keys: dict[str, str]
    piles: dict[int, list[str]]
    deciding: dict[int, list[int]]
    dead: dict[str, int]
    awaiting: LegalView
    says: str
    defeated: list[str]
    winner: str | None
    plays: int


class AwaitingRow(TypedDict):
    what: What
    player: str | None


class ScriptResult(TypedDict):
    """The final state of a game script (:func:`script_result`)."""

    piles: dict[str, list[str]]
    holdings: dict[str, dict[str, int]]
    dead: dict[str, int]
    awaiting: AwaitingRow
    defeated: list[str]
    winner: str | None


def _ordered(state: SuckerState, counts: Mapping[str, int]) -> dict[str, int]:
    return {c: counts[c] for c in state.colors if counts.get(c, 0)}


# A color whose chips are known by another letter than its first, as printers know black by K.
PREFERRED = {"black": "K"}
LETTERING = N_(
    "A chip's letter is its color's initial (black: K, as printers do). Colors that share an "
    "initial each take another letter of their name, and that initial names none of them: a "
    "color's own initial never means another color."
)
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _initial(color: str) -> str | None:
    preferred = PREFERRED.get(color.casefold())
    if preferred is not None:
        return preferred
    return next((c.upper() for c in color if c.isalpha() and c.isascii()), None)


def color_keys(colors: tuple[str, ...] | list[str]) -> dict[str, str]:
    """One capital letter per color, distinct for any set of distinct colors, for typing moves
    and for reading chips without color (the rule of ``LETTERING``): a color whose initial
    (black: K) no other color shares has it; the others, in seating order, take the next
    letter of their name that is free and nobody's initial, else the first such letter of the
    alphabet. So a letter typed as a color's initial means that color or none (gold, green,
    grey and red: O, E, Y and R; ``g`` names none of them)."""
    initials = {color: _initial(color) for color in colors}
    shared = Counter(initials.values())
    reserved = {i for i in initials.values() if i is not None}
    keys = {c: i for c, i in initials.items() if i is not None and shared[i] == 1}
    for color in colors:
        if color in keys:
            continue
        taken = set(keys.values())
        letters = [c.upper() for c in color if c.isalpha() and c.isascii()]
        free = [c for c in [*letters, *ALPHABET] if c not in taken and c not in reserved]
        keys[color] = free[0] if free else next(c for c in ALPHABET if c not in taken)
    return {color: keys[color] for color in colors}


def script_result(state: SuckerState) -> ScriptResult:
    """The spec's script output, without ``rejected``."""
    a = state.awaiting
    return {
        "piles": {str(n): list(chips) for n, chips in sorted(state.piles.items())},
        "holdings": {n: _ordered(state, state.holdings[n]) for n in state.names},
        "dead": _ordered(state, state.dead),
        "awaiting": {"what": a.what, "player": a.player},
        "defeated": list(state.defeated),
        "winner": state.winner,
    }


def legal(state: SuckerState) -> LegalView:
    """The choices open now to whoever must act (for prompts and highlighting)."""
    a = state.awaiting
    out: LegalView = {"what": a.what, "player": a.player}
    if a.what == "play" and a.player is not None:
        out["colors"] = playable_colors(state, a.player)
        out["piles"] = [*sorted(state.piles), "new"]
    elif a.what == "next" and a.pile is not None:
        out["players"] = choices_for_next(state, a.pile)
        out["pile"] = a.pile
    elif a.what == "kill" and a.pile is not None:
        chips = state.piles[a.pile]
        out["colors"] = [c for c in state.colors if c in chips]
        out["pile"] = a.pile
    elif a.what == "rescue":
        out["pending"] = state.rescuers_pending()
        out["refused"] = list(a.refused)
    return out


def deciding(state: SuckerState) -> dict[int, list[int]]:
    """For each pile, where (0 = the bottom chip) the topmost chip of each live player's color
    lies, deepest first: the chips that decide who moves after a play on it (whose color is
    missing, or, when every live color is in, whose topmost chip lies deepest); none once the
    game is over, when nobody moves again."""
    if state.winner is not None:
        return {}
    live = {state.color_of(name) for name in state.live()}
    out: dict[int, list[int]] = {}
    for number, chips in sorted(state.piles.items()):
        tops = {color: i for i, color in enumerate(chips) if color in live}
        out[number] = sorted(tops.values())
    return out


def table(state: SuckerState) -> TableView:
    """The whole table: seats with supply and prisoners, piles, the dead, and who must act."""
    awaiting = legal(state)
    players: list[SeatRow] = []
    for seat in state.seats:
        held = state.holdings[seat.name]
        players.append(
            {
                "name": seat.name,
                "color": seat.color,
                "supply": held.get(seat.color, 0),
                "prisoners": _ordered(state, state.prisoners_of(seat.name)),
                "defeated": seat.name in state.defeated,
            }
        )
    return {
        "game": "so-long-sucker",
        "players": players,
        "keys": color_keys(state.colors),
        "piles": {n: list(chips) for n, chips in sorted(state.piles.items())},
        "deciding": deciding(state),
        "dead": _ordered(state, state.dead),
        "awaiting": awaiting,
        "says": says(awaiting, state.winner).english(),
        "defeated": list(state.defeated),
        "winner": state.winner,
        "plays": state.plays,
    }


def says(awaiting: LegalView, winner: str | None) -> Phrase:
    """What the table is waiting for, as one sentence (the table view's ``says`` in English),
    from what the table view shows: whoever must act (``awaiting``) and the ``winner``."""
    who = awaiting["player"] or ""
    what = awaiting["what"]
    if what == "over":
        return phrase("The game is over: %(name)s won.", name=winner or "")
    if what == "play":
        return phrase("%(name)s must play a chip.", name=who)
    if what == "next":
        return phrase(
            "%(name)s must name the next player (%(choices)s).",
            name=who,
            choices=Listed(tuple(awaiting.get("players", [])), "or"),
        )
    if what == "kill":
        return phrase(
            "%(name)s captured pile %(pile)s and must kill one chip from it.",
            name=who,
            pile=awaiting.get("pile", 0),
        )
    return phrase(
        "%(name)s holds no chips and awaits rescue (from %(holders)s).",
        name=who,
        holders=Listed(tuple(awaiting.get("pending", [])), "or"),
    )


def event_phrase(event: SuckerEvent) -> Phrase | None:
    """One line for the table's log; ``None`` for events the status line already tells."""
    if isinstance(event, ChipPlayed):
        if event.new:
            return phrase(
                "%(name)s played %(color)s on a new pile %(pile)s.",
                name=event.player, color=event.color, pile=event.pile,
            )
        return phrase(
            "%(name)s played %(color)s on pile %(pile)s.",
            name=event.player, color=event.color, pile=event.pile,
        )
    if isinstance(event, MoveGiven):
        if event.by and event.by != event.player:
            return phrase("%(giver)s gave the move to %(name)s.", giver=event.by, name=event.player)
        return phrase("The move goes to %(name)s.", name=event.player)
    if isinstance(event, CaptureAwaited):
        return phrase(
            "Pile %(pile)s is captured by %(name)s.", pile=event.pile, name=event.capturer
        )
    if isinstance(event, PileTaken):
        return phrase(
            "%(name)s killed a %(color)s chip from pile %(pile)s and took the rest.",
            name=event.player, color=event.killed, pile=event.pile,
        )
    if isinstance(event, PileKilled):
        return phrase(
            "Pile %(pile)s is killed whole: its capturing color's player is defeated.",
            pile=event.pile,
        )
    if isinstance(event, RescueAwaited):
        return phrase("%(name)s holds no chips and awaits rescue.", name=event.player)
    if isinstance(event, RescueRefused):
        return phrase("%(name)s refuses to rescue.", name=event.holder)
    if isinstance(event, PrisonerTransferred):
        return phrase(
            "%(name)s gave a %(color)s chip to %(to)s.",
            name=event.player, color=event.color, to=event.to,
        )
    if isinstance(event, PrisonerKilled):
        return phrase(
            "%(name)s killed a %(color)s prisoner.", name=event.player, color=event.color
        )
    if isinstance(event, PlayerDefeated):
        return phrase("%(name)s is defeated.", name=event.player)
    if isinstance(event, GameWon):
        return phrase("%(name)s wins the game!", name=event.player)
    return None



def command_phrase(command: Mapping[str, Any]) -> Phrase:
    """A recorded command in a few words (a log's line after an undo, an undo's question)."""
    do, who = command["do"], command.get("player") or ""
    color = command.get("color") or ""
    if do == "play":
        if command["pile"] == "new":
            return phrase("%(name)s playing %(color)s on a new pile", name=who, color=color)
        return phrase("%(name)s playing %(color)s on pile %(pile)s", name=who, color=color,
                      pile=command["pile"])
    if do == "next":
        return phrase("naming %(name)s to move next", name=who)
    if do == "kill":
        return phrase("%(name)s killing a %(color)s chip from the captured pile", name=who,
                      color=color)
    if do == "transfer":
        return phrase("%(name)s giving a %(color)s chip to %(to)s", name=who, color=color,
                      to=command.get("to") or "")
    if do == "kill_prisoner":
        return phrase("%(name)s killing a %(color)s prisoner", name=who, color=color)
    if do == "refuse":
        return phrase("%(name)s refusing the rescue", name=who)
    raise ValueError(f"unknown command {do!r}")


def _doing(what: What) -> Phrase | None:
    """What the player the table waits for is doing."""
    if what == "play":
        return phrase("to play")
    if what == "next":
        return phrase("names next")
    if what == "kill":
        return phrase("kills a chip")
    if what == "rescue":
        return phrase("awaits rescue")
    return None


def standing(view: TableView, name: str) -> tuple[Phrase | None, str]:
    """A player's status at the table (what the referee's players panel says beside them)
    and their mark: ★ the winner, ● the one the table waits for, ▶ who may be named next, ?
    who may rescue."""
    a = view["awaiting"]
    if view["winner"] == name:
        return phrase("WINNER"), "★"
    if name in view["defeated"]:
        return phrase("defeated (%(place)s)", place=view["defeated"].index(name) + 1), ""
    if a["player"] == name:
        # A mover who played a prisoner may name themselves: both marks, as for the others.
        named = a["what"] == "next" and name in a.get("players", [])
        return _doing(a["what"]), "●▶" if named else "●"
    if a["what"] == "next" and name in a.get("players", []):
        return phrase("may be named"), "▶"
    if a["what"] == "rescue":
        if name in a.get("pending", []):
            return phrase("may rescue"), "?"
        if name in a.get("refused", []):
            return phrase("refused"), ""
    return None, ""
