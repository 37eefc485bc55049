"""The So Long Sucker referee: a standalone Textual app on a live session.

The game master types each move as it happens at the table (``r 2``, ``next bo``, ``kill g``,
``give g bo``, ``refuse``…; see :mod:`companion.tui.sucker.entry`). The app reads the game only
through :mod:`companion.rules.sucker.views` and changes it only through the session (``submit``,
``undo``), so every move is in the log before the screen shows it; it follows the session
(:mod:`companion.tui.common.follow`) for the moves' log and the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Header, Input, RichLog, Static
from textual.widgets.input import Selection

from companion.rules.sucker.views import event_text, table
from companion.session.session import Session
from companion.tui.common.follow import SessionChanged, follow
from companion.tui.common.moves import NotDone, attempt
from companion.tui.sucker.entry import (
    SYNTAX,
    UNDO,
    EntryError,
    View,
    command_text,
    hint,
    parse_entry,
)

# True colors for common chip colors (ANSI names vary by terminal theme); any other name is
# tried as a Rich color as it is, and a chip of an unknown color shows its letter reversed.
PAINT = {
    "red": "#d32f2f",
    "blue": "#1e63d6",
    "green": "#2e9e3e",
    "yellow": "#f2c80f",
    "white": "#f0f0f0",
    "black": "#202020",
    "orange": "#f28c28",
    "pink": "#f06292",
    "purple": "#8e44ad",
    "brown": "#8b5a2b",
    "grey": "#8a8a8a",
    "gray": "#8a8a8a",
}
LIGHT = {"yellow", "white", "orange", "pink", "cyan", "grey", "gray", "gold", "lime"}


def chip(color: str, key: str, *, mark: bool = False) -> Text:
    """One chip: its letter on its color (readable without color too)."""
    paint = PAINT.get(color.casefold(), color.casefold())
    ink = "black" if color.casefold() in LIGHT else "white"
    try:
        style = Style.parse(f"bold {ink} on {paint}")
    except Exception:  # noqa: BLE001 - an unknown color name: letter only
        style = Style(bold=True, reverse=True)
    face = f"[{key}]" if mark else f" {key} "
    return Text(face, style=style)


NAME_WIDTH = 12  # a longer name is cut short with an ellipsis in the players' table
# In the narrow layout a mark says what the status column would: these words, in the caption.
MARKS = {"●": "to act", "▶": "may be named", "?": "may rescue", "–": "refused", "✗": "defeated",
         "★": "won"}


class PlayersPanel:
    """The players' table, laid out for the width it is drawn at. At 120 columns each player has
    a status and a column of prisoners; at 80 columns the status shrinks to its mark (explained
    in the caption), so that every player still fits on one line and no prisoner is cut off."""

    def __init__(self, view: View, rows: list[tuple[View, str, str]]) -> None:
        self.view = view
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        for wide in (True, False):
            # The room the other columns leave the prisoners, who are then wrapped by whole
            # chips (Rich would break a chip from its count).
            bare = self.table(wide=wide, room=0)
            others = Measurement.get(console, options.update(width=10_000), bare).maximum - 9
            if not wide or others + 13 <= width:
                yield self.table(wide=wide, room=max(width - others - 1, 9))
                return

    def table(self, *, wide: bool, room: int) -> Table:
        keys = self.view["keys"]
        grid = Table(expand=True, box=None, padding=(0, 1), show_edge=False, pad_edge=wide)
        grid.add_column("", no_wrap=True)
        grid.add_column("player", no_wrap=True, overflow="ellipsis", max_width=NAME_WIDTH)
        grid.add_column("", justify="center", no_wrap=True)
        grid.add_column("own", justify="right", no_wrap=True)
        if wide:
            grid.add_column("", no_wrap=True, min_width=13)
        grid.add_column("prisoners", min_width=9, ratio=1)
        used: dict[str, str] = {}  # mark -> what it means here
        for p, status, pointer in self.rows:
            prisoners = Text()
            line = 0
            for color, count in p["prisoners"].items() if room else ():
                count_text = f"×{count} " if wide else f"{count} "
                if line and line + 3 + len(count_text.rstrip()) > room:
                    prisoners.append("\n")
                    line = 0
                prisoners.append_text(chip(color, keys[color]))
                prisoners.append(count_text)
                line += 3 + len(count_text)
            style = "dim strike" if p["defeated"] else ("bold" if pointer else "")
            mark = pointer
            if not wide and not mark:
                mark = "✗" if p["defeated"] else ("–" if status == "refused" else "")
            if mark and mark not in used:
                # The acting player's mark says what they do ("awaits rescue", "to play"…).
                used[mark] = status if mark == "●" and status else MARKS[mark]
            cells: list[Text] = [
                Text(mark, style="bold"),
                Text(p["name"], style=style),
                chip(p["color"], keys[p["color"]]),
                Text(str(p["supply"])),
            ]
            if wide:
                cells.append(Text(status, style="bold" if pointer else "italic"))
            grid.add_row(*cells, prisoners)
        if wide:
            if self.view["awaiting"]["what"] == "next":
                grid.caption = "▶ may be named to move next"
        elif used:
            grid.caption = "  ".join(f"{m} {used[m]}" for m in MARKS if m in used)
        return grid


def dead_text(view: View) -> str:
    """The killed chips, by letter (they have left the game): for the piles' frame."""
    dead: dict[str, int] = view["dead"]
    if not dead:
        return ""
    keys = view["keys"]
    return "dead " + "  ".join(f"{keys[color]}×{count}" for color, count in dead.items())


