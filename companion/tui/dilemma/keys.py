"""The room's keys in its footer: those the tournament's phase needs, fitted to the width."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from textual.binding import ActiveBinding, Binding

from companion.language import N_
from companion.tui.common.footer import fit_footer as fit_keys

# The QR key's description as the room's footer shows it (translated there, as every key's).
QR_KEYS = {True: N_("Hide QR"), False: N_("Show QR")}
# The doors key's, by whether the doors are closed now.
DOOR_KEYS = {True: N_("Open doors"), False: N_("Close doors")}
# The keys each phase needs in the footer (the rest still work, and ? lists them all).
PHASE_KEYS = {
    "lobby": {
        "add_player",
        "next_round",
        "rename",
        "remove",
        "bring_back",
        "round_time",
        "house",
        "doors",
        "clear_flood",
        "network_check",
    },
    "choosing": {
        "choose",
        "close_round",
        "more_time",  # while the round has a timer (or had one, turned off)
        "peek",
        "rename",
        "remove",
        "bring_back",
        "finish",
        "doors",
        "clear_flood",
    },
    "revealed": {
        "doors",
        "clear_flood",
        "next_round",
        "add_player",
        "finish",
        "rename",
        "remove",
        "bring_back",
        "round_time",
        "house",
    },
    "over": {"results"},
}
ALWAYS_KEYS = {"undo", "toggle_qr", "poster", "keys", "quit_asking"}
# Left out of a footer too narrow for them all, in this order (+, 30 s more, is never left out
# while a timed round is open: the optional keys give way to it at 80 columns).
DROP_FIRST = (
    "network_check",
    "clear_flood",
    "house",
    "round_time",
    "poster",
    "bring_back",
    "doors",
    "finish",
    "peek",
    "rename",
    "add_player",
    "remove",
    "toggle_qr",
)


def _action(binding: Binding) -> str:
    return binding.action.removeprefix("app.")


def room_footer(
    active: dict[str, ActiveBinding],
    phase: str,
    qr_shown: bool,
    width: int,
    display: Callable[[Binding], str],
    describe: Callable[[str], str] = str,
    doors_closed: bool = False,
    timed: bool = False,
) -> dict[str, ActiveBinding]:
    """The room's keys for the footer: those the phase needs, less the optional ones (in
    ``DROP_FIRST`` order) until they fit in ``width`` columns; the QR key says what it does;
    ``+`` only while the open round is ``timed`` (it has a timer, or had one)."""
    wanted = PHASE_KEYS[phase] | ALWAYS_KEYS
    if not timed:
        wanted = wanted - {"more_time"}
    fitted: dict[str, ActiveBinding] = {}
    for key, item in active.items():
        binding = item.binding
        action = _action(binding)
        if action == "toggle_qr":
            binding = dataclasses.replace(binding, description=QR_KEYS[qr_shown])
        if action == "doors":
            binding = dataclasses.replace(binding, description=DOOR_KEYS[doors_closed])
        if action not in wanted and binding.action.startswith("app."):
            binding = dataclasses.replace(binding, show=False)
        fitted[key] = item._replace(binding=binding)
    return fit_keys(fitted, width, display, [f"app.{action}" for action in DROP_FIRST], describe)
