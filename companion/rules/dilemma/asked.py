"""What the warm-up's game master is asked before a move, as phrases: closing a round with
players still choosing, and an undo of what the room has already seen. The console's dialogs
and the game master's phone say the same sentences from here; each is a (title, question)
pair; and the offer for a round whose time ran out while nothing counted it down. Pure
functions of the game master's view, what the room saw and the room's hold."""

from __future__ import annotations

from companion.rules.core.phrase import Listed, Phrase, phrase, phrases
from companion.rules.dilemma.room import HoldTimer
from companion.rules.dilemma.seen import Seen
from companion.rules.dilemma.views import GmView


def close_round_asked(v: GmView) -> tuple[Phrase, Phrase] | None:
    """The question before the round is closed while players are still choosing (``None``:
    nobody is, nothing to ask): who gives no answer, and how a missing answer is served."""
    if v["phase"] != "choosing" or not v["waiting"]:
        return None
    served = phrase("silent") if v["sentences"]["no_answer"] == "silent" else phrase("betraying")
    return phrase("Close the round now?"), phrases(
        "%(count)s player has not chosen: no answer, served as %(served)s.",
        "%(count)s players have not chosen: no answer, served as %(served)s.",
        len(v["waiting"]),
        served=served,
    )


def undo_asked(seen: Seen) -> tuple[Phrase, Listed]:
    """The undo's title and question when the room has seen what it takes back: what it saw,
    the round it opens again and whose choice goes with it. The console's dialog and the game
    master's page say the same sentences from here."""
    question: list[Phrase] = [
        phrase("The room has already seen %(what)s; undo anyway?", what=seen.words)
    ]
    if seen.reopens is not None:
        question.append(phrase(
            "Round %(round)s opens again and the phones offer SILENT or BETRAY once more.",
            round=seen.reopens,
        ))
    if seen.chooser is not None:
        question.append(phrase(
            "The choice that completed the round is taken back with it: %(name)s chooses again.",
            name=seen.chooser,
        ))
    return phrase("Undo %(what)s?", what=seen.title), Listed(tuple(question), "sentences")


def time_back_asked(hold: HoldTimer, heard: str) -> tuple[Phrase, Phrase]:
    """The offer for a round held (its time ran out while nothing counted it down): what it
    had left when the log last heard from the room (at ``heard``, a clock time as the face
    says it), give that back or close the round now."""
    if hold.by == "console":
        return phrase(
            "Round %(round)s's time ran out while the console was closed.", round=hold.round
        ), phrase(
            "The log's last entry before the console stopped was written at %(time)s, when "
            "round %(round)s had %(seconds)s s left. Give it that time back (the phones and "
            "the board count down again), or close it now (who has not chosen gives no "
            "answer)?",
            time=heard, round=hold.round, seconds=hold.seconds,
        )
    return phrase(
        "Round %(round)s's time ran out while the night's server was not running.",
        round=hold.round,
    ), phrase(
        "The log's last entry before the night's server stopped was written at %(time)s, "
        "when round %(round)s had %(seconds)s s left. Give it that time back (the phones and "
        "the board count down again), or close it now (who has not chosen gives no answer)?",
        time=heard, round=hold.round, seconds=hold.seconds,
    )
