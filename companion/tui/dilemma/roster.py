"""The room's roster: who faces whom, who has chosen (what, only while the game master peeks),
each phone and where each player joined from. :func:`roster_shown` decides what it shows for a
width; the :class:`Roster` table draws that, from its ``shown`` state alone."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import DataTable

from companion.language import Language
from companion.tui.common.literal import plain
from companion.tui.common.presence import phone_words
from companion.tui.dilemma.state import RoomState
from companion.tui.dilemma.words import CHOICE_WORDS, View, cut, doing_word

# What a player mostly does in a round: the roster's Now column is at least as wide as these.
USUAL_DOING = ("left", "waiting for a round", "sits out", "chosen", "choosing")


def phone_cells(room: RoomState, pids: list[str], short: bool, lang: Language) -> list[str]:
    """Each player's phone: ``connected``, ``away since 21:04`` (``away 21:04`` when
    ``short``), or ``-`` when not seen since the console started, in ``lang``."""
    return [phone_words(room.presence.get(pid), lang, short=short) for pid in pids]


@dataclass(frozen=True)
class Shown:
    """What the roster shows: its columns ((title, key), width) and its rows (pid, cells)."""

    columns: tuple[tuple[tuple[str, str], int], ...] = ()
    rows: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def shape(self) -> tuple[object, ...]:
        return self.columns, tuple(pid for pid, _ in self.rows)


def roster_shown(lang: Language, room: RoomState, v: View, width: int) -> Shown:
    """The roster of ``v`` in ``width`` columns, in ``lang``."""
    _ = lang
    peeking = room.peeking
    facing = any(row["facing"] for row in v["roster"])  # nobody faces anyone in the lobby
    pids = [row["pid"] for row in v["roster"]]
    phones = phone_cells(room, pids, False, _)
    # The address each player joined from (the game master's alone): a column only once
    # someone joined from a phone, and the first to go when names would be cut short.
    where = room.origins()
    addresses = [where[pid].address or "" if pid in where else "" for pid in pids]
    shown_addresses = any(addresses)
    # Name (and Facing) share what Now, Months, Phone (and Choice) and the padding leave.
    # When names would be cut short the phone words shorten; when the table would not fit
    # Months goes (the side panel ranks everyone by months), then, while peeking, Phone.
    months = shown_phones = True
    longest = max((cell_len(row["name"]) for row in v["roster"]), default=0)
    # The column titles, and the room the Now, Months and Choice columns take (each with 2
    # of padding): as wide as their usual words in this language, at least as in English.
    labels_of = {
        "name": _("Name"),
        "doing": _("Now"),
        "facing": _("Facing"),
        "months": _("Months"),
        "phone": _("Phone"),
        "address": _("Joined from"),
        "choice": _.pgettext("roster", "Choice"),
    }
    choice_words = {key: _(word) for key, word in CHOICE_WORDS.items()}
    now_room = max(
        8, len(labels_of["doing"]), *(len(doing_word(_, d, short=True)) for d in USUAL_DOING)
    )
    months_room = max(6, len(labels_of["months"]))
    choice_room = max(6, len(labels_of["choice"]), *map(len, choice_words.values()))

    def name_room() -> int:  # each column takes its width and 2 of padding
        phone = max([len(labels_of["phone"]), *map(len, phones)]) + 2 if shown_phones else 0
        address = (
            max([len(labels_of["address"]), *map(len, addresses)]) + 2 if shown_addresses else 0
        )
        rest = (
            width
            - (now_room + 2)
            - (months_room + 2 if months else 0)
            - phone
            - address
            - (choice_room + 2 if peeking else 0)
        )
        return (rest - 4) // 2 if facing else rest - 2

    enough, least = min(10, longest), min(8, longest)
    if shown_addresses and name_room() < enough:
        shown_addresses = False  # the flood dialog (X) still groups players by address
    if name_room() < enough:
        phones = phone_cells(room, pids, True, _)
    if name_room() < least or (peeking and name_room() < enough):
        months = False  # while peeking the choice matters more than months
    if peeking and name_room() < least:
        shown_phones = False
    names = max(8, min(24, name_room()))
    rows = []
    for row, phone, address in zip(v["roster"], phones, addresses, strict=True):
        doing = doing_word(_, row["doing"], short=True)
        cells = [cut(row["name"], names), doing]
        if facing:
            house = _.pgettext("facing", "House")
            facing_name = house if row["facing_house"] else row["facing"] or ""
            cells.append(cut(facing_name, names))
        if months:
            cells.append(str(row["months"]))
        if shown_addresses:
            cells.append(address)
        if shown_phones:
            cells.append(phone)
        if peeking:
            cells.append(choice_words.get(row.get("choice") or "", ""))
        rows.append((row["pid"], tuple(cells)))
    keys = ["name", "doing"]
    keys += ["facing"] * facing + ["months"] * months + ["address"] * shown_addresses
    keys += ["phone"] * shown_phones + ["choice"] * peeking
    labels = [(labels_of[key], key) for key in keys]
    # Widths set here rather than measured when the table is idle: the same at once.
    widths = [
        max([cell_len(label), *(cell_len(cells[i]) for _, cells in rows)])
        for i, (label, _) in enumerate(labels)
    ]
    return Shown(tuple(zip(labels, widths, strict=True)), tuple(rows))


class Roster(DataTable[Text]):
    """The roster's table, drawn from ``shown``: with the same rows and columns as before (a
    choice, a phone) only the cells that changed, since a hall's roster is hundreds of rows and
    drawing it all again held up the phones; else all of it, the cursor kept on its row."""

    shown: reactive[Shown] = reactive(Shown, init=False, layout=False, repaint=False)

    def watch_shown(self, before: Shown, now: Shown) -> None:
        if now.shape == before.shape and self.row_count == len(now.rows):
            keys = [key for (_, key), _ in now.columns]
            for (pid, cells), (_, was) in zip(now.rows, before.rows, strict=True):
                for key, cell, old in zip(keys, cells, was, strict=True):
                    if cell != old:
                        self.update_cell(pid, key, plain(cell))
            return
        keep = self.cursor_row
        self.clear(columns=True)
        for (label, key), width in now.columns:
            self.add_column(label, key=key, width=width)
        for pid, cells in now.rows:
            self.add_row(*map(plain, cells), key=pid)
        if self.row_count:
            self.move_cursor(row=min(keep, self.row_count - 1))

    def cursor_pid(self) -> str | None:
        """The player under the cursor (``None`` while nobody joined)."""
        if not self.row_count:
            return None
        return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
