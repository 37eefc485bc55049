"""Player-typed strings on a console: data, never markup, never raw terminal controls.

A name is shown as typed, whatever brackets it holds: ``[/]``, ``[bold red]Boss`` or
``[@click=app.quit]x[/]`` are letters on the screen, not markup (which would crash the console,
style the name or make it clickable). Every console face that shows a player's string goes
through this module:

* :func:`plain` makes a ``Text`` of a string (a table cell, an option, a Static's content);
* :func:`fill` fills a template (our own markup, or a translated sentence read as markup) with
  values that stay literal, styled as the placeholder around them;
* no value is ever put in a markup string: every Textual face (Static, Label, DataTable,
  OptionList, border titles) takes a ``Text``, and a trailing backslash in a value escapes
  whatever tag follows it in Textual's markup, however the value is escaped;
* every console's app (:class:`~companion.tui.common.console.GameConsole`) shows every notice
  through :func:`visible`, as plain text.

As defence in depth (the rules refuse such names, but an old log may hold one), every control,
bidi and invisible format character is shown as a visible escape (``\\x1b``, ``\\u202e``) by
:func:`visible`, so none reaches the terminal raw.
"""

from __future__ import annotations

import re
import unicodedata

from rich.text import Span, Text

# Kept: the joiner inside emoji sequences (a family, a flag) is harmless to the terminal.
JOINER = "\u200d"
UNSAFE = {"Cc", "Cf", "Cs", "Zl", "Zp"}  # controls, format (bidi, invisibles), lone surrogates
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
FIRST_MARK = 0xE000  # values stand in a template as private-use marks while it is parsed


def _shown(char: str) -> str:
    if char == JOINER or unicodedata.category(char) not in UNSAFE:
        return char
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(value: object, *, lines: bool = False) -> str:
    """``str(value)`` with every control, bidi and invisible character written as a visible
    escape (``lines``: new lines are kept, for a sentence of several lines)."""
    text = str(value)
    if text.isprintable() and JOINER not in text:  # the usual case, quickly
        return text
    if lines:
        return "\n".join("".join(map(_shown, line)) for line in text.split("\n"))
    return "".join(map(_shown, text))


def plain(value: object, style: str = "", *, lines: bool = True) -> Text:
    """``value`` as a Text shown letter for letter (brackets are letters), in ``style``."""
    return Text(visible(value, lines=lines), style=style, end="")


def fill(template: str, /, **values: object) -> Text:
    """``template``'s ``%(name)s`` placeholders filled with ``values``, shown letter for letter:
    the template is markup (``[b]%(key)s[/b] save``), the values never are; each value takes
    the style around its placeholder. ``%%`` is a percent sign, as in gettext's messages."""
    marks: dict[str, str] = {}

    def mark(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in values:
            raise KeyError(key)
        sign = chr(FIRST_MARK + len(marks))
        marks[sign] = visible(values[key])
        return sign

    skeleton = PLACEHOLDER.sub(mark, template).replace("%%", "%")
    text = Text.from_markup(skeleton, end="")
    if not marks:
        return text
    found = [i for i, char in enumerate(text.plain) if char in marks]
    pieces = text.divide(j for i in found for j in (i, i + 1))
    out = Text(end="", style=text.style)
    for piece in pieces:
        value = marks.get(piece.plain)
        if value is None:
            out.append_text(piece)
        else:
            spans = [Span(0, len(value), span.style) for span in piece.spans]
            out.append_text(Text(value, style=piece.style, spans=spans, end=""))
    return out
