"""A table drawn from its state: :class:`Rows` shows its ``shown`` rows (the first cell of each
is the row's key), letter for letter; with the same keys in the same order only the cells that
changed are updated, else the rows are drawn anew with the cursor kept on its row."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import DataTable
from textual.widgets.data_table import CursorType

from companion.tui.common.literal import plain

Row = tuple[str, ...]


class Rows(DataTable[Text]):
    """A DataTable of plain cells drawn from ``shown``; its columns are keyed by ``keys``."""

    shown: reactive[tuple[Row, ...]] = reactive(tuple, init=False, layout=False, repaint=False)

    def __init__(
        self, keys: Sequence[str], *, id: str | None = None, cursor_type: CursorType = "row"
    ) -> None:
        super().__init__(id=id, cursor_type=cursor_type)
        self.keys = tuple(keys)

    def watch_shown(self, before: tuple[Row, ...], now: tuple[Row, ...]) -> None:
        same_rows = [row[0] for row in before] == [row[0] for row in now]
        if same_rows and self.row_count == len(now):
            for old, new in zip(before, now, strict=True):
                for key, was, cell in zip(self.keys, old, new, strict=True):
                    if was != cell:
                        self.update_cell(new[0], key, plain(cell))
            return
        keep = self.cursor_row
        self.clear()
        for cells in now:
            self.add_row(*map(plain, cells), key=cells[0])
        if self.row_count:
            self.move_cursor(row=min(max(keep, 0), self.row_count - 1))
