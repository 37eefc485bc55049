"""What the room has already seen of a command's events: a round's reveal (everyone saw who
betrayed whom), the end of the tournament. Taking such a command back cannot take back what the
room saw, so the console names it and asks before an undo.

A reveal that the round's last choice made (everyone had chosen) is taken back with that
choice: an undo takes back the last change, and that was the choice. The chooser chooses again
(a round left open with every choice in would be revealed again by the next tap); the console
says so before it asks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules.core.phrase import Listed, Phrase, phrase, phrases
from companion.rules.dilemma.events import Chose, DilemmaEvent, Ended, RoundRevealed
from companion.rules.dilemma.phrases import pair
from companion.rules.dilemma.state import DilemmaState

PAIRS_NAMED = 3  # a reveal's pairs named in full; the rest are counted


@dataclass(frozen=True)
class Seen:
    """What the room saw: ``title`` names it briefly, ``words`` in full (phrases: the console
    says them in its language)."""

    title: Phrase
    words: Phrase
    reopens: int | None  # the round an undo would open again, if any
    chooser: str | None = None  # whose choice made the reveal, taken back with it


def reveal_words(state: DilemmaState, r: RoundRevealed) -> Phrase:
    """``round 3's choices (Ann betrayed Bob, Cy and Dee stayed silent, and 4 more pairs)``."""
    if not r.outcomes:
        return phrase("round %(round)s's choices", round=r.number)
    named: Listed | Phrase = Listed(
        tuple(pair(state, o) for o in r.outcomes[:PAIRS_NAMED]), "commas"
    )
    rest = len(r.outcomes) - PAIRS_NAMED
    if rest > 0:
        named = phrases(
            "%(pairs)s, and %(count)s more pair",
            "%(pairs)s, and %(count)s more pairs",
            rest,
            pairs=named,
        )
    return phrase("round %(round)s's choices (%(pairs)s)", round=r.number, pairs=named)


def seen_by_the_room(state: DilemmaState, events: Iterable[DilemmaEvent]) -> Seen | None:
    """What the room has seen of ``events`` (those of the command an undo would take back, with
    ``state`` as it is before the undo); ``None`` when nothing of it was shown."""
    reveal: RoundRevealed | None = None
    ended = False
    chooser: str | None = None
    for event in events:
        if isinstance(event, Chose):
            chooser = state.name(event.pid)
        elif isinstance(event, RoundRevealed):
            reveal = event
        elif isinstance(event, Ended):
            ended = True
    if reveal is not None:
        words = reveal_words(state, reveal)
        if ended:
            words = phrase("%(what)s and the final results", what=words)
        title = phrase("round %(round)s's reveal", round=reveal.number)
        return Seen(title, words, reveal.number, chooser)
    if ended:
        return Seen(phrase("the end of the tournament"), phrase("the final results"), None)
    return None

