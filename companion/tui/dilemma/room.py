"""The room: the screen the dilemma console plays on. The room's QR code and links, the status,
the roster (who faces whom, who has chosen; what, only while the game master peeks), the last
round and the leaderboard. It draws itself from a :class:`RoomState`."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from companion.language import N_, Language
from companion.rules.dilemma.phrases import explanation
from companion.rules.dilemma.room import DilemmaRoom, RoundTimer, TimerOff
from companion.rules.dilemma.state import DilemmaState
from companion.rules.dilemma.views import gm
from companion.session.dilemma.seats import Origin, origins
from companion.session.session import Session
from companion.tui.common.footer import Keys
from companion.tui.common.footer import fit_footer as fit_keys
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.common.presence import Presence, phone_words
from companion.tui.dilemma.flood import clock
from companion.tui.dilemma.screens import FinalScreen
from companion.tui.dilemma.words import (
    CHOICE_WORDS,
    View,
    cut,
    doing_word,
    last_round,
    leaders,
    waiting_sentence,
    waiting_text,
)

# The QR key's description as the room's footer shows it (translated there, as every key's).
QR_KEYS = {True: N_("Hide QR"), False: N_("Show QR")}
# The doors key's, by whether the doors are closed now.
DOOR_KEYS = {True: N_("Open doors"), False: N_("Close doors")}
# What a player mostly does in a round: the roster's Now column is at least as wide as these.
USUAL_DOING = ("left", "waiting for a round", "sits out", "chosen", "choosing")


def phase_words(lang: Language, v: View) -> str:
    """The status's first sentence: where the tournament stands and what to press."""
    _ = lang
    phase = v["phase"]
    if phase == "lobby":
        return _("Players are joining. Press n to start round 1 when everyone is in.")
    if phase == "choosing":
        return lang.n_(
            "Round %(round)s of %(rounds)s: %(chosen)s of %(count)s has chosen.",
            "Round %(round)s of %(rounds)s: %(chosen)s of %(count)s have chosen.",
            v["to_choose"],
            round=v["round"],
            rounds=v["rounds"],
            chosen=v["chosen_count"],
        )
    if phase == "revealed":
        return _(
            "Round %(round)s of %(rounds)s is revealed. Press n for the next round.",
            round=v["round"],
            rounds=v["rounds"],
        )
    return _("The tournament is over. Press r for the results.")


# Below this width the room's QR code and the side panel take turns; below this height the
# side panel lists fewer pairs and names.
NARROW_WIDTH = 110
SHORT_HEIGHT = 30
# The keys each phase needs in the footer (the rest still work, and ? lists them all).
PHASE_KEYS = {
    "lobby": {
        "add_player",
        "next_round",
        "rename",
        "remove",
        "bring_back",
        "round_time",
        "house",
        "doors",
        "clear_flood",
    },
    "choosing": {
        "choose",
        "close_round",
        "peek",
        "rename",
        "remove",
        "bring_back",
        "finish",
        "doors",
        "clear_flood",
    },
    "revealed": {
        "doors",
        "clear_flood",
        "next_round",
        "add_player",
        "finish",
        "rename",
        "remove",
        "bring_back",
        "round_time",
        "house",
    },
    "over": {"results"},
}
ALWAYS_KEYS = {"undo", "toggle_qr", "poster", "keys", "quit_asking"}
# Left out of a footer too narrow for them all, in this order.
DROP_FIRST = (
    "clear_flood",
    "house",
    "round_time",
    "poster",
    "bring_back",
    "doors",
    "finish",
    "peek",
    "rename",
    "add_player",
    "remove",
    "toggle_qr",
)
SIDE_WIDE, SIDE_NARROW = 36, 33  # the side panel's width, as in dilemma.tcss
SHORT_AWAY = ("away since ", "away ")  # a narrow roster's phone column: "away 21:04"


def phone_cells(room: RoomState, pids: list[str], short: bool) -> list[str]:
    """Each player's phone: ``connected``, ``away since 21:04`` (``away 21:04`` when
    ``short``), or ``-`` when not seen since the console started."""
    cells = [phone_words(room.presence.get(pid)) for pid in pids]
    return [cell.replace(*SHORT_AWAY) for cell in cells] if short else cells


