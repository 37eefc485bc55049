"""What the referee's console says of the table, in the game master's language: the line of
what the table waits for and one log line per event.

The rules core words these in English (:func:`companion.rules.sucker.views.table`'s ``says``,
:func:`~companion.rules.sucker.views.event_text`); the console says the same from the same data
through the catalog (in English, word for word as the rules core does: the tests check it).
Names and colors are the players' own, typed at set-up: data, not messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.language import Language
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

View = Mapping[str, Any]  # the table view (companion.rules.sucker.views.table), read by key


def says(lang: Language, view: View) -> str:
    """What the table is waiting for, as one sentence (the top line)."""
    _ = lang
    a = view["awaiting"]
    who = a["player"]
    if a["what"] == "over":
        return _("The game is over: %(name)s won.", name=view["winner"])
    if a["what"] == "play":
        return _("%(name)s must play a chip.", name=who)
    if a["what"] == "next":
        return _("%(name)s must name the next player (%(choices)s).", name=who,
                 choices=_.joined(a["players"], style="or"))
    if a["what"] == "kill":
        return _("%(name)s captured pile %(pile)s and must kill one chip from it.", name=who,
                 pile=a["pile"])
    return _("%(name)s holds no chips and awaits rescue (from %(holders)s).", name=who,
             holders=_.joined(a["pending"], style="or"))


def event_line(lang: Language, event: SuckerEvent) -> str | None:
    """One line for the log; ``None`` for events the top line already tells."""
    _ = lang
    if isinstance(event, ChipPlayed):
        if event.new:
            return _("%(name)s played %(color)s on a new pile %(pile)s.", name=event.player,
                     color=event.color, pile=event.pile)
        return _("%(name)s played %(color)s on pile %(pile)s.", name=event.player,
                 color=event.color, pile=event.pile)
    if isinstance(event, MoveGiven):
        if event.by and event.by != event.player:
            return _("%(giver)s gave the move to %(name)s.", giver=event.by, name=event.player)
        return _("The move goes to %(name)s.", name=event.player)
    if isinstance(event, CaptureAwaited):
        return _("Pile %(pile)s is captured by %(name)s.", pile=event.pile, name=event.capturer)
    if isinstance(event, PileTaken):
        return _("%(name)s killed a %(color)s chip from pile %(pile)s and took the rest.",
                 name=event.player, color=event.killed, pile=event.pile)
    if isinstance(event, PileKilled):
        return _("Pile %(pile)s is killed whole: its capturing color's player is defeated.",
                 pile=event.pile)
    if isinstance(event, RescueAwaited):
        return _("%(name)s holds no chips and awaits rescue.", name=event.player)
    if isinstance(event, RescueRefused):
        return _("%(name)s refuses to rescue.", name=event.holder)
    if isinstance(event, PrisonerTransferred):
        return _("%(name)s gave a %(color)s chip to %(to)s.", name=event.player,
                 color=event.color, to=event.to)
    if isinstance(event, PrisonerKilled):
        return _("%(name)s killed a %(color)s prisoner.", name=event.player, color=event.color)
    if isinstance(event, PlayerDefeated):
        return _("%(name)s is defeated.", name=event.player)
    if isinstance(event, GameWon):
        return _("%(name)s wins the game!", name=event.player)
    return None
