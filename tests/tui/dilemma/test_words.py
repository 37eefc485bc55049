"""The room's words, as pure functions of the game master's view."""

from __future__ import annotations

from typing import Any

from companion.language import language
from companion.rules.core.game import History
from companion.rules.dilemma.seen import PAIRS_NAMED, seen_by_the_room
from companion.rules.dilemma.views import gm
from companion.tui.dilemma.room import tally
from companion.tui.dilemma.words import (
    explanation,
    last_round,
    missed_rule,
    seen_words,
    waiting_sentence,
    waiting_text,
)
from tests.dilemma_helpers import ok, tournament


def test_the_last_round_says_no_answer_rather_than_silent() -> None:
    h = tournament(["Ann", "Bob"])
    ok(h, {"do": "start_round", "seed": 3})
    ok(h, {"do": "choose", "pid": "p0", "choice": "betray"})
    ok(h, {"do": "close_round"})
    lines = last_round(language(), gm(h.state), width=15).splitlines()
    ann = next(line for line in lines if "Ann" in line)
    bob = next(line for line in lines if "Bob" in line)
    assert "BETRAY" in ann and "no answer" in bob and "silent" not in bob
    assert ann.index("BETRAY") == bob.index("no answer")  # still aligned
    assert lines[-1] == "Silent: R1 0%" or "No answer: R1 1" in lines
    assert max(len(line) for line in lines) <= 30  # the narrow side panel's room


def revealed(names: list[str], **overrides: Any) -> History[Any, Any, Any]:
    """A tournament whose first round was revealed with a mix of choices and no answers."""
    h = tournament(names, **overrides)
    ok(h, {"do": "start_round", "seed": 5})
    pids = [pid for pid in h.state.waiting()]
    for i, pid in enumerate(pids[:-1]):
        ok(h, {"do": "choose", "pid": pid, "choice": "betray" if i % 3 else "silent"})
    return h


def test_the_room_says_in_english_what_the_rules_say() -> None:
    """The console's words are its own (in the console's language) but, in English, the same
    sentences as the rules' views: what the room saw of an undo, the final explanation and
    the rule for a missed round."""
    names = [f"Player {i}" for i in range(9)]  # the house player sits in the tenth seat
    for rule in ("silent", "betray"):
        h = revealed(names, no_answer=rule)
        entry = ok(h, {"do": "close_round"})
        undone = h.state  # as the console asks, with the reveal still in the state
        v = gm(undone)
        seen = seen_by_the_room(undone, entry.events)
        assert seen is not None and len(v["last"]["outcomes"]) > PAIRS_NAMED
        assert seen_words(language(), undone, entry.events, v) == (seen.title, seen.words)
        ok(h, {"do": "finish"})
        final = gm(h.state)
        assert final["explanation"] is not None
        assert explanation(language(), final["sentences"], tally(h.state)) == final["explanation"]
        assert missed_rule(language(), final["sentences"]) == final["missed_rule"]


def test_a_long_waiting_list_in_german() -> None:
    names = [f"Spielerin {i}" for i in range(12)]
    shown = waiting_text(language("de"), names, 120)
    assert shown.startswith("Spielerin 0, Spielerin 1") and shown.endswith(" weitere")
    assert " und " in shown and len(waiting_sentence(language("de"), shown)) <= 120
