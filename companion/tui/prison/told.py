"""What the game master is told of the room: what it has already seen of a move (asked before
an undo takes it back) and why an interview ended without the console. Both read the room fold
(``Session.room``, rules/prison/room.py) and the typed history, never the log's rows."""

from __future__ import annotations

from companion.language import Language, language
from companion.rules.prison import news
from companion.rules.prison.room import interview_by
from companion.rules.prison.views import record, table
from companion.tui.prison.context import Prison
from companion.tui.prison.text import ENDED_WORDS, describe_command, said


def ended_elsewhere(session: Prison, name: str, lang: Language | None = None) -> str:
    """Why ``name``'s interview ended without the console (one sentence, no deal in it)."""
    _ = lang if lang is not None else language()
    if name in table(session.state)["today"]["interviewed"]:
        by = interview_by(session.room, name)
        if by is not None and by != "gm":
            return _(
                "%(name)s's interview was recorded on the warden's phone; the countdown is "
                "closed.",
                name=name,
            )
        return _(
            "%(name)s's interview was recorded elsewhere; the countdown is closed.", name=name
        )
    if session.room.held is not None:
        return _("The search has started, so %(name)s's interview is over (no deal).", name=name)
    return _(
        "%(name)s's interview was ended elsewhere; nothing is recorded for %(name)s.", name=name
    )


def room_saw(session: Prison, hseq: int, lang: Language | None = None) -> str | None:
    """What the room has already been shown of the move ``hseq`` (``None``: nothing, as a
    sealed choice or a search whose reveal is still held)."""
    _ = lang if lang is not None else language()
    entries = session.history.entries
    if not 0 < hseq <= len(entries) or entries[hseq - 1].kind != "command":
        return None
    saw = session.room.saw(entries[hseq - 1])
    if saw is None:
        return None
    return _.say(news.room_saw(saw))


def undo_question(session: Prison, hseq: int, lang: Language | None = None) -> tuple[str, str]:
    """The undo's title and question for the move ``hseq``: what it takes back, truthfully
    (the end of the game, when that move ended it) and what the room has seen of it."""
    _ = lang if lang is not None else language()
    row = next(r for r in record(session.history.entries) if r["seq"] == hseq)
    what = describe_command(row["move"], _)
    seen = room_saw(session, hseq, _)
    if row["ended"]:
        ended = said(ENDED_WORDS, row["ended"], _)
        title = _("Undo the end of the game?")
        if session.room.stage.epilogue:  # what really happened: every secret it told is out
            return title, _(
                "This takes back the end of the game: the room saw GAME OVER (%(ended)s) and "
                "the epilogue, so the secrets it told (every choice, every deal) are out for "
                "good; an undo hides none of them again. It takes back %(what)s with it; undo "
                "only if you will tell them.",
                ended=ended,
                what=what,
            )
        if session.room.saw_the_end(hseq):
            return title, _(
                "This takes back the end of the game: the room saw GAME OVER (%(ended)s). "
                "It takes back %(what)s with it; undo only if you will tell them.",
                ended=ended,
                what=what,
            )
        if seen:
            return title, _(
                "This takes back the end of the game (%(ended)s), which the room has not seen "
                "yet, and %(what)s: the room has already seen %(seen)s; undo only if you will "
                "tell them.",
                ended=ended,
                what=what,
                seen=seen,
            )
        return title, _(
            "This takes back the end of the game (%(ended)s), which the room has not seen "
            "yet, and %(what)s. The history keeps it as a correction.",
            ended=ended,
            what=what,
        )
    if seen:
        return _("Undo what the room has seen?"), _(
            "Take back %(what)s? The room has already seen %(seen)s; undo only if you "
            "will tell them.",
            what=what,
            seen=seen,
        )
    return _("Undo?"), _(
        "Take back %(what)s? The history keeps it as a correction; "
        "press Ctrl+Z again to go further back.",
        what=what,
    )
