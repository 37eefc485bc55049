"""The prison break's Markdown report shows every name as typed: a roster of hostile names
renders with no link, image, emphasis, HTML or extra table column."""

from __future__ import annotations

import html

from markdown_it import MarkdownIt

from companion.rules.prison.views import gm, story
from companion.tui.prison.timeline import story_markdown
from tests.prison_helpers import game, ok

NAMES = ["![i](http://x/y.png)", "[x](javascript:a)", "*bold*", "a|b", "<b>B</b>", "# Head"]


def test_hostile_names_show_as_typed_in_the_report() -> None:
    history = game(NAMES)
    for name in NAMES:
        ok(history, do="choose", prisoner=name, choice="work")
    ok(history, do="close_planning")
    ok(history, do="search", prisoner=NAMES[0])
    state = history.state
    report = story_markdown("*night* <i>", gm(state), story(state) or [], [])
    page = MarkdownIt("commonmark").enable("table").render(report)
    for tag in ("<img", "<a ", "<b>", "<em>", "<i>", "<h1>Head"):
        assert tag not in page, tag
    rows = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert rows.count("<tr>") == len(NAMES) and rows.count("<td>") == 4 * len(NAMES)
    for name in NAMES:
        assert f"<td>{html.escape(name)}</td>" in rows, name
    assert "<h1>" + html.escape("*night* <i>") in page
