"""What a player typed, made safe for the files the app writes: Markdown that shows a name as
it was typed (never as a link, an image, emphasis, a heading, HTML or a table's column), and
spreadsheet cells that never start a formula. One helper each, used by every writer."""

from __future__ import annotations

import re

# Punctuation that means something to Markdown anywhere in a line (CommonMark lets a backslash
# escape any ASCII punctuation; only these need it: "(" is no link without "[", "!" no image)
_MARKDOWN = frozenset("\\`*_[]|~")
# What means something only at the start of a line: a heading, a list, a setext underline
_LINE_START = re.compile(r"^([#>+=-]|\d+[.)])")
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
# What makes a spreadsheet read a cell as a formula (or move it to another cell)
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def markdown_text(text: str) -> str:
    """``text`` as literal Markdown inline text, also inside a table cell: Markdown's
    punctuation backslash-escaped (``|`` too), ``&``, ``<`` and ``>`` as HTML entities, runs
    of spaces and line breaks as one space, the ends trimmed (a name is one line, and a line
    indented is code)."""
    out: list[str] = []
    for char in " ".join(text.split()):
        if char in _HTML:
            out.append(_HTML[char])
        elif char in _MARKDOWN:
            out.append("\\" + char)
        else:
            out.append(char)
    return _LINE_START.sub(lambda m: m.group(1)[:-1] + "\\" + m.group(1)[-1], "".join(out))


def spreadsheet_cell(text: str) -> str:
    """``text`` as a spreadsheet shows it, never as a formula: a cell starting with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text
