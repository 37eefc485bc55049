"""The game master's console for the dilemma warm-up (``companion dilemma NAME``).

The room's QR code, who joined, who faces whom and who has chosen (never what, unless the game
master peeks, which is noted in the log), the last round and the leaderboard. The console reads
the tournament only through :mod:`companion.rules.dilemma.views` and changes it only through the
session. The phone server is handed in by the composition root as an async starter (this module
never imports :mod:`companion.web`); it runs in this app's event loop.
"""

from __future__ import annotations

import dataclasses
import secrets
import textwrap
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from companion.rules.dilemma.views import gm
from companion.tui.common.footer import fit_footer as fit_keys
from companion.tui.common.moves import NotDone, attempt
from companion.tui.common.services import StartedServices, Stopper
from companion.tui.dilemma.qr import qr_text
from companion.tui.dilemma.screens import AskName, Confirm, FinalScreen, KeysScreen

Service = Callable[["DilemmaApp"], Awaitable[Stopper]]

PHASE_WORDS = {
    "lobby": "Players are joining. Press n to start round 1 when everyone is in.",
    "choosing": "Round {round} of {rounds}: {chosen_count} of {to_choose} have chosen.",
    "revealed": "Round {round} of {rounds} is revealed. Press n for the next round.",
    "over": "The tournament is over. Press r for the results.",
}


class Changed(Message):
    """The session changed (here or on a phone)."""


# Below this width the room's QR code and the side panel take turns; below this height the
# side panel lists fewer pairs and names.
NARROW_WIDTH = 110
SHORT_HEIGHT = 30

# The keys each phase needs in the footer (the rest still work, and ? lists them all).
PHASE_KEYS = {
    "lobby": {"next_round", "rename", "remove", "bring_back"},
    "choosing": {"close_round", "peek", "rename", "remove", "bring_back", "finish"},
    "revealed": {"next_round", "finish", "rename", "remove", "bring_back"},
    "over": {"results"},
}
ALWAYS_KEYS = {"undo", "toggle_qr", "poster", "keys", "quit"}
# Left out of a footer too narrow for them all, in this order.
DROP_FIRST = ("poster", "bring_back", "finish", "peek", "rename", "remove")
SIDE_WIDE, SIDE_NARROW = 36, 33  # the side panel's width, as in dilemma.tcss
PROBLEM_WIDTH = 46  # a problem in the room's column (at most 50 wide, padding 1 a side)


class RoomScreen(Screen[None]):
    """The room: QR code and links, status, roster, last round and leaderboard."""

    BINDINGS = [
        Binding("n", "app.next_round", "Next round"),
        Binding("c", "app.close_round", "Close round"),
        Binding("e", "app.rename", "Rename"),
        Binding("x", "app.remove", "Remove"),
        Binding("b", "app.bring_back", "Bring back"),
        Binding("u", "app.undo", "Undo"),
        Binding("v", "app.peek", "Peek"),
        Binding("f", "app.finish", "Finish"),
        Binding("r", "app.results", "Results"),
        Binding("s", "app.toggle_qr", "QR code"),
        Binding("p", "app.poster", "Print QR"),
        Binding("question_mark,f1", "app.keys", "Keys"),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="status", markup=False)
        with Horizontal(id="main"):
            with Vertical(id="room"):
                yield Static("Starting the phone server…", id="qr", markup=False)
                yield Static("", id="links", markup=False)
            yield DataTable(id="roster", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="side"):
                yield Static("", id="last", markup=False)
                yield Static("", id="leaders", markup=False)
        yield Footer(compact=True, id="room-footer")

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        app = self.app
        phase = app.view()["phase"] if isinstance(app, DilemmaApp) else "lobby"
        qr_shown = app.qr_shown() if isinstance(app, DilemmaApp) else True
        return room_footer(
            super().active_bindings, phase, qr_shown, self.app.size.width, app.get_key_display
        )

    def on_mount(self) -> None:
        app = self.app
        if isinstance(app, DilemmaApp):
            app.start()

    def on_resize(self) -> None:
        app = self.app
        if isinstance(app, DilemmaApp) and app.is_running:
            app.refresh_view()


def _action(binding: Binding) -> str:
    return binding.action.removeprefix("app.")


def room_footer(
    active: dict[str, ActiveBinding],
    phase: str,
    qr_shown: bool,
    width: int,
    display: Callable[[Binding], str],
) -> dict[str, ActiveBinding]:
    """The room's keys for the footer: those the phase needs, less the optional ones (in
    ``DROP_FIRST`` order) until they fit in ``width`` columns; the QR key says what it does."""
    wanted = PHASE_KEYS[phase] | ALWAYS_KEYS
    fitted: dict[str, ActiveBinding] = {}
    for key, item in active.items():
        binding = item.binding
        action = _action(binding)
        if action == "toggle_qr":
            binding = dataclasses.replace(
                binding, description="Hide QR" if qr_shown else "Show QR"
            )
        if action not in wanted and binding.action.startswith("app."):
            binding = dataclasses.replace(binding, show=False)
        fitted[key] = item._replace(binding=binding)
    return fit_keys(fitted, width, display, [f"app.{action}" for action in DROP_FIRST])


