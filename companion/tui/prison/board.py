"""The players' board: status, shivs, tonight's progress (never a sealed choice), parole
tokens (hidden unless the private view is on) and each phone's connection.

The board is redrawn often (every phone's choice, every presence signal), so it changes only
the cells whose text or style changed, and a changed cell makes only its row be drawn again:
with 50 prisoners, rebuilding and redrawing every row costs ~90 ms of the console's loop, time
the game master would wait at the keyboard. Rows are rebuilt only when the roster itself
changes (names or order)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import CellDoesNotExist, ColumnKey, RowKey

from companion.language import N_, Language, language
from companion.rules.core.roster import MAX_NAME
from companion.rules.prison.today import TODAY_WORDS, tonight
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.common.presence import Presence, phone_words
from companion.tui.prison.text import STATUS_WORDS, View, said

HIDDEN = N_("hidden")
COLUMNS = (
    (N_("Prisoner"), "prisoner"),
    (N_("Status"), "status"),
    (N_("Shivs"), "shivs"),
    (N_("Today"), "today"),
    (N_("Tokens"), "tokens"),
    (N_("Phone"), "phone"),
)
PHONE = len(COLUMNS) - 1
# A name takes the room the other columns leave on the board (the set-up allows MAX_NAME
# characters), cut short with an ellipsis beyond that, so that one long name does not push
# today's progress, the tokens or the phones off the screen; never shorter than NAME_WIDTH
# (eight letters and the ellipsis still tell the room's names apart; an 80-column window
# shows that much beside the narrow side panel).
NAME_WIDTH = 9
# The other columns at their widest ("Status", "Shivs", "interviewed", "hidden", and the phone
# column as wide as it is now: "connected", or "away since 21:04" once a phone is away),
# each with a cell's padding on both sides, the name's padding and the scroll bar.
OTHER_COLUMNS = (7 + 2) + (5 + 2) + (11 + 2) + (6 + 2) + 2 + 2 + 1


def status_word(status: str, lang: Language) -> str:
    """A prisoner's status as the board's Status column says it (the board's own short words
    for paroled and shived: the column must leave room for the phones at 80 columns, where a
    language's status word said alone of a prisoner may be a longer noun, French « coup de
    surin »)."""
    _ = lang
    if status == "paroled":
        return _.pgettext("board status", "paroled")
    if status == "shived":
        return _.pgettext("board status", "shived")
    return said(STATUS_WORDS, status, _)


def today_word(word: str, lang: Language) -> str:
    """:func:`tonight`'s word as the board's Today column says it (an escaped or paroled
    prisoner's status there in the board's own short word)."""
    _ = lang
    if word == "escaped":
        return _.pgettext("board today", "escaped")
    if word == "paroled":
        return _.pgettext("board today", "paroled")
    if word in TODAY_WORDS:
        return _.say(TODAY_WORDS[word])
    return said(STATUS_WORDS, word, _)


def other_columns(lang: Language | None = None) -> int:
    """:data:`OTHER_COLUMNS` for the words of ``lang`` (English: OTHER_COLUMNS itself)."""
    _ = lang if lang is not None else language()

    def widest(*texts: str) -> int:
        return max(Text(t).cell_len for t in texts) + 2

    return (
        widest(_(COLUMNS[1][0]), *(status_word(s, _) for s in STATUS_WORDS))
        + widest(_(COLUMNS[2][0]))
        + widest(_(COLUMNS[3][0]), *(today_word(w, _) for w in TODAY_WORDS))
        + widest(_(COLUMNS[4][0]), _(HIDDEN))
        + 2  # the phone column's padding
        + 2  # the name's
        + 1  # the scroll bar (one cell wide, see console.tcss)
    )


PHONE_WIDTH = len("connected")


def name_width(
    board_width: int, phone_width: int = PHONE_WIDTH, others: int = OTHER_COLUMNS
) -> int:
    """How many cells of a name the board shows when it is ``board_width`` cells wide, its
    phone column ``phone_width`` and the columns between ``others`` (with their padding)."""
    return max(NAME_WIDTH, min(MAX_NAME, board_width - others - phone_width))


def phone_width(
    names: Iterable[str], presence: Presence, lang: Language | None = None, short: bool = False
) -> int:
    """The phone column's width for these rows (in ``lang``'s words; ``short``: "away 21:04")."""
    said = (phone_words(presence.get(n), lang, short=short) for n in names)
    return max([PHONE_WIDTH, *(Text(word).cell_len for word in said)])


def short(name: str, width: int = NAME_WIDTH) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def cut_names(names: Iterable[str], width: int) -> dict[str, str]:
    """Each name as the board shows it in ``width`` cells: whole, or cut short with an
    ellipsis; names that would then read alike keep their ends instead, cut in the middle
    ("Alexandra Ch…en-Whitfield", "Alexandra Ch…sen-Whitmore"), so that two rows never read
    the same when their names differ."""
    names = list(names)
    cut = {name: short(name, width) for name in names}
    alike = Counter(cut.values())
    for name in names:
        if alike[cut[name]] > 1 and len(name) > width:
            head = (width - 1) // 2
            cut[name] = name[:head] + "…" + name[len(name) - (width - 1 - head):]
    return cut


def rows_of(view: View) -> list[str]:
    return [p["name"] for p in view["prisoners"]]


def same(a: Text, b: Text) -> bool:
    """Whether two cells look the same (rich's Text equality ignores the style)."""
    return a.plain == b.plain and str(a.style) == str(b.style) and a.spans == b.spans


class Board(DataTable[Text]):
    """One row per prisoner; rows keyed by name, columns by the keys in ``COLUMNS``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown: dict[str, list[Text]] = {}  # what each row shows, in row order
        self._names = NAME_WIDTH  # the width the names were cut to
        self.with_warden: str | None = None  # the prisoner in with the warden now
        self._last: tuple[View, bool, Presence] | None = None
        self._others = OTHER_COLUMNS  # the middle columns' width, in the console's words
        self._short = False  # the phone column says "away 21:04" (a narrow window)

    def on_mount(self) -> None:
        _ = words(self)
        self._others = other_columns(_)
        self.cursor_type = "row"
        self.zebra_stripes = True
        # The names' column is headed in the board's own words: "Prisoner" is a role elsewhere,
        # and a short word there leaves room for the other columns at 80 columns.
        labels = {"prisoner": _.pgettext("board column", "Prisoner")}
        for label, key in COLUMNS:
            self.add_column(labels.get(key) or _(label), key=key)

    def name_width(self, phones: int) -> int:
        return name_width(self.size.width, phones, self._others)

    def phones(self, names: Iterable[str], presence: Presence) -> tuple[int, bool]:
        """The phone column's width, and whether it says "away 21:04" rather than "away
        since 21:04": only when the long words would leave the names less than NAME_WIDTH
        (the column would be cut at the window's edge)."""
        _ = words(self)
        names = list(names)
        long = phone_width(names, presence, _)
        away = any((seen := presence.get(n)) is not None and not seen.connected for n in names)
        if not away or self.size.width - self._others - long >= NAME_WIDTH:
            return long, False  # (with no phone away both say the same)
        return phone_width(names, presence, _, short=True), True

    def said_today(self, view: View, name: str, status: str) -> str:
        """:func:`tonight` in the console's words."""
        return today_word(tonight(view, name, status, self.with_warden), words(self))

    def cells(
        self, view: View, *, private: bool, presence: Presence
    ) -> dict[str, list[Text]]:
        """Each prisoner's row, by name, in the view's order."""
        _ = words(self)
        tokens = view.get("parole_tokens", {})
        shown = cut_names((p["name"] for p in view["prisoners"]), self._names)
        rows: dict[str, list[Text]] = {}
        for p in view["prisoners"]:
            name, status = p["name"], p["status"]
            token_cell = (
                Text(str(tokens.get(name, 0)), style="bold red")
                if private
                else Text(_(HIDDEN), style="dim")
            )
            style = "" if status == "active" else "dim"
            rows[name] = [
                plain(shown[name], style),
                Text(
                    status_word(status, _),
                    style="bold" if status in ("escaped", "paroled") else style,
                ),
                Text(str(p["shivs"]), style=style),
                plain(self.said_today(view, name, status), style),
                token_cell,
                Text(phone_words(presence.get(name), _, short=self._short)),
            ]
        return rows

    def show(
        self, view: View, *, private: bool, presence: Presence
    ) -> None:
        """Show ``view``: only the changed cells when the roster is the same."""
        self._last = (view, private, presence)
        phones, short_phones = self.phones((p["name"] for p in view["prisoners"]), presence)
        names = self.name_width(phones)
        resized, self._names = self._cut_anew(rows_of(view), names), names
        resized = resized or short_phones != self._short
        self._short = short_phones
        rows = self.cells(view, private=private, presence=presence)
        if resized or list(rows) != list(self._shown) or self.row_count != len(rows):
            self._rebuild(rows)
            return
        for name, cells in rows.items():
            for index, cell in enumerate(cells):
                self._set(name, index, cell)

    def on_resize(self) -> None:
        """The names take the room there is: cut again when the board's width changes them."""
        if self._last is None:
            return
        view, private, presence = self._last
        phones, short_phones = self.phones((p["name"] for p in view["prisoners"]), presence)
        if self._cut_anew(rows_of(view), self.name_width(phones)) or short_phones != self._short:
            self.show(view, private=private, presence=presence)

    def show_phones(self, seats: Iterable[str], presence: Presence) -> None:
        """A phone came or went: only the connection cells of ``seats`` (not every row),
        unless the names must be cut anew for the phone column's width."""
        if self._last is not None:
            view, private, __ = self._last
            phones, short_phones = self.phones(self._shown, presence)
            if self._cut_anew(self._shown, self.name_width(phones)) or short_phones != self._short:
                self.show(view, private=private, presence=presence)
                return
        _ = words(self)
        for name in seats:
            if name in self._shown:
                self._set(name, PHONE, Text(phone_words(presence.get(name), _, short=self._short)))

    def column_in_view(self, key: str) -> bool:
        """Whether the column ``key`` is wholly inside the board's width (not cut or off
        screen to the right)."""
        right = 0
        for column in self.ordered_columns:
            right += column.get_render_width(self)
            if column.key == ColumnKey(key):
                return right - int(self.scroll_x) <= self.scrollable_content_region.width
        return False

    def _cut_anew(self, names: Iterable[str], width: int) -> bool:
        """Whether a name would show otherwise cut to ``width`` than it does now."""
        names = list(names)
        return cut_names(names, width) != cut_names(names, self._names)

    def _rebuild(self, rows: dict[str, list[Text]]) -> None:
        row = self.cursor_row
        self.clear()
        for column in self.columns.values():  # as wide as the new rows, not the old ones
            column.content_width = column.label.cell_len
        self._shown = {}
        for name, cells in rows.items():
            self.add_row(*cells, key=name)
            self._shown[name] = list(cells)
        if self.row_count:
            self.move_cursor(row=min(max(row, 0), self.row_count - 1))

    def _set(self, name: str, index: int, cell: Text) -> None:
        shown = self._shown[name]
        if same(shown[index], cell):
            return
        shown[index] = cell
        key = COLUMNS[index][1]
        column = self.columns[ColumnKey(key)]
        # Columns only grow, as when the rows are added again.
        wider = cell.cell_len > column.content_width
        self.update_cell(name, key, cell, update_width=wider)

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: ColumnKey | str,
        value: Text,
        *,
        update_width: bool = False,
    ) -> None:
        """As DataTable's, but when no width changes only that row is drawn again.

        DataTable keys its render caches on a count of updates, so any update draws every
        visible row again; here the cached renders of the changed row alone are forgotten.
        Should DataTable's internals differ (another Textual), it falls back to the plain
        update."""
        if update_width:
            super().update_cell(row_key, column_key, value, update_width=True)
            return
        row_key = RowKey(row_key) if isinstance(row_key, str) else row_key
        column_key = ColumnKey(column_key) if isinstance(column_key, str) else column_key
        try:
            index = self._row_locations.get(row_key)
            if index is None or column_key not in self._column_locations:
                raise CellDoesNotExist(f"No cell exists for {row_key!r}, {column_key!r}.")
            self._data[row_key][column_key] = value
            rows, cells = self._row_render_cache, self._cell_render_cache
            for stale_row in [k for k in rows.keys() if k[0] == row_key]:  # noqa: SIM118 (an LRUCache)
                rows.discard(stale_row)
            for stale_cell in [k for k in cells.keys() if k[0] == row_key]:  # noqa: SIM118 (an LRUCache)
                cells.discard(stale_cell)
            self._row_renderable_cache.discard((self._update_count, index))
            self._line_cache.clear()
        except AttributeError:
            super().update_cell(row_key, column_key, value)
            return
        self.refresh_row(index)
