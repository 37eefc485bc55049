"""What the table sees of a So Long Sucker game: everything (all information is public).

Every face (the referee screen, the script player, the printouts) reads the game through these
functions; each returns plain JSON-ready data.
"""

from __future__ import annotations

from typing import Any

from companion.rules.sucker import awaiting_text, choices_for_next, playable_colors
from companion.rules.sucker_state import SuckerState

View = dict[str, Any]


def _ordered(state: SuckerState, counts: dict[str, int] | Any) -> dict[str, int]:
    return {c: counts[c] for c in state.colors if counts.get(c, 0)}


def script_result(state: SuckerState) -> View:
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


def legal(state: SuckerState) -> View:
    """The choices open now to whoever must act (for prompts and highlighting)."""
    a = state.awaiting
    out: View = {"what": a.what, "player": a.player}
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


def table(state: SuckerState) -> View:
    """The whole table: seats with supply and prisoners, piles, the dead, and who must act."""
    players = []
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
        "piles": {n: list(chips) for n, chips in sorted(state.piles.items())},
        "dead": _ordered(state, state.dead),
        "awaiting": legal(state),
        "says": awaiting_text(state),
        "defeated": list(state.defeated),
        "winner": state.winner,
        "plays": state.plays,
    }
