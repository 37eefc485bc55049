"""What the room has already seen of a command's events: a round's reveal (everyone saw who
betrayed whom), the end of the tournament. Taking such a command back cannot take back what the
room saw, so the console names it and asks before an undo."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules.core.phrase import Listed, Phrase, phrase, phrases
from companion.rules.dilemma.events import DilemmaEvent, Ended, RoundRevealed
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
    for event in events:
        if isinstance(event, RoundRevealed):
            reveal = event
        elif isinstance(event, Ended):
            ended = True
    if reveal is not None:
        words = reveal_words(state, reveal)
        if ended:
            words = phrase("%(what)s and the final results", what=words)
        return Seen(phrase("round %(round)s's reveal", round=reveal.number), words, reveal.number)
    if ended:
        return Seen(phrase("the end of the tournament"), phrase("the final results"), None)
    return None
