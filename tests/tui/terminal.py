"""What a console shows and says, through Textual's public API (no tests here).

:func:`terminal_lines` reads the terminal as the game master sees it from the app's own SVG
screenshot (``App.export_screenshot``): each line as plain text, padded to the terminal's
width. :func:`notices` lists every notice an app gave (``App.notify``, recorded by the
``tests/tui`` fixture ``_recorded_notices``), less those taken away by ``clear_notifications``.
"""

from __future__ import annotations

import html
import re
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.cells import cell_len
from textual.app import App

_TEXT = re.compile(
    r'<text class="[^"]*" x="(?P<x>[\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#[\w-]+-line-(?P<line>\d+)\)">(?P<text>[^<]*)</text>'
)
_LINE_WIDTH = re.compile(r'<clipPath id="[\w-]+-line-0">\s*<rect x="0" y="[\d.]+" width="([\d.]+)"')


def terminal_lines(app: App[Any]) -> list[str]:
    """The terminal now (the top screen over what it covers), one plain line per row."""
    width, height = app.size
    svg = app.export_screenshot()
    found = _LINE_WIDTH.search(svg)
    assert found is not None, "no line in the screenshot"
    char = float(found.group(1)) / width  # one cell's width in the picture
    lines = [""] * height
    for match in _TEXT.finditer(svg):
        row = int(match.group("line"))
        column = round(float(match.group("x")) / char)
        text = html.unescape(match.group("text")).replace("\xa0", " ").rstrip("\n")
        line = lines[row]
        lines[row] = line + " " * (column - cell_len(line)) + text
    return [line + " " * (width - cell_len(line)) for line in lines]


_told: weakref.WeakKeyDictionary[App[Any], list[str]] = weakref.WeakKeyDictionary()


def notices(app: App[Any]) -> list[str]:
    """Every notice ``app`` gave so far (as ``App.notify`` got it), less those cleared."""
    return list(_told.get(app, []))


@contextmanager
def recording() -> Iterator[None]:
    """While inside: every app's notices are recorded for :func:`notices` (each still shows)."""
    notify, clear = App.notify, App.clear_notifications

    def notified(self: App[Any], message: str, **kwargs: Any) -> None:
        _told.setdefault(self, []).append(str(message))
        notify(self, message, **kwargs)

    def cleared(self: App[Any]) -> None:
        _told.pop(self, None)
        clear(self)

    App.notify = notified  # type: ignore[method-assign]
    App.clear_notifications = cleared  # type: ignore[method-assign]
    try:
        yield
    finally:
        App.notify, App.clear_notifications = notify, clear  # type: ignore[method-assign]
