"""The referee's piles, laid out for the room they are drawn in (pure Rich renderables of the
table view).

Every pile keeps its number and its letters, whatever the size: the piles wrap into bands of as
many as the width holds (never shrunk to ``…``), and when the height cannot hold the tall
piles whole, a pile shows its top chips, then ``+N`` for the N chips not drawn, then the hidden
chips that decide who moves after a play on it (the topmost chip of each live color: a missing
color may be named, and when every live color is in, the deepest of them moves), deepest last.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from companion.language import N_, Language
from companion.tui.common.language import words
from companion.tui.sucker.chips import chip
from companion.tui.sucker.entry import View, example

CELL = 3  # a chip " R ", a number "#12" or a count "+11"
GAP = 2
LEAST = 3  # a cut pile shows at least its top chip, the count hidden and one deciding chip
CUT_NOTE = N_("+N: N chips hidden; under it, those deciding who moves")
CUT_ONLY = N_("+N: N chips hidden")  # no chip under the count decides anything (the game is over)


@dataclass(frozen=True)
class Column:
    """One pile as drawn: its chips top first (positions from the bottom, 0 = the bottom
    chip), with ``hidden`` chips not drawn between ``top`` and ``deciding``."""

    number: int
    top: tuple[int, ...]
    hidden: int
    deciding: tuple[int, ...]

    @property
    def height(self) -> int:
        return len(self.top) + (1 + len(self.deciding) if self.hidden else 0)


def column(number: int, height: int, deciding: Sequence[int], room: int | None) -> Column:
    """Pile ``number`` of ``height`` chips in at most ``room`` rows (``None``: all of it)."""
    if room is None or height <= room:
        return Column(number, tuple(range(height - 1, -1, -1)), 0, ())
    room = max(room, LEAST)

    def below(shown: int) -> list[int]:
        return [i for i in deciding if i < height - shown]  # deepest first

    # The most top chips that leave room for every hidden deciding chip; failing that, the
    # deepest of them alone (it names the next player when every live color is in).
    shown = next((n for n in range(room - 1, 0, -1) if n + 1 + len(below(n)) <= room), 0)
    keep = below(shown)
    if not shown:
        shown = room - 2
        keep = below(shown)[:1]
    top = tuple(range(height - 1, height - 1 - shown, -1))
    return Column(number, top, height - shown - len(keep), tuple(sorted(keep, reverse=True)))


def per_band(width: int) -> int:
    """How many piles one band holds at ``width`` columns."""
    return max(1, (width + GAP) // (CELL + GAP))


def bands_of(view: View, width: int, room: int | None) -> list[list[Column]]:
    """The piles in bands that fit ``width``, each pile cut to at most ``room`` chip rows."""
    piles: dict[int, list[str]] = view["piles"]
    deciding: dict[int, list[int]] = view.get("deciding", {})
    numbers = list(piles)
    n = per_band(width)
    return [
        [column(k, len(piles[k]), deciding.get(k, []), room) for k in numbers[i : i + n]]
        for i in range(0, len(numbers), n)
    ]


def _lines(notes: list[Text], width: int) -> int:
    """The rows ``notes`` take wrapped at ``width``."""
    console = Console(width=max(width, 1), file=io.StringIO())
    return sum(len(note.wrap(console, max(width, 1))) for note in notes)


def cut_note(bands: list[list[Column]]) -> str | None:
    """The note a cut pile needs: what ``+N`` is, and what the chips under it are when some
    are drawn there; ``None`` when no pile is cut."""
    cut = [c for band in bands for c in band if c.hidden]
    if not cut:
        return None
    return CUT_NOTE if any(c.deciding for c in cut) else CUT_ONLY


def _notes(lang: Language, view: View, cut: str | None) -> list[Text]:
    """What the piles' frame says under them: the pile in question (the top line says it too,
    so it gives way to the note on cut piles when these are cut)."""
    _ = lang
    if cut:
        return [Text(_(cut), style="italic")]
    a = view["awaiting"]
    notes = []
    if a["what"] == "kill":
        notes.append(Text(_("Pile %(pile)s is captured: %(name)s kills one chip.", pile=a["pile"],
                            name=a["player"]), style="bold"))
    elif a["what"] == "next":
        notes.append(Text(_("Pile %(pile)s was just played on.", pile=a["pile"]),
                          style="italic"))
    return notes


def _height(bands: list[list[Column]], notes: int, spaced: bool) -> int:
    rows = sum(1 + max(c.height for c in band) for band in bands)
    return rows + (len(bands) - 1 if spaced else 0) + notes


def layout(
    lang: Language, view: View, width: int, height: int | None
) -> tuple[list[list[Column]], bool]:
    """The bands for ``width`` × ``height`` (``None``: as tall as the piles need), and
    whether a blank line parts the bands (the notes under them in ``lang``). Chip rows are cut
    evenly, the tallest first."""
    whole = bands_of(view, width, None)
    if height is None or _height(whole, _lines(_notes(lang, view, None), width), True) <= height:
        return whole, True
    notes = _lines(_notes(lang, view, CUT_NOTE), width)  # the longer note, to be sure
    tallest = max(c.height for band in whole for c in band)
    for room in range(tallest - 1, LEAST - 1, -1):
        bands = bands_of(view, width, room)
        for spaced in (True, False):  # a chip more rather than a blank line between bands
            if _height(bands, notes, spaced) <= height:
                return bands, spaced
    return bands_of(view, width, LEAST), False


NO_PILES = N_("No piles yet: the first chip starts pile 1 (type e.g. '%(example)s').")


def no_piles(lang: Language, view: View) -> Text:
    """The start hint, with a move of this table as its example (its own letters)."""
    return Text(lang(NO_PILES, example=example(view)), style="italic")


def natural_height(lang: Language, view: View, width: int) -> int:
    """The rows the piles take drawn whole at ``width``."""
    if not view["piles"]:
        return _lines([no_piles(lang, view)], width)
    return _height(bands_of(view, width, None), _lines(_notes(lang, view, None), width), True)


def drawn_height(lang: Language, view: View, width: int, height: int | None) -> int:
    """The rows the piles take drawn in ``width`` × ``height``."""
    if not view["piles"]:
        return _lines([no_piles(lang, view)], width)
    bands, spaced = layout(lang, view, width, height)
    return _height(bands, _lines(_notes(lang, view, cut_note(bands)), width), spaced)


def piles_panel(lang: Language, view: View, width: int, height: int | None) -> Group | Text:
    """The piles as drawn in ``width`` × ``height``, their notes in ``lang``."""
    piles: dict[int, list[str]] = view["piles"]
    if not piles:
        return no_piles(lang, view)
    keys = view["keys"]
    a = view["awaiting"]
    focus = a.get("pile")
    bands, spaced = layout(lang, view, width, height)
    parts: list[Table | Text] = []
    for b, band in enumerate(bands):
        if b and spaced:
            parts.append(Text(""))
        grid = Table.grid(padding=(0, GAP, 0, 0))
        for _ in band:
            grid.add_column(justify="center", width=CELL, no_wrap=True)
        grid.add_row(*(Text(f"#{c.number}", style="bold reverse" if c.number == focus else "bold")
                       for c in band))
        for row in range(max(c.height for c in band)):
            cells: list[Text] = []
            for c in band:
                chips = piles[c.number]
                mark = c.number == focus and a["what"] == "kill"
                drawn = [*c.top, None, *c.deciding] if c.hidden else list(c.top)
                if row >= len(drawn):
                    cells.append(Text(""))
                elif drawn[row] is None:
                    cells.append(Text(f"+{c.hidden}", style="italic"))
                else:
                    at = drawn[row]
                    assert at is not None
                    cells.append(chip(chips[at], keys[chips[at]], mark=mark))
            grid.add_row(*cells)
        parts.append(grid)
    return Group(*parts, *_notes(lang, view, cut_note(bands)))


class Piles(Widget):
    """The piles, drawn for the width the widget has and the ``room`` (rows) it is given."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.view: View | None = None
        self.room: int | None = None

    def show(self, view: View, room: int | None) -> None:
        self.view, self.room = view, room
        self.refresh(layout=True)

    def render(self) -> Group | Text:
        if self.view is None:
            return Text("")
        return piles_panel(words(self), self.view, self.content_size.width, self.room)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.view is None:
            return 1
        return drawn_height(words(self), self.view, width, self.room)
