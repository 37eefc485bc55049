"""The console's words (tui/prison/text.py) for what game masters found at the table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.rules.core.game import Refused, fold
from companion.rules.core.room import Played
from companion.rules.prison.room import ROOM
from companion.rules.prison.views import gm, story, table
from companion.session.session import Session
from companion.tui.common.faults import Faults
from companion.tui.prison.context import Context
from companion.tui.prison.reveal import step_lines
from companion.tui.prison.text import banner, nights_bar
from companion.tui.prison.timeline import story_markdown, timeline
from tests.conftest import demo_session
from tests.prison_helpers import game, ok


def night(history, choices: dict[str, str], search: str) -> None:
    for name, choice in choices.items():
        ok(history, do="choose", prisoner=name, choice=choice)
    ok(history, do="close_planning")
    ok(history, do="search", prisoner=search)


def reveal_steps(history) -> list[tuple[str, str]]:
    """(headline, line) of every step of the last search's reveal, as the room fold holds it."""
    state = history.initial
    room = ROOM.start(state)
    for entry in history.entries:
        after = fold(history.game, state, entry.events)
        room = ROOM.after(room, Played(entry, state, "gm", 0.0), after)
        state = after
    reveal = room.stage.reveal
    reveal = replace(reveal, shown=len(reveal.steps))
    return [step_lines(step, reveal, table(state)) for step in reveal.steps]


def test_the_nights_bar_stops_at_the_target_and_says_the_surplus_in_words() -> None:
    # Not "■■■■■■■■ 9 of 8" (top line, board and report).
    assert nights_bar(9, 8) == "■" * 8 + " 8 of 8"
    history = game(nights_to_escape=2)
    night(history, {"Ada": "work", "Ben": "work", "Cy": "work"}, search="Dee")
    state = history.state
    assert state.outcome == "escape" and state.nights_done == 3
    report = story_markdown("friday", gm(state), story(state) or [], [])
    assert "Nights of work: 2 of 2 (they worked 1 night more than they needed)." in report
    assert "3 of 2" not in report
    assert "3 of 2" not in " ".join(step for _, step in reveal_steps(history))


def test_a_prisoner_caught_working_is_not_nobody_working() -> None:
    # Not "Tonight nobody worked: 0 of 6 nights done" when Ben was caught working.
    history = game()
    night(history, {"Ben": "work"}, search="Ben")
    said = banner(gm(history.state)).say
    assert "nobody worked" not in said
    assert "Tonight Ben was caught working and nobody else worked: 0 of 6 nights done." in said
    steps = reveal_steps(history)
    assert steps[-1][1].startswith("Ben was caught working and nobody else worked: 0 nights")
    lines = timeline(table(history.state), None, [])
    assert "  night: Ben was caught working and nobody else worked (+0 nights)" in lines


def test_workers_and_a_catch_on_the_same_night() -> None:
    history = game()
    night(history, {"Ada": "work", "Ben": "work", "Cy": "work"}, search="Ben")
    said = banner(gm(history.state)).say
    assert "Tonight Ada and Cy worked, and Ben was caught working: 2 of 6 nights done." in said


def _session_to_accusations(folder: Path) -> Session:
    session = demo_session(folder)
    for command in (
        {"do": "choose", "prisoner": "Ada", "choice": "work"},
        {"do": "close_planning"},
        {"do": "interview", "prisoner": "Ben", "deal": True},
        {"do": "search", "prisoner": "Cy"},
    ):
        assert not isinstance(session.submit(command), Refused)
    return session


def test_an_undone_accusation_is_listed_under_its_day_and_the_report_has_the_tokens(
    tmp_path: Path,
) -> None:
    # Not "Correction: …" at the very end, after day 2, nor a report's table without tokens.
    session = _session_to_accusations(tmp_path)
    assert not isinstance(session.submit({"do": "accuse", "accuser": "Cy", "accused": "Dee"}),
                          Refused)
    session.undo()
    session.submit({"do": "end_day"})
    ctx = Context(Faults(print, lambda: None), opened=session)
    lines = ctx.history_lines(False)
    correction = "  Correction: the game master took back Cy's accusation of Dee."
    assert correction in lines
    assert lines.index(correction) < lines.index("Day 2")
    state = session.state
    report = story_markdown(session.name, gm(state), [
        {**day, "choices": {}, "deals": []} for day in table(state)["history"]
    ], ctx.extras(), record=ctx.record())
    assert "| prisoner | status | parole tokens | shivs |" in report
    assert "| Ben | active | 1 | 1 |" in report
    day_1 = report.split("## Day 1")[1]
    assert "- Correction: the game master took back Cy's accusation of Dee." in day_1


def test_guessed_links_reach_the_history_and_the_report(tmp_path: Path) -> None:
    # The bad_tokens note is in the history and the report, not only in the log.
    session = _session_to_accusations(tmp_path)
    session.note("bad_tokens", address="10.0.0.66", count=20, seconds=60.0)
    ctx = Context(Faults(print, lambda: None), opened=session)
    history = "\n".join(ctx.history_lines(False))
    assert "wrong links from 10.0.0.66: 20 in a minute; that device was paused." in history
    assert history.index("10.0.0.66") > history.index("Day 1")
    today = {**table(session.state)["today"], "choices": {}, "deals": []}
    report = story_markdown(session.name, gm(session.state), [today], ctx.extras())
    assert "; that device was paused." in report.split("## Day 1")[1]


def test_the_help_counts_in_words() -> None:
    # Not "1 deal(s) a day at most", "searches 1 cell(s)".
    from companion.tui.prison.help import rules_text

    text = rules_text(table(game().state)["rules"], "Wendy")
    assert "(s)" not in text
    assert "(1 deal a day at most)" in text and "the warden searches 1 cell;" in text
    assert "after 6 nights of work" in text and "holding 3 parole tokens" in text


def test_the_banner_calls_in_whoever_is_with_the_warden_not_the_queue_head() -> None:
    # Not "Ada, please come in." when the game master has called Dee in.
    history = game()
    ok(history, do="close_planning")
    queue_head = banner(gm(history.state)).say
    assert "Ada, please come in." in queue_head
    inside = banner(gm(history.state), "Dee")
    assert "Dee, please come in." in inside.say and "Ada" not in inside.say
    assert inside.do.startswith("Dee is with the warden.")
