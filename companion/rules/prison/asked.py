"""What the game master is asked before a move, as phrases: the undo's question (what it takes
back, truthfully, and what the room has already seen of it), closing planning, the search
that ends the interviews, ending the day.

The console's dialogs and the game master's phone say the same sentences from here, so that
a confirmation reads the same on either; each is a (title, question) pair of phrases.
Pure functions of the room fold and the typed history, never the log's rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.rules.core.game import Entry
from companion.rules.core.phrase import Phrase, phrase, phrases
from companion.rules.prison import news
from companion.rules.prison.events import PrisonEvent
from companion.rules.prison.phrases import ENDED_WORDS, move, names, word
from companion.rules.prison.room import PrisonRoom
from companion.rules.prison.views import TableView, record

Asked = tuple[Phrase, Phrase]  # a confirmation's title and question


def room_saw(room: PrisonRoom, entries: Sequence[Entry[Any, PrisonEvent]], hseq: int) -> (
    Phrase | None
):
    """What the room has already been shown of the move ``hseq`` (``None``: nothing, as a
    sealed choice or a search whose reveal is still held)."""
    if not 0 < hseq <= len(entries) or entries[hseq - 1].kind != "command":
        return None
    saw = room.saw(entries[hseq - 1])
    return news.room_saw(saw) if saw is not None else None


def undo_asked(
    room: PrisonRoom, entries: Sequence[Entry[Any, PrisonEvent]], hseq: int,
    *, on_phone: bool = False,
) -> Asked:
    """The undo's title and question for the move ``hseq``: what it takes back (the end of the
    game, when that move ended it) and what the room has seen of it. ``on_phone``: the last
    line says how to go further back on the game master's phone, not with Ctrl+Z."""
    row = next(r for r in record(entries) if r["seq"] == hseq)
    what = move({k: str(v) for k, v in row["move"].items()})
    seen = room_saw(room, entries, hseq)
    if row["ended"]:
        ended = word(ENDED_WORDS, row["ended"])
        title = phrase("Undo the end of the game?")
        if room.stage.epilogue:  # what really happened: every secret it told is out
            return title, phrase(
                "This takes back the end of the game: the room saw GAME OVER (%(ended)s) and "
                "the epilogue, so the secrets it told (every choice, every deal) are out for "
                "good; an undo hides none of them again. It takes back %(what)s with it; undo "
                "only if you will tell them.",
                ended=ended,
                what=what,
            )
        if room.saw_the_end(hseq):
            return title, phrase(
                "This takes back the end of the game: the room saw GAME OVER (%(ended)s). "
                "It takes back %(what)s with it; undo only if you will tell them.",
                ended=ended,
                what=what,
            )
        if seen is not None:
            return title, phrase(
                "This takes back the end of the game (%(ended)s), which the room has not seen "
                "yet, and %(what)s: the room has already seen %(seen)s; undo only if you will "
                "tell them.",
                ended=ended,
                what=what,
                seen=seen,
            )
        return title, phrase(
            "This takes back the end of the game (%(ended)s), which the room has not seen "
            "yet, and %(what)s. The history keeps it as a correction.",
            ended=ended,
            what=what,
        )
    if seen is not None:
        return phrase("Undo what the room has seen?"), phrase(
            "Take back %(what)s? The room has already seen %(seen)s; undo only if you "
            "will tell them.",
            what=what,
            seen=seen,
        )
    if on_phone:
        return phrase("Undo?"), phrase(
            "Take back %(what)s? The history keeps it as a correction; "
            "tap Undo again afterwards to go further back.",
            what=what,
        )
    return phrase("Undo?"), phrase(
        "Take back %(what)s? The history keeps it as a correction; "
        "press Ctrl+Z again to go further back.",
        what=what,
    )


def close_planning_asked(view: TableView, *, time_up: bool = False) -> Asked | None:
    """Closing planning's question, or ``None`` when the console closes it without asking
    (everyone has chosen, and it is not the planning time's end that asks)."""
    waiting = [n for n in view["active"] if n not in view["submitted"]]
    if not waiting and not time_up:
        return None
    question = (
        phrases(
            "%(names)s has not chosen and will rest tonight.",
            "%(names)s have not chosen and will rest tonight.",
            len(waiting),
            names=names(waiting),
        )
        if waiting
        else phrase("Everyone has chosen.")
    )
    title = phrase("Planning time is up: close planning?") if time_up else phrase(
        "Close planning?"
    )
    return title, question


def search_asked(view: TableView) -> Asked | None:
    """The question before a search that ends the interviews with prisoners still waiting
    (``None``: nobody waits, or the interviews are over)."""
    queue = list(view["not_interviewed"]) if view["phase"] == "interviews" else []
    if not queue:
        return None
    return phrase("Start the search?"), phrases(
        "The search ends the interviews; %(names)s was not interviewed (no deal).",
        "The search ends the interviews; %(names)s were not interviewed (no deal).",
        len(queue),
        names=names(queue),
    )


def end_day_asked(view: TableView) -> Asked:
    """The question before the day ends (the last day's end ends the game)."""
    limit = view["rules"]["max_days"]
    day = view["day"]
    if limit is not None and day >= limit:
        question = phrase(
            "Day %(day)s is the last day: ending it ends the game (time is up).", day=day
        )
    else:
        question = phrase(
            "Day %(day)s ends and day %(next)s starts with planning.", day=day, next=day + 1
        )
    return phrase("End the day?"), question