class SuckerApp(App[None]):
    """The referee screen for one So Long Sucker session."""

    CSS_PATH = "sucker.tcss"
    TITLE = "So Long Sucker"
    BINDINGS = [
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("f1", "toggle_help", "Help"),
        Binding("escape", "clear", "Clear entry", show=False),
        Binding("ctrl+l", "focus_entry", "Entry", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.sub_title = session.name
        self._unfollow: Callable[[], None] | None = None

    # ---- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="says")
        with Horizontal(id="main"):
            with VerticalScroll(id="piles-box"):
                yield Static(id="piles")
            yield Static(id="players")
        yield Static(id="help")
        yield RichLog(id="log", markup=False, wrap=True)
        yield Static(id="hint")
        yield Input(placeholder="move: r 2 · r n · next bo · kill g · give g bo · refuse · undo",
                    id="entry")
        yield Static(id="problem")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#piles-box").border_title = "Piles (top chip first)"
        self.query_one("#players").border_title = "Players"
        self.query_one("#log").border_title = "Log"
        self.query_one("#help", Static).update(self._help())
        log = self.query_one("#log", RichLog)
        for entry in self.session.history.entries[-40:]:
            self._log_entry(log, entry)
        self.refresh_table()
        self.query_one("#entry", Input).focus()
        self._unfollow = follow(self, self.session)

    def on_unmount(self) -> None:
        if self._unfollow is not None:
            self._unfollow()

    # ---- drawing ----------------------------------------------------------------------

    @property
    def view(self) -> View:
        return table(self.session.state)

    def refresh_table(self) -> None:
        view = self.view
        says = self.query_one("#says", Static)
        says.update(view["says"])
        says.set_class(view["winner"] is not None, "over")
        says.set_class(view["awaiting"]["what"] == "rescue", "rescue")
        self.query_one("#piles", Static).update(self._piles(view))
        self.query_one("#piles-box").border_subtitle = dead_text(view)
        self.query_one("#players", Static).update(self._players(view))
        self.query_one("#hint", Static).update(hint(view))

    def _piles(self, view: View) -> Any:
        piles: dict[int, list[str]] = view["piles"]
        if not piles:
            return Text("No piles yet: the first chip starts pile 1 (type e.g. 'r n').",
                        style="italic")
        keys = view["keys"]
        a = view["awaiting"]
        focus = a.get("pile")
        grid = Table.grid(padding=(0, 2))
        for _ in piles:
            grid.add_column(justify="center")
        # The numbers head the stacks, so a tall pile that scrolls never hides which is which.
        labels = []
        for number in piles:
            style = "bold reverse" if number == focus else "bold"
            labels.append(Text(f"#{number}", style=style))
        grid.add_row(*labels)
        height = max(len(chips) for chips in piles.values())
        for row in range(height):
            cells: list[Text] = []
            for number, chips in piles.items():
                at = len(chips) - 1 - row  # top chip first
                mark = number == focus and a["what"] == "kill"
                cells.append(chip(chips[at], keys[chips[at]], mark=mark) if at >= 0 else Text(""))
            grid.add_row(*cells)
        note = Text()
        if a["what"] == "kill":
            note = Text(f"Pile {focus} is captured: {a['player']} kills one chip.", style="bold")
        elif a["what"] == "next":
            note = Text(f"Pile {focus} was just played on.", style="italic")
        return Group(grid, Text(""), note)

    def _players(self, view: View) -> PlayersPanel:
        rows = []
        for p in view["players"]:
            status, pointer = self._status(view, p["name"])
            rows.append((p, status, pointer))
        return PlayersPanel(view, rows)

    @staticmethod
    def _status(view: View, name: str) -> tuple[str, str]:
        a = view["awaiting"]
        if view["winner"] == name:
            return "WINNER", "★"
        if name in view["defeated"]:
            return f"defeated ({view['defeated'].index(name) + 1})", ""
        if a["player"] == name:
            return {
                "play": "to play",
                "next": "names next",
                "kill": "kills a chip",
                "rescue": "awaits rescue",
            }.get(a["what"], ""), "●"
        if a["what"] == "next" and name in a["players"]:
            return "may be named", "▶"
        if a["what"] == "rescue":
            if name in a["pending"]:
                return "may rescue", "?"
            if name in a["refused"]:
                return "refused", ""
        return "", ""

    def _help(self) -> Table:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        for typed, meaning in SYNTAX:
            grid.add_row(typed, meaning)
        grid.add_row("colors", "type a chip's letter (shown on it) or its color's name")
        return grid

    # ---- the log ----------------------------------------------------------------------

    def _log_entry(self, log: RichLog, entry: Any) -> None:
        if entry.kind == "undo":
            taken = self.session.history.entries[entry.reverts - 1].command
            what = command_text(self.session.kind.engine.command_to_dict(taken))
            log.write(Text(f"Undone: {what}.", style="italic"))
            return
        for event in entry.events:
            line = event_text(event)
            if line:
                log.write(line)

    def on_session_changed(self, message: SessionChanged) -> None:
        change = message.change
        if change.kind not in ("command", "undo"):
            return
        if change.entry is not None:
            self._log_entry(self.query_one("#log", RichLog), change.entry)
        self.refresh_table()

    # ---- entry ------------------------------------------------------------------------

    def _problem(self, text: str) -> None:
        self.query_one("#problem", Static).update(text)
        if text:
            self.bell()
            entry = self.query_one("#entry", Input)
            entry.selection = Selection(0, len(entry.value))  # typing replaces it

    def on_input_submitted(self, message: Input.Submitted) -> None:
        entry = message.input
        try:
            command = parse_entry(self.view, message.value)
        except EntryError as error:
            self._problem(str(error))
            return
        if command == UNDO:
            self.action_undo()
            entry.value = ""
            return
        done = attempt(lambda: self.session.submit(command))
        if isinstance(done, NotDone):
            self._problem(done.reason)
            return
        self._problem("")
        entry.value = ""

    # ---- actions ----------------------------------------------------------------------

    def action_undo(self) -> None:
        done = attempt(self.session.undo)
        self._problem(done.reason if isinstance(done, NotDone) else "")

    def action_toggle_help(self) -> None:
        self.query_one("#help").toggle_class("shown")

    def action_clear(self) -> None:
        self.query_one("#entry", Input).value = ""
        self._problem("")

    def action_focus_entry(self) -> None:
        self.query_one("#entry", Input).focus()