@dataclass
class RoomState:
    """The tournament's session and how the room shows it now."""

    session: Session[DilemmaState, DilemmaRoom]
    qr: str  # the room's QR code, or what stands in its place (starting, no phone server)
    qr_columns: int = 0
    join_url: str | None = None
    board_url: str | None = None
    peeking: bool = False
    qr_choice: bool | None = None  # None: shown when there is room, or in the lobby
    shown_final: bool = False  # the results came up once by themselves
    presence: Presence = field(default_factory=dict)  # each player's phone, as last heard

    def view(self) -> View:
        return gm(self.session.state, peek=self.peeking)

    def origins(self) -> dict[str, Origin]:
        """Where and when each seat was taken (the game master's alone, from the file)."""
        return origins(self.session)

    def timer(self) -> RoundTimer | None:
        """The open round's timer, from the room fold (it survives a resume)."""
        r = self.session.state.open_round()
        return None if r is None else self.session.room.timer(r.number)

    def timer_off(self) -> bool:
        """The open round had a timer, turned off since (its reveal was undone)."""
        r = self.session.state.open_round()
        return r is not None and self.session.room.timer_off(r.number)

    def turn_timer_off(self, number: int) -> bool:
        """Round ``number``, open again after its reveal was undone, has no timer from now on
        (its deadline has passed): ``True`` if it had one."""
        if self.session.room.timer(number) is None:
            return False
        self.session.stage(TimerOff(number))
        return True

    def round_seconds(self) -> int | None:
        """Seconds per round for the rounds to come (the scenario's, or the console's)."""
        return self.session.room.seconds

    def qr_shown(self, narrow: bool) -> bool:
        """The room's QR code is on screen: as the game master chose (s), else always when
        there is room beside it, and on a narrow terminal while players are joining."""
        if self.qr_choice is not None:
            return self.qr_choice
        return not narrow or self.session.state.phase == "lobby"


def final_screen(room: RoomState, lang: Language) -> FinalScreen:
    """The results, with why betrayal dominates in ``lang``."""
    v = room.view()
    return FinalScreen(v, lang.say(explanation(room.session.state)))


class RoomShown(Message):
    """The room is on screen: the console may follow the session and start its services."""


def _action(binding: Binding) -> str:
    return binding.action.removeprefix("app.")


def room_footer(
    active: dict[str, ActiveBinding],
    phase: str,
    qr_shown: bool,
    width: int,
    display: Callable[[Binding], str],
    describe: Callable[[str], str] = str,
    doors_closed: bool = False,
) -> dict[str, ActiveBinding]:
    """The room's keys for the footer: those the phase needs, less the optional ones (in
    ``DROP_FIRST`` order) until they fit in ``width`` columns; the QR key says what it does."""
    wanted = PHASE_KEYS[phase] | ALWAYS_KEYS
    fitted: dict[str, ActiveBinding] = {}
    for key, item in active.items():
        binding = item.binding
        action = _action(binding)
        if action == "toggle_qr":
            binding = dataclasses.replace(binding, description=QR_KEYS[qr_shown])
        if action == "doors":
            binding = dataclasses.replace(binding, description=DOOR_KEYS[doors_closed])
        if action not in wanted and binding.action.startswith("app."):
            binding = dataclasses.replace(binding, show=False)
        fitted[key] = item._replace(binding=binding)
    return fit_keys(fitted, width, display, [f"app.{action}" for action in DROP_FIRST], describe)


