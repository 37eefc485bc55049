"""Names in the files the app writes are data: in Markdown they render as typed (never a link,
an image, emphasis, a heading, HTML, a code span or a table column), and in a spreadsheet they
never start a formula. Checked by rendering with a CommonMark parser (markdown-it-py, with
tables) against names drawn by hypothesis from what a hostile player could type."""

from __future__ import annotations

import html

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from companion.rules.core.export import markdown_text, spreadsheet_cell
from tests.conftest import examples

HOSTILE = [
    "![i](http://x/y.png)",
    "[x](javascript:alert(1))",
    "*bold*",
    "**b**",
    "_i_",
    "a | b",
    "<b>hi</b>",
    "<img src=x onerror=alert(1)>",
    "`code`",
    "# heading",
    "## h",
    "> quote",
    "- item",
    "1. item",
    "&amp; &lt;",
    "\\*not\\*",
    "~~gone~~",
    "<http://x.example>",
    "[a]: http://x",
    "=SUM(A1)",
]
# Names made of Markdown's punctuation, letters and spaces: the hostile ones and many more
names = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(alphabet=st.sampled_from("![]()*_`#|<>&\\-+.=~:/ ab1\"'{}$@"), min_size=1, max_size=30),
    st.text(min_size=1, max_size=20).filter(lambda t: "\x00" not in t),
)
PARSER = MarkdownIt("commonmark").enable("table")


def rendered_text(markdown: str) -> str:
    """The HTML a Markdown renderer makes of ``markdown`` (a paragraph, or a table)."""
    return PARSER.render(markdown)


def squeeze(text: str) -> str:
    return " ".join(text.split())


def shown(inner_html: str) -> str:
    """The text a browser shows of ``inner_html``, which must hold no tag."""
    assert "<" not in inner_html, inner_html
    return squeeze(html.unescape(inner_html))


@settings(max_examples=examples(300))
@given(names)
def test_a_name_renders_as_typed_in_a_paragraph(name: str) -> None:
    out = squeeze(rendered_text("Player " + markdown_text(name) + " won."))
    assert out.startswith("<p>") and out.endswith("</p>"), out
    assert shown(out[3:-4]) == squeeze(f"Player {name} won.")


@settings(max_examples=examples(300))
@given(names)
def test_a_name_renders_as_typed_in_a_table_cell(name: str) -> None:
    table = f"| # | name |\n| --- | --- |\n| 1 | {markdown_text(name)} |\n"
    out = squeeze(rendered_text(table))
    assert out.count("<td>") == 2, out  # no extra column
    cell = out.split("<td>1</td> <td>", 1)[1].split("</td>", 1)[0]
    assert shown(cell) == squeeze(name)


@given(names)
def test_a_name_starting_a_line_is_no_heading_list_or_quote(name: str) -> None:
    out = rendered_text(markdown_text(name))
    for tag in ("<h1", "<h2", "<ul", "<ol", "<blockquote", "<img", "<a ", "<em", "<strong",
                "<code", "<hr", "<del", "<table", "<pre"):
        assert tag not in out, (name, out)


@given(st.text(max_size=20))
def test_no_spreadsheet_cell_starts_a_formula(text: str) -> None:
    cell = spreadsheet_cell(text)
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert cell in (text, "'" + text)
    assert (cell == text) == (not text.startswith(("=", "+", "-", "@", "\t", "\r")))
