"""The Markdown report ends with the epilogue, night by night, in the session's language, every
name as typed."""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt

from companion.language import language
from companion.rules.prison.epilogue import epilogue_view, steps
from companion.rules.prison.views import gm, story
from companion.tui.prison.timeline import story_markdown
from tests.prison_helpers import game, ok

NAMES = ["Ada", "*bold*", "<b>B</b>", "Dee"]


def finished() -> Any:
    history = game(NAMES, nights_to_escape=2)
    for name, choice in zip(NAMES, ["rest", "work", "work", "rest"], strict=True):
        ok(history, do="choose", prisoner=name, choice=choice)
    ok(history, do="close_planning")
    ok(history, do="interview", prisoner="Dee", deal=True)
    ok(history, do="search", prisoner="Ada")
    return history.state


def test_the_report_tells_the_epilogue_with_names_as_typed() -> None:
    state = finished()
    told = epilogue_view(state, steps(state))
    report = story_markdown("night", gm(state), story(state) or [], [], epilogue=told)
    tail = report.split("## What really happened\n", 1)[1]
    assert tail.startswith("\n### Night 1\n\n- ")
    assert "- Dee took the warden's deal: their first parole token.\n" in tail
    assert "- The warden searched Ada's cell, but Ada had chosen to rest: safe.\n" in tail
    assert "### The prisoners escaped\n" in tail
    page = MarkdownIt("commonmark").render(tail)
    assert "<em>" not in page and "<b>" not in page
    assert "\\*bold\\*" in tail  # literal Markdown: the name as typed


def test_the_report_tells_it_in_the_sessions_language() -> None:
    state = finished()
    told = epilogue_view(state, steps(state))
    de = language("de")
    report = story_markdown("night", gm(state), story(state) or [], [], de, epilogue=told)
    assert "## Was wirklich geschah\n\n### Nacht 1\n" in report
    assert "- Dee hat den Deal des Wärters angenommen: die erste Bewährungsmarke.\n" in report
    assert "What really happened" not in report
