"""What the room has already seen of a command's events: a round's reveal (everyone saw who
betrayed whom), the end of the tournament. Taking such a command back cannot take back what the
room saw, so the console names it and asks before an undo."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules.core.words import plural
from companion.rules.dilemma.events import DilemmaEvent, Ended, Outcome, RoundRevealed
from companion.rules.dilemma.state import DilemmaState

PAIRS_NAMED = 3  # a reveal's pairs named in full; the rest are counted


@dataclass(frozen=True)
class Seen:
    """What the room saw: ``title`` names it briefly, ``words`` in full."""

    title: str
    words: str
    reopens: int | None  # the round an undo would open again, if any


def pair_words(state: DilemmaState, o: Outcome) -> str:
    """``Ann betrayed Bob``, ``Cy and Dee stayed silent``, ``Eve and Fay betrayed each other``."""
    a, b = state.name(o.a), state.name(o.b)
    if o.choice_a == o.choice_b == "silent":
        return f"{a} and {b} stayed silent"
    if o.choice_a == o.choice_b == "betray":
        return f"{a} and {b} betrayed each other"
    if o.choice_a == "betray":
        return f"{a} betrayed {b}"
    return f"{b} betrayed {a}"


def reveal_words(state: DilemmaState, r: RoundRevealed) -> str:
    """``round 3's choices (Ann betrayed Bob, Cy and Dee stayed silent, and 4 more pairs)``."""
    named = ", ".join(pair_words(state, o) for o in r.outcomes[:PAIRS_NAMED])
    rest = len(r.outcomes) - PAIRS_NAMED
    if rest > 0:
        named += f", and {plural(rest, 'more pair')}"
    return f"round {r.number}'s choices ({named})" if named else f"round {r.number}'s choices"


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
        words = reveal_words(state, reveal) + (" and the final results" if ended else "")
        return Seen(f"round {reveal.number}'s reveal", words, reveal.number)
    if ended:
        return Seen("the end of the tournament", "the final results", None)
    return None
