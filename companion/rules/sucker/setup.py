"""Setting up a So Long Sucker game: the seats (a name and a color each), the chips each player
starts with and who moves first, checked with one sentence for whatever cannot be played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules.core.roster import RosterError, check_name, name_keys
from companion.rules.sucker.state import Seat, SuckerState, new_game

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_CHIPS = 30
MAX_COLOR = 24  # characters in a color's name
# The chip colors a game may use, any distinct ones together (a poker set's white, red, blue,
# green and black too): each gets its own letter (views.color_keys), so none clash.
COLORS = (
    "red", "orange", "yellow", "green", "blue", "purple", "violet", "pink", "brown", "black",
    "white", "grey", "gray", "gold", "silver", "cyan", "teal", "lime", "magenta", "navy",
    "maroon", "olive", "beige", "tan", "turquoise", "indigo", "ivory",
)


class SetupError(ValueError):
    """A setup that cannot be played; the message is one clear sentence."""


def _check_color(color: object, where: str) -> str:
    """Any color name a chip set may have (a script's, as the game-script contract has it): a
    short name with no control characters. The console's own typing is checked against the
    known colors too (``check_known_colors``), where a typo is likelier than a mauve chip."""
    if not isinstance(color, str) or not color.strip():
        raise SetupError(f"{where} needs a color, such as \"red\".")
    if len(color) > MAX_COLOR or any(not ch.isprintable() for ch in color):
        raise SetupError(
            f"{where} has {color[:MAX_COLOR]!r}, which cannot be a chip color; name a color "
            f"in at most {MAX_COLOR} printable characters."
        )
    return color


def check_known_colors(players: Sequence[Mapping[str, Any]]) -> None:
    """Refuses, in one sentence, a color typed at the console that is none of ``COLORS``."""
    for i, player in enumerate(players):
        color = player.get("color")
        if isinstance(color, str) and color.strip() and color.casefold() not in COLORS:
            raise SetupError(
                f"Player #{i + 1} ({player.get('name')}) has {color!r}, which is not a chip "
                f"color; use one of {', '.join(COLORS)}."
            )


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
            name = check_name(player["name"], "player", i + 1)
        except RosterError as error:
            raise SetupError(str(error)) from None
        seats.append(Seat(name, _check_color(player["color"], f"{where} ({name})")))
    for attr, what in (("name", "name"), ("color", "color")):
        seen: set[str] = set()
        for seat in seats:
            text = getattr(seat, attr)
            values = name_keys(text) if attr == "name" else {text.casefold()}
            if not seen.isdisjoint(values):
                raise SetupError(
                    f"The {what} {getattr(seat, attr)!r} is used twice; "
                    f"every player needs their own {what}."
                )
            seen |= values
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