class RoomScreen(Screen[None]):
    """The room: QR code and links, status, roster, last round and leaderboard."""

    BINDINGS = [
        Binding("n", "app.next_round", "Next round"),
        Binding("c", "app.close_round", "Close round"),
        Binding("h", "app.choose", "Choice"),
        Binding("a", "app.add_player", "Add player"),
        Binding("e", "app.rename", "Rename"),
        Binding("x", "app.remove", "Remove"),
        Binding("X", "app.clear_flood", "Clear flood"),
        Binding("d", "app.doors", "Close doors"),
        Binding("b", "app.bring_back", "Bring back"),
        Binding("u", "app.undo", "Undo"),
        Binding("v", "app.peek", "Peek"),
        Binding("f", "app.finish", "Finish"),
        Binding("t", "app.round_time", "Timer"),
        Binding("o", "app.house", "House"),
        Binding("r", "app.results", "Results"),
        Binding("s", "app.toggle_qr", "QR code"),
        Binding("p", "app.poster", "Print QR"),
        Binding("question_mark,f1", "app.keys", "Keys"),
        Binding("q", "app.quit_asking", "Quit"),
    ]

    def __init__(self, room: RoomState) -> None:
        super().__init__()
        self.room = room
        self._shape: tuple[object, ...] = ()  # the roster's columns, widths and rows as drawn
        self._cells: dict[str, list[str]] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="status", markup=False)
        with Horizontal(id="main"):
            with Vertical(id="room"):
                yield Static(self.room.qr, id="qr", markup=False)
                yield Static("", id="links", markup=False)
            with Vertical(id="roster-column"):
                yield DataTable(id="roster", cursor_type="row", zebra_stripes=True)
                yield Static("", id="origin", markup=False)
            with VerticalScroll(id="side"):
                yield Static("", id="last", markup=False)
                yield Static("", id="leaders", markup=False)
        yield Keys(compact=True, id="room-footer")

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        v = self.room.view()
        qr_shown = self.room.qr_shown(self.narrow())
        return room_footer(
            super().active_bindings,
            v["phase"],
            qr_shown,
            self.app.size.width,
            self.app.get_key_display,
            words(self),
            doors_closed=v["doors_closed"],
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_origin(event.row_key.value)

    def _show_origin(self, pid: str | None) -> None:
        """Under the roster: where and when the player under the cursor joined (the game
        master's alone; nothing for a player added at the console)."""
        line = self.query_one("#origin", Static)
        origin = self.room.origins().get(pid or "")
        player = self.room.session.state.player(pid or "")
        if origin is None or origin.address is None or player is None:
            line.display = False
            return
        _ = words(self)
        line.update(
            plain(
                _(
                    "%(name)s joined from %(address)s at %(time)s.",
                    name=player.name,
                    address=origin.address,
                    time=clock(origin.joined),
                )
            )
        )
        line.display = True

    def on_mount(self) -> None:
        self.query_one("#roster", DataTable).focus()
        self.post_message(RoomShown())

    def on_resize(self) -> None:
        if self.app.is_running:
            self.refresh_view()

    def narrow(self) -> bool:
        return self.app.size.width < NARROW_WIDTH

    def short(self) -> bool:
        return self.app.size.height < SHORT_HEIGHT

    def show_qr(self) -> None:
        """Show the room's QR code (or what stands in its place) as it is now."""
        self.query_one("#qr", Static).update(self.room.qr)

    def refresh_view(self) -> None:
        v = self.room.view()
        narrow, short = self.narrow(), self.short()
        qr = self.room.qr_shown(narrow)
        self.set_class(narrow, "-narrow")
        self.set_class(short, "-short")
        self.query_one("#room").display = qr
        self.query_one("#side").display = qr is False or not narrow
        self.query_one("#status", Static).update(plain(self._status(v, qr)))
        self.query_one("#links", Static).update(plain(self._links(short)))
        self._fill_roster(v, self._roster_width(qr, narrow))
        self._show_origin(self._cursor_pid())
        pairs, names = (4, 8) if short else (12, 20)
        _ = words(self)
        self.query_one("#last", Static).update(
            plain(last_round(_, v, pairs, 15 if narrow else 18))
        )
        self.query_one("#leaders", Static).update(plain(leaders(_, v, names, 16 if narrow else 18)))
        self.refresh_bindings()
        if v["phase"] == "over" and not self.room.shown_final:
            self.room.shown_final = True
            self.app.push_screen(final_screen(self.room, _))

    def refresh_roster(self) -> None:
        """Draw the roster again (a phone came or went: nothing else changed)."""
        narrow = self.narrow()
        self._fill_roster(self.room.view(), self._roster_width(self.room.qr_shown(narrow), narrow))

    def refresh_status(self) -> None:
        """Only the status line again (the round's countdown ticks)."""
        self.query_one("#status", Static).update(
            plain(self._status(self.room.view(), self.room.qr_shown(self.narrow())))
        )

    def _status(self, v: View, qr: bool) -> str:
        _ = words(self)
        said = phase_words(_, v)
        timer = self.room.timer()
        if timer is not None:
            whole = int(-(-timer.left(time.time()) // 1))
            said = _("[%(time)s left]", time=f"{whole // 60}:{whole % 60:02d}") + " " + said
        elif v["phase"] == "choosing" and self.room.timer_off():
            said += " " + _("Its timer is off: c closes the round.")
        elif v["phase"] in ("lobby", "revealed") and (seconds := self.room.round_seconds()):
            said += " " + _("Rounds last %(seconds)s s (t changes it).", seconds=seconds)
        said += " " + _.n_(
            "%(count)s player in the tournament.",
            "%(count)s players in the tournament.",
            len(v["players"]),
        )
        if v["phase"] == "choosing" and v["waiting"]:
            shown = waiting_text(_, v["waiting"], 2 * (self.app.size.width - 2))
            said += "\n" + waiting_sentence(_, shown)
        if v["doors_closed"] and v["phase"] != "over":
            said += "\n" + _("The doors are closed: nobody can join (d opens them).")
        if self.room.peeking:
            said += "\n" + _("PEEKING: choices are on screen. Press v to hide them.")
        if not qr and self.room.join_url is not None:
            said += "\n" + _("Join at %(url)s (s shows the QR code).", url=self.room.join_url)
        return said

    def _links(self, short: bool) -> str:
        if self.room.join_url is None:
            return ""
        _ = words(self)
        text = _("Scan to join, or open") + "\n" + self.room.join_url
        if not short and self.room.board_url is not None:
            text += "\n\n" + _("Board for a projector:") + "\n" + self.room.board_url
        return text

    def _roster_width(self, qr: bool, narrow: bool) -> int:
        """Columns left for the roster beside the room's column and the side panel (as the
        stylesheet sizes them)."""
        width = self.app.size.width
        if qr:
            # The QR code, or the sentence in its place (no phone server), and the links.
            sentence = max(map(len, self.room.qr.splitlines()), default=0)
            shown = [self.room.qr_columns, sentence, len(self.room.join_url or ""), 30]
            width -= min(50, max(shown) + 3)
        if not (qr and narrow):
            width -= SIDE_NARROW if narrow else SIDE_WIDE
        return width - 1  # the scroll bar

    def _fill_roster(self, v: View, width: int) -> None:
        _ = words(self)
        table: DataTable[Text] = self.query_one("#roster", DataTable)
        keep = table.cursor_row
        peeking = self.room.peeking
        facing = any(row["facing"] for row in v["roster"])  # nobody faces anyone in the lobby
        pids = [row["pid"] for row in v["roster"]]
        phones = phone_cells(self.room, pids, short=False)
        # The address each player joined from (the game master's alone): a column only once
        # someone joined from a phone, and the first to go when names would be cut short.
        where = self.room.origins()
        addresses = [where[pid].address or "" if pid in where else "" for pid in pids]
        shown_addresses = any(addresses)
        # Name (and Facing) share what Now, Months, Phone (and Choice) and the padding leave.
        # When names would be cut short the phone words shorten; when the table would not fit
        # Months goes (the side panel ranks everyone by months), then, while peeking, Phone.
        months = shown_phones = True
        longest = max((len(row["name"]) for row in v["roster"]), default=0)
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
                max([len(labels_of["address"]), *map(len, addresses)]) + 2
                if shown_addresses
                else 0
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
            phones = phone_cells(self.room, pids, short=True)
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
            rows.append((row["pid"], cells))
        # Widths set here rather than measured when the table is idle: the same at once.
        keys = ["name", "doing"]
        if facing:
            keys.append("facing")
        if months:
            keys.append("months")
        if shown_addresses:
            keys.append("address")
        if shown_phones:
            keys.append("phone")
        if peeking:
            keys.append("choice")
        labels = [(labels_of[key], key) for key in keys]
        widths = [
            max([len(label), *(len(cells[i]) for _, cells in rows)])
            for i, (label, _) in enumerate(labels)
        ]
        shape = (tuple(labels), tuple(widths), tuple(pid for pid, _ in rows))
        if shape == self._shape and table.row_count == len(rows):
            # The same rows and columns (a choice, a phone): only the cells that changed. A
            # hall's roster is hundreds of rows; drawing it all again held up the phones.
            for pid, cells in rows:
                before = self._cells.get(pid)
                for i, (_, key) in enumerate(labels):
                    if before is None or before[i] != cells[i]:
                        table.update_cell(pid, key, plain(cells[i]))
            self._cells = dict(rows)
            return
        table.clear(columns=True)
        for (label, key), width in zip(labels, widths, strict=True):
            table.add_column(label, key=key, width=width)
        for pid, cells in rows:
            table.add_row(*map(plain, cells), key=pid)
        self._shape, self._cells = shape, dict(rows)
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))

    def _cursor_pid(self) -> str | None:
        table: DataTable[str] = self.query_one("#roster", DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def selected(self, *, quiet: bool = False) -> View | None:
        """The roster's row under the cursor (None, and a warning unless ``quiet``, when
        nobody joined)."""
        _ = words(self)
        table: DataTable[Text] = self.query_one("#roster", DataTable)
        if not table.row_count:
            if not quiet:
                self.notify(_("Nobody has joined yet."), severity="warning")
            return None
        pid = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        row: View = next(r for r in self.room.view()["roster"] if r["pid"] == pid)
        return row
