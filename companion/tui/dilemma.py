"""The game master's console for the dilemma warm-up (``companion dilemma NAME``).

The room's QR code, who joined, who faces whom and who has chosen (never what, unless the game
master peeks, which is noted in the log), the last round and the leaderboard. The console reads
the tournament only through :mod:`companion.rules.dilemma_views` and changes it only through the
session. The phone server is handed in by the composition root as an async starter (this module
never imports :mod:`companion.web`); it runs in this app's event loop.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Footer, Header, Static

from companion.rules.dilemma_views import gm
from companion.rules.game import Refused
from companion.session.store import StoreError
from companion.tui.dilemma_qr import qr_text
from companion.tui.dilemma_screens import AskName, Confirm, FinalScreen

Stopper = Callable[[], Awaitable[None]]
Service = Callable[["DilemmaApp"], Awaitable[Stopper]]

PHASE_WORDS = {
    "lobby": "Players are joining. Press n to start round 1 when everyone is in.",
    "choosing": "Round {round} of {rounds}: {chosen_count} of {to_choose} have chosen.",
    "revealed": "Round {round} of {rounds} is revealed. Press n for the next round.",
    "over": "The tournament is over. Press r for the results.",
}


class Changed(Message):
    """The session changed (here or on a phone)."""


class DilemmaApp(App[None]):
    CSS_PATH = "dilemma.tcss"
    TITLE = "companion: the dilemma warm-up"
    BINDINGS = [
        Binding("n", "next_round", "Next round"),
        Binding("c", "close_round", "Close round"),
        Binding("e", "rename", "Rename"),
        Binding("x", "remove", "Remove"),
        Binding("b", "bring_back", "Bring back"),
        Binding("u", "undo", "Undo"),
        Binding("v", "peek", "Peek"),
        Binding("f", "finish", "Finish"),
        Binding("r", "results", "Results"),
        Binding("p", "poster", "Print QR"),
        Binding("q", "quit", "Quit"),
    ]

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
        self._stoppers: list[Stopper] = []
        self._unsubscribe: Callable[[], None] | None = None
        self._shown_final = False

    # ---- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="room"):
                yield Static("Starting the phone server…", id="qr", markup=False)
                yield Static("", id="links", markup=False)
            with Vertical(id="middle"):
                yield Static("", id="status", markup=False)
                yield DataTable(id="roster", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="side"):
                yield Static("", id="last", markup=False)
                yield Static("", id="leaders", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.session.name
        self.query_one("#roster", DataTable).focus()
        self._unsubscribe = self.session.subscribe(lambda s, c: self.post_message(Changed()))
        self.refresh_view()
        if self.services:
            self.run_worker(self._start_services(), name="services", exit_on_error=False)
        else:
            self.query_one("#qr", Static).update("No phone server (--no-phones).")

    def show_room(self, join_url: str, board_url: str) -> None:
        """Called by the phone-server starter once it listens."""
        self.join_url, self.board_url = join_url, board_url
        self.query_one("#qr", Static).update(qr_text(join_url))
        self.query_one("#links", Static).update(
            f"Scan to join, or open\n{join_url}\n\nBoard for a projector:\n{board_url}"
        )

    async def _start_services(self) -> None:
        for start in self.services:
            try:
                self._stoppers.append(await start(self))
            except Exception as error:  # noqa: BLE001 - the console works without phones
                self.query_one("#qr", Static).update(f"No phone server: {error}")
                self.notify(f"The phone server could not start ({error}).", severity="error")

    async def _stop_services(self) -> None:
        stoppers, self._stoppers = self._stoppers, []
        for stop in reversed(stoppers):
            with contextlib.suppress(Exception):  # quitting must always work
                await stop()

    async def action_quit(self) -> None:
        await self._stop_services()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.exit()

    async def on_unmount(self) -> None:
        await self._stop_services()

    # ---- showing the tournament ---------------------------------------------------------

    def on_changed(self, message: Changed) -> None:
        self.refresh_view()

    def view(self) -> dict[str, Any]:
        return gm(self.session.state, peek=self.peeking)

    def refresh_view(self) -> None:
        v = self.view()
        words = PHASE_WORDS[v["phase"]].format(**v)
        if v["phase"] == "choosing" and v["waiting"]:
            shown = ", ".join(v["waiting"][:8]) + ("…" if len(v["waiting"]) > 8 else "")
            words += f"\nWaiting for {shown}. Press c to close the round now."
        joined = len(v["players"])
        words += f"\n{joined} player{'s' if joined != 1 else ''} in the tournament."
        if self.peeking:
            words += "\nPEEKING: choices are on screen. Press v to hide them."
        self.query_one("#status", Static).update(words)
        self._fill_roster(v)
        self.query_one("#last", Static).update(_last_round(v))
        self.query_one("#leaders", Static).update(_leaders(v))
        if v["phase"] == "over" and not self._shown_final:
            self._shown_final = True
            self.push_screen(FinalScreen(v))

    def _fill_roster(self, v: dict[str, Any]) -> None:
        table = self.query_one("#roster", DataTable)
        keep = table.cursor_row
        table.clear(columns=True)
        table.add_column("Name", key="name")
        table.add_column("Now", key="doing")
        table.add_column("Facing", key="facing")
        table.add_column("Months", key="months")
        if self.peeking:
            table.add_column("Choice", key="choice")
        for row in v["roster"]:
            cells = [row["name"], row["doing"], row["facing"] or "", str(row["months"])]
            if self.peeking:
                cells.append((row.get("choice") or "").upper())
            table.add_row(*cells, key=row["pid"])
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))

    def selected(self) -> dict[str, Any] | None:
        table = self.query_one("#roster", DataTable)
        if not table.row_count:
            self.notify("Nobody has joined yet.", severity="warning")
            return None
        pid = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next(r for r in self.view()["roster"] if r["pid"] == pid)

    # ---- changing it --------------------------------------------------------------------

    def submit(self, command: dict[str, Any]) -> bool:
        try:
            result = self.session.submit(command, by="gm")
        except StoreError as error:
            self.notify(str(error), severity="error", timeout=10)
            return False
        if isinstance(result, Refused):
            self.notify(result.reason, severity="error", timeout=8)
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
        try:
            result = self.session.undo(by="gm")
        except StoreError as error:
            self.notify(str(error), severity="error", timeout=10)
            return
        if isinstance(result, Refused):
            self.notify(result.reason, severity="warning")
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


def _last_round(v: dict[str, Any]) -> str:
    last = v["last"]
    if last is None:
        return "No round revealed yet."
    lines = [f"Round {last['number']}{' (closed early)' if last['closed_early'] else ''}:"]
    word = {"silent": "silent", "betray": "BETRAY"}
    for o in last["outcomes"]:
        lines.append(
            f"  {o['a']} {word[o['choice_a']]} {o['months_a']}m · "
            f"{o['b']} {word[o['choice_b']]} {o['months_b']}m"
        )
    if last["sitting_out"]:
        lines.append(f"  out: {', '.join(last['sitting_out'])}")
    if v["cooperation"]:
        rates = "  ".join(f"R{r['round']} {round(100 * r['rate'])}%" for r in v["cooperation"])
        lines.append(f"Silent: {rates}")
    return "\n".join(lines)


def _leaders(v: dict[str, Any]) -> str:
    if not v["cooperation"]:
        return "The leaderboard starts after the first round."
    lines = ["Leaderboard (least months):"]
    for row in v["leaderboard"][:20]:
        rank = f"{row['rank']:>2}" if row["rank"] else " –"
        lines.append(f"{rank}. {row['name'][:18]:<18} {row['months']:>4}")
    more = len(v["leaderboard"]) - 20
    if more > 0:
        lines.append(f"    and {more} more")
    return "\n".join(lines)
