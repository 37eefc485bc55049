"""The famous strategies of the repeated dilemma, as the house player plays them and as the
debrief replays them.

A strategy sits in one *seat*: it sees only what happened in that seat's earlier rounds, as
pairs (my choice, my partner's choice), whoever the partner was. Random draws from a seed that
the log holds, so every decision is the same when the log is read again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Literal

from companion.rules.core.words import N_

Choice = Literal["silent", "betray"]
Strategy = Literal[
    "tit_for_tat",
    "always_betray",
    "always_silent",
    "grim_trigger",
    "win_stay_lose_shift",
    "random",
]
History = Sequence[tuple[Choice, Choice]]  # (mine, theirs), oldest first

# Their names and how they play: messages (the faces say them in their reader's language).
NAMES: dict[Strategy, str] = {
    "tit_for_tat": N_("Tit for Tat"),
    "always_betray": N_("Always Betray"),
    "always_silent": N_("Always Silent"),
    "grim_trigger": N_("Grim Trigger"),
    "win_stay_lose_shift": N_("Win-Stay-Lose-Shift"),
    "random": N_("Random"),
}
HOW: dict[Strategy, str] = {
    "tit_for_tat": N_("silent first, then does what its last partner did"),
    "always_betray": N_("always betrays"),
    "always_silent": N_("always stays silent"),
    "grim_trigger": N_("silent until betrayed once, then betrays for ever"),
    "win_stay_lose_shift": N_(
        "silent first; keeps its choice after a partner's silence, switches after a betrayal"
    ),
    "random": N_("silent or betray, at random"),
}
DEFAULT: Strategy = "tit_for_tat"


def _other(choice: Choice) -> Choice:
    return "betray" if choice == "silent" else "silent"


def _tit_for_tat(history: History, rng: random.Random) -> Choice:
    return history[-1][1] if history else "silent"


def _grim(history: History, rng: random.Random) -> Choice:
    return "betray" if any(theirs == "betray" for _, theirs in history) else "silent"


def _pavlov(history: History, rng: random.Random) -> Choice:
    if not history:
        return "silent"
    mine, theirs = history[-1]
    return mine if theirs == "silent" else _other(mine)


def _random(history: History, rng: random.Random) -> Choice:
    return "silent" if rng.random() < 0.5 else "betray"


_PLAY: dict[Strategy, Callable[[History, random.Random], Choice]] = {
    "tit_for_tat": _tit_for_tat,
    "always_betray": lambda history, rng: "betray",
    "always_silent": lambda history, rng: "silent",
    "grim_trigger": _grim,
    "win_stay_lose_shift": _pavlov,
    "random": _random,
}


def play(strategy: Strategy, history: History, seed: str) -> Choice:
    """The strategy's choice in its seat's next round; ``seed`` makes Random repeatable."""
    return _PLAY[strategy](history, random.Random(seed))
