"""What the game master is told of the room: what it has already seen of a move (asked before
an undo takes it back) and why an interview ended without the console. Both read the room fold
(``Session.room``, rules/prison/room.py) and the typed history, never the log's rows."""

from __future__ import annotations

from companion.language import Language, language
from companion.rules.prison import asked
from companion.rules.prison.room import interview_by
from companion.rules.prison.views import table
from companion.tui.prison.context import Prison


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
    seen = asked.room_saw(session.room, session.history.entries, hseq)
    return _.say(seen) if seen is not None else None


def undo_question(session: Prison, hseq: int, lang: Language | None = None) -> tuple[str, str]:
    """The undo's title and question for the move ``hseq`` (:func:`~companion.rules.prison.
    asked.undo_asked`: the same sentences as the game master's phone)."""
    _ = lang if lang is not None else language()
    title, question = asked.undo_asked(session.room, session.history.entries, hseq)
    return _.say(title), _.say(question)