class DilemmaApp(App[None]):
    CSS_PATH = "dilemma.tcss"
    TITLE = "companion: the dilemma warm-up"

    def __init__(
        self,
        session: Any,
        *,
        services: Iterable[Service] = (),
        poster: Callable[[str], str] | None = None,
        seed: Callable[[], int] = lambda: secrets.randbelow(2**63),
    ) -> None:
        super().__init__()
        self.session = session
        self.services = list(services)
        self.poster = poster
        self.seed = seed
        self.peeking = False
        self.join_url: str | None = None
        self.board_url: str | None = None
        self._started_services = StartedServices()
        self._unsubscribe: Callable[[], None] | None = None
        self._shown_final = False
        self.qr_choice: bool | None = None  # None: shown when there is room, or in the lobby
        self.room = RoomScreen()
        self._qr_columns = 0

    # ---- layout -------------------------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        return self.room

    def on_mount(self) -> None:
        self.sub_title = self.session.name

    def start(self) -> None:
        """Once the room is on screen: follow the session, start the phone server."""
        self.room.query_one("#roster", DataTable).focus()
        self._unsubscribe = self.session.subscribe(lambda s, c: self.post_message(Changed()))
        self.refresh_view()
        if self.services:
            self.run_worker(self._start_services(), name="services", exit_on_error=False)
        else:
            self.room.query_one("#qr", Static).update("No phone server (--no-phones).")

    def show_room(self, join_url: str, board_url: str) -> None:
        """Called by the phone-server starter once it listens."""
        self.join_url, self.board_url = join_url, board_url
        code = qr_text(join_url)
        self._qr_columns = len(code.split("\n", 1)[0])
        self.room.query_one("#qr", Static).update(code)
        self.refresh_view()

    async def _start_services(self) -> None:
        def failed(error: Exception) -> None:  # the console works without phones
            # Wrapped here: the room column sizes itself to its longest line (at most 50
            # columns with its padding), and the toast below soon goes.
            text = textwrap.fill(f"No phone server: {error}", PROBLEM_WIDTH)
            self.room.query_one("#qr", Static).update(text)
            self.notify(f"The phone server could not start ({error}).", severity="error")

        await self._started_services.start(self.services, self, failed)

    async def action_quit(self) -> None:
        await self._started_services.stop()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.exit()

    async def on_unmount(self) -> None:
        await self._started_services.stop()

    # ---- showing the tournament ---------------------------------------------------------

    def on_changed(self, message: Changed) -> None:
        self.refresh_view()

    def view(self) -> dict[str, Any]:
        return gm(self.session.state, peek=self.peeking)

    def narrow(self) -> bool:
        return self.size.width < NARROW_WIDTH

    def short(self) -> bool:
        return self.size.height < SHORT_HEIGHT

    def qr_shown(self) -> bool:
        """The room's QR code is on screen: as the game master chose (s), else always when
        there is room beside it, and on a narrow terminal while players are joining."""
        if self.qr_choice is not None:
            return self.qr_choice
        return not self.narrow() or self.session.state.phase == "lobby"

    def refresh_view(self) -> None:
        v = self.view()
        narrow, short, qr = self.narrow(), self.short(), self.qr_shown()
        room = self.room
        room.set_class(narrow, "-narrow")
        room.set_class(short, "-short")
        room.query_one("#room").display = qr
        room.query_one("#side").display = qr is False or not narrow
        room.query_one("#status", Static).update(self._status(v, qr))
        room.query_one("#links", Static).update(self._links(short))
        self._fill_roster(v, self._roster_width(qr, narrow))
        pairs, names = (4, 8) if short else (12, 20)
        room.query_one("#last", Static).update(_last_round(v, pairs, 15 if narrow else 18))
        room.query_one("#leaders", Static).update(_leaders(v, names, 16 if narrow else 18))
        room.refresh_bindings()
        if v["phase"] == "over" and not self._shown_final:
            self._shown_final = True
            self.push_screen(FinalScreen(v))

    def _status(self, v: dict[str, Any], qr: bool) -> str:
        joined = len(v["players"])
        words = PHASE_WORDS[v["phase"]].format(**v)
        words += f" {joined} player{'s' if joined != 1 else ''} in the tournament."
        if v["phase"] == "choosing" and v["waiting"]:
            shown = waiting_text(v["waiting"], 2 * (self.size.width - 2))
            words += f"\nWaiting for {shown}. Press c to close the round now."
        if self.peeking:
            words += "\nPEEKING: choices are on screen. Press v to hide them."
        if not qr and self.join_url is not None:
            words += f"\nJoin at {self.join_url} (s shows the QR code)."
        return words

    def _links(self, short: bool) -> str:
        if self.join_url is None:
            return ""
        text = f"Scan to join, or open\n{self.join_url}"
        if not short and self.board_url is not None:
            text += f"\n\nBoard for a projector:\n{self.board_url}"
        return text

    def _roster_width(self, qr: bool, narrow: bool) -> int:
        """Columns left for the roster beside the room's column and the side panel (as the
        stylesheet sizes them)."""
        width = self.size.width
        if qr:
            shown = [self._qr_columns, len(self.join_url or ""), 30]
            width -= min(50, max(shown) + 3)
        if not (qr and narrow):
            width -= SIDE_NARROW if narrow else SIDE_WIDE
        return width - 1  # the scroll bar

    def _fill_roster(self, v: dict[str, Any], width: int) -> None:
        table = self.room.query_one("#roster", DataTable)
        keep = table.cursor_row
        table.clear(columns=True)
        # Name and Facing share what Now, Months (and Choice) and the cell padding leave.
        months = True
        names = (width - 10 - 6 - 8 - (8 if self.peeking else 0)) // 2
        longest = max((len(row["name"]) for row in v["roster"]), default=0)
        if names < min(10, longest) and self.peeking:  # the choice matters more than months
            months, names = False, names + 4
        names = max(8, min(24, names))
        rows = []
        for row in v["roster"]:
            doing = SHORT_DOING.get(row["doing"], row["doing"])
            cells = [_cut(row["name"], names), doing, _cut(row["facing"] or "", names)]
            if months:
                cells.append(str(row["months"]))
            if self.peeking:
                cells.append((row.get("choice") or "").upper())
            rows.append((row["pid"], cells))
        # Widths set here rather than measured when the table is idle: the same at once.
        labels = [("Name", "name"), ("Now", "doing"), ("Facing", "facing")]
        if months:
            labels.append(("Months", "months"))
        if self.peeking:
            labels.append(("Choice", "choice"))
        for i, (label, key) in enumerate(labels):
            width = max([len(label), *(len(cells[i]) for _, cells in rows)])
            table.add_column(label, key=key, width=width)
        for pid, cells in rows:
            table.add_row(*cells, key=pid)
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))

    def selected(self) -> dict[str, Any] | None:
        table = self.room.query_one("#roster", DataTable)
        if not table.row_count:
            self.notify("Nobody has joined yet.", severity="warning")
            return None
        pid = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next(r for r in self.view()["roster"] if r["pid"] == pid)

    # ---- changing it --------------------------------------------------------------------

    def submit(self, command: dict[str, Any]) -> bool:
        done = attempt(lambda: self.session.submit(command, by="gm"))
        if isinstance(done, NotDone):
            self.notify(done.reason, severity="error", timeout=10 if done.unrecorded else 8)
            return False
        self.refresh_view()
        return True

    def action_next_round(self) -> None:
        if self.submit({"do": "start_round", "seed": self.seed()}):
            self.notify(f"Round {self.view()['round']} has started.")

    def action_close_round(self) -> None:
        v = self.view()
        if v["phase"] == "choosing" and v["waiting"]:
            n = len(v["waiting"])
            question = f"{n} player{'s have' if n != 1 else ' has'} not chosen: they stay silent."
            self.push_screen(Confirm("Close the round now?", question), self._close)
        else:
            self._close(True)

    def _close(self, yes: bool | None) -> None:
        if yes:
            self.submit({"do": "close_round"})

    def action_rename(self) -> None:
        row = self.selected()
        if row is None:
            return

        def done(name: str | None) -> None:
            if name and self.submit({"do": "rename", "pid": row["pid"], "name": name}):
                self.notify(f"{row['name']} is now {name}.")

        self.push_screen(AskName(f"Rename {row['name']}", row["name"]), done)

    def action_remove(self) -> None:
        row = self.selected()
        if row is not None and self.submit({"do": "remove", "pid": row["pid"]}):
            self.notify(f"{row['name']} has left the tournament (b brings them back).")

    def action_bring_back(self) -> None:
        row = self.selected()
        if row is not None and self.submit({"do": "bring_back", "pid": row["pid"]}):
            self.notify(f"{row['name']} is back in the tournament.")

    def action_undo(self) -> None:
        done = attempt(lambda: self.session.undo(by="gm"))
        if isinstance(done, NotDone):
            if done.unrecorded:
                self.notify(done.reason, severity="error", timeout=10)
                return
            self.notify(done.reason, severity="warning")
        else:
            self._shown_final = self.view()["phase"] == "over"
            self.notify("Undone: the last change is taken back (the log keeps it).")
        self.refresh_view()

    def action_peek(self) -> None:
        self.peeking = not self.peeking
        if self.peeking:
            self.session.note("peek", round=self.view()["round"])
        self.refresh_view()

    def action_finish(self) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                self.submit({"do": "finish"})

        self.push_screen(Confirm("Finish the tournament?", "No more rounds will be played."), done)

    def action_results(self) -> None:
        v = self.view()
        if v["phase"] != "over":
            self.notify("The results come after the last round (f finishes early).")
            return
        self.push_screen(FinalScreen(v))

    def action_toggle_qr(self) -> None:
        self.qr_choice = not self.qr_shown()
        self.refresh_view()

    def action_keys(self) -> None:
        rows = []
        for binding in RoomScreen.BINDINGS:
            assert isinstance(binding, Binding)
            keys = " ".join(self.get_key_display(b) for b in Binding.make_bindings([binding]))
            rows.append((keys, KEY_HELP[_action(binding)]))
        self.push_screen(KeysScreen("The room's keys", rows))

    def action_poster(self) -> None:
        if self.poster is None or self.join_url is None:
            self.notify("The room's address is not known yet.", severity="warning")
            return
        try:
            path = self.poster(self.join_url)
        except Exception as error:  # noqa: BLE001 - a printing problem must not stop the game
            self.notify(f"The poster could not be written: {error}", severity="error")
            return
        self.notify(f"Room QR poster saved to {path}; print it and put it up.", timeout=10)


