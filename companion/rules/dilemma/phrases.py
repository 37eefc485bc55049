"""The warm-up's sentences, as phrases (:mod:`companion.rules.core.phrase`): the house player's
name, a pair's choices, the rule for a round missed and, at the end, why betrayal dominates.

The views keep their English (``str(phrase)``); the faces say the same phrases in their
reader's language. Pure: from the state, or from what a view shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from companion.rules.core.phrase import Listed, Phrase, phrase, phrases
from companion.rules.dilemma.events import Outcome
from companion.rules.dilemma.state import DilemmaState, is_house
from companion.rules.dilemma.strategies import NAMES

_NAMES: dict[str, str] = {str(key): name for key, name in NAMES.items()}


def strategy(key: str) -> Phrase:
    """A famous strategy's name (``Tit for Tat``: a message of its own); an unknown key as it
    is."""
    return Phrase(_NAMES.get(key, key))


def house(played: Sequence[str]) -> Phrase:
    """The house player under the strategies it played: ``House (Tit for Tat)``, ``House (Tit
    for Tat and Always Betray)``."""
    return phrase("House (%(strategy)s)", strategy=Listed(tuple(strategy(k) for k in played)))


def seat(state: DilemmaState, pid: str) -> str | Phrase:
    """A seat's name: a person's own (data), the house player's as a phrase."""
    return house([state.house]) if is_house(pid) else state.name(pid)


def months(count: int) -> Phrase:
    """``1 month``, ``2 months``."""
    return phrases("%(count)s month", "%(count)s months", count)


def pair(state: DilemmaState, o: Outcome) -> Phrase:
    """``Ann betrayed Bob``, ``Cy and Dee stayed silent``, ``Eve and Fay betrayed each other``."""
    a, b = seat(state, o.a), seat(state, o.b)
    if o.choice_a == o.choice_b == "silent":
        return phrase("%(a)s and %(b)s stayed silent", a=a, b=b)
    if o.choice_a == o.choice_b == "betray":
        return phrase("%(a)s and %(b)s betrayed each other", a=a, b=b)
    if o.choice_a == "betray":
        return phrase("%(a)s betrayed %(b)s", a=a, b=b)
    return phrase("%(a)s betrayed %(b)s", a=b, b=a)


def missed_rule(sitting_out: int | Literal["mean"]) -> Phrase:
    """How a round missed is served, and why, in one sentence (the board, the phones)."""
    if sitting_out == "mean":
        return phrase(
            "A round missed (joined late, or away) counts the mean of that round's sentences, "
            "so it neither rewards nor punishes."
        )
    return phrase(
        "A round missed (joined late, or away) counts %(months)s.", months=months(sitting_out)
    )


def dominance(betrayer: int, both_silent: int, both_betray: int, betrayed: int) -> Phrase:
    """Why betray, and why not, in short (the phones, the board, the summary): betraying
    shortens one's own sentence, yet two silent serve less together."""
    return phrase(
        "Whatever your partner does, betraying shortens your own sentence "
        "(%(betrayer)s months instead of %(both_silent)s, %(both_betray)s instead of "
        "%(betrayed)s). Yet two who both stay silent serve %(silent_pair)s months "
        "between them; two who both betray serve %(betray_pair)s.",
        betrayer=betrayer,
        both_silent=both_silent,
        both_betray=both_betray,
        betrayed=betrayed,
        silent_pair=2 * both_silent,
        betray_pair=2 * both_betray,
    )


def explanation(state: DilemmaState) -> Listed:
    """Why betrayal dominates each single round, yet silent pairs did better together, with
    the tournament's own tally: sentences, one after another."""
    s = state.rules.sentences
    both_silent = both_betray = mixed = unanswered = 0
    for r in state.rounds:
        for o in r.outcomes:
            unanswered += (not o.answered_a) + (not o.answered_b)
            if o.choice_a == o.choice_b == "silent":
                both_silent += 1
            elif o.choice_a == o.choice_b == "betray":
                both_betray += 1
            else:
                mixed += 1

    def pairs(n: int) -> Phrase:
        return phrases("%(count)s pair", "%(count)s pairs", n)

    said = [
        phrase(
            "Whatever your partner does, betraying shortens your own sentence: against a silent "
            "partner you serve %(betrayer)s months instead of %(both_silent)s, against a "
            "betrayer %(both_betray)s instead of %(betrayed)s. So in any single round betrayal "
            "dominates, and two careful egoists both betray. Yet a pair who both stay silent "
            "serves %(silent_pair)s months between them, while a pair who both betray serves "
            "%(betray_pair)s: each choice that is best alone leaves both worse off together.",
            betrayer=s.betrayer,
            both_silent=s.both_silent,
            both_betray=s.both_betray,
            betrayed=s.betrayed,
            silent_pair=2 * s.both_silent,
            betray_pair=2 * s.both_betray,
        ),
        phrase(
            "In this tournament %(silent_pairs)s stayed silent together and served "
            "%(silent_pair)s months a pair, %(betray_pairs)s betrayed each other and served "
            "%(betray_pair)s, and in %(mixed_pairs)s one betrayed the other and together they "
            "served %(mixed_pair)s.",
            silent_pairs=pairs(both_silent),
            silent_pair=2 * s.both_silent,
            betray_pairs=pairs(both_betray),
            betray_pair=2 * s.both_betray,
            mixed_pairs=pairs(mixed),
            mixed_pair=s.betrayer + s.betrayed,
        ),
    ]
    if unanswered:  # served as silent, but nobody chose it: said, not hidden in the tally
        if state.rules.no_answer == "silent":
            said.append(
                phrases(
                    "%(count)s time a player gave no answer and served as if silent.",
                    "%(count)s times a player gave no answer and served as if silent.",
                    unanswered,
                )
            )
        else:
            said.append(
                phrases(
                    "%(count)s time a player gave no answer and served as if they had betrayed.",
                    "%(count)s times a player gave no answer and served as if they had betrayed.",
                    unanswered,
                )
            )
    return Listed(tuple(said), "sentences")
