"""The room's words, as pure functions of the game master's view."""

from __future__ import annotations

from companion.language import language
from companion.rules.dilemma.views import gm
from companion.tui.dilemma.words import last_round, waiting_sentence, waiting_text
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


def test_a_long_waiting_list_in_german() -> None:
    names = [f"Spielerin {i}" for i in range(12)]
    shown = waiting_text(language("de"), names, 120)
    assert shown.startswith("Spielerin 0, Spielerin 1") and shown.endswith(" weitere")
    assert " und " in shown and len(waiting_sentence(language("de"), shown)) <= 120


def test_for_a_crowd_the_console_says_what_the_board_shows() -> None:
    """Past views.SMALL_ROOM players the board shows the round's totals, not the pairs: the
    console's last round says the totals, and that the other pairs are on the phones."""
    h = tournament([f"Student {i}" for i in range(40)])
    ok(h, {"do": "start_round", "seed": 3})
    for k, pid in enumerate(h.state.waiting()[:30]):
        ok(h, {"do": "choose", "pid": pid, "choice": "betray" if k % 2 else "silent"})
    ok(h, {"do": "close_round"})
    view = gm(h.state)
    text = last_round(language(), view)
    t = view["last"]["totals"]
    assert sum(t.values()) == 20 and t["no_answer"] >= 5  # ten gave no answer
    assert (f"Board: {t['both_silent']} both silent, {t['one_betrayed']} one betrayed, "
            f"{t['both_betrayed']} both betrayed, {t['no_answer']} no answer") in text
    assert "8 more pairs (each on its players' phones)" in text and "(on the board)" not in text
    small = tournament(["Ann", "Bob"])
    ok(small, {"do": "start_round", "seed": 1})
    ok(small, {"do": "close_round"})
    assert "Board:" not in last_round(language(), gm(small.state))