KEY_HELP = {
    "next_round": "Next round: draw new pairs and start the next round",
    "close_round": "Close round: reveal now; who has not chosen stays silent",
    "rename": "Rename the player under the cursor",
    "remove": "Remove the player under the cursor (they sit out from now on)",
    "bring_back": "Bring a removed player back",
    "undo": "Undo the last change (the log keeps it)",
    "peek": "Peek at the secret choices, or hide them again (noted in the log)",
    "finish": "Finish the tournament after this round",
    "results": "Results: leaderboard, silence per round and why",
    "toggle_qr": "Show or hide the room's QR code (the join address stays shown)",
    "poster": "Print QR: save the room's QR code as a one-page PDF poster",
    "keys": "This list of keys",
    "quit": "Quit (the tournament is saved; reopen it with the same command)",
}
SHORT_DOING = {"waiting for a round": "waiting", "joins next round": "next round"}


def waiting_text(names: list[str], room: int) -> str:
    """Who has not chosen, in at most ``room`` characters with the words around it (two lines
    of the status): as many names as fit, then how many more."""
    room -= len("Waiting for . Press c to close the round now.")
    shown: list[str] = []
    for i, name in enumerate(names):
        more = len(names) - i - 1
        tail = f" and {more} more" if more else ""
        if shown and len(", ".join([*shown, name])) + len(tail) > room:
            return ", ".join(shown) + f" and {len(names) - len(shown)} more"
        shown.append(name)
    return ", ".join(shown)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _last_round(v: dict[str, Any], pairs: int = 12, width: int = 18) -> str:
    """The last revealed round: up to ``pairs`` pairs (the board and phones show them all)."""
    last = v["last"]
    if last is None:
        return "No round revealed yet."
    lines = [f"Round {last['number']}{' (closed early)' if last['closed_early'] else ''}:"]
    word = {"silent": "silent", "betray": "BETRAY"}
    for o in last["outcomes"][:pairs]:  # a pair on two lines, choices and months aligned
        lines.append(
            f" {_cut(o['a'], width):<{width}} {word[o['choice_a']]:<6} {o['months_a']:>2}m"
        )
        lines.append(
            f"   vs {_cut(o['b'], width - 4):<{width - 4}} "
            f"{word[o['choice_b']]:<6} {o['months_b']:>2}m"
        )
    more = len(last["outcomes"]) - pairs
    if more > 0:
        lines.append(f" and {more} more pair{'s' if more != 1 else ''} (on the board)")
    if last["sitting_out"]:
        lines.append(f" out: {', '.join(last['sitting_out'])}")
    if v["cooperation"]:
        rates = "  ".join(f"R{r['round']} {round(100 * r['rate'])}%" for r in v["cooperation"])
        lines.append(f"Silent: {rates}")
    return "\n".join(lines)


def _leaders(v: dict[str, Any], names: int = 20, width: int = 18) -> str:
    if not v["cooperation"]:
        return "The leaderboard starts after the first round."
    lines = ["Leaderboard (least months):"]
    for row in v["leaderboard"][:names]:
        rank = f"{row['rank']:>2}" if row["rank"] else " –"
        lines.append(f"{rank}. {_cut(row['name'], width):<{width}} {row['months']:>4}")
    more = len(v["leaderboard"]) - names
    if more > 0:
        lines.append(f"    and {more} more")
    return "\n".join(lines)
