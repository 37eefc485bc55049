"""The console's words (tui/prison/text.py) for what issue 16 found at the table."""

from __future__ import annotations

from companion.rules.prison.views import gm, story, table
from companion.tui.prison.reveal import reveal_steps
from companion.tui.prison.text import banner, nights_bar, story_markdown, timeline
from tests.prison_helpers import game, ok


def night(history, choices: dict[str, str], search: str) -> None:
    for name, choice in choices.items():
        ok(history, do="choose", prisoner=name, choice=choice)
    ok(history, do="close_planning")
    ok(history, do="search", prisoner=search)


def test_the_nights_bar_stops_at_the_target_and_says_the_surplus_in_words() -> None:
    # Before: "■■■■■■■■ 9 of 8" (top line, board and report).
    assert nights_bar(9, 8) == "■" * 8 + " 8 of 8"
    history = game(nights_to_escape=2)
    night(history, {"Ada": "work", "Ben": "work", "Cy": "work"}, search="Dee")
    state = history.state
    assert state.outcome == "escape" and state.nights_done == 3
    report = story_markdown("friday", table(state), story(state) or [], [])
    assert "Nights of work: 2 of 2 (they worked 1 night more than they needed)." in report
    assert "3 of 2" not in report
    assert "3 of 2" not in " ".join(step for _, step in reveal_steps(table(state), "Dee"))


def test_a_prisoner_caught_working_is_not_nobody_working() -> None:
    # Before: "Tonight nobody worked: 0 of 6 nights done" although Ben had been caught working.
    history = game()
    night(history, {"Ben": "work"}, search="Ben")
    said = banner(gm(history.state)).say
    assert "nobody worked" not in said
    assert "Tonight Ben was caught working and nobody else worked: 0 of 6 nights done." in said
    steps = reveal_steps(table(history.state), "Ben")
    assert steps[-1][1].startswith("Ben was caught working and nobody else worked: 0 nights")
    lines = timeline(table(history.state), None, [])
    assert "  night: Ben was caught working and nobody else worked (+0 nights)" in lines


def test_workers_and_a_catch_on_the_same_night() -> None:
    history = game()
    night(history, {"Ada": "work", "Ben": "work", "Cy": "work"}, search="Ben")
    said = banner(gm(history.state)).say
    assert "Tonight Ada and Cy worked, and Ben was caught working: 2 of 6 nights done." in said
