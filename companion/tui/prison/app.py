"""The game master's console (``ConsoleApp``): one app for the session picker, the set-up
screen and the live game.

The console reads the game only through :mod:`companion.rules.prison.views` and changes it only
through the session (``submit``, ``undo``, ``note``). It subscribes to the session, so moves
made elsewhere (phones) show at once. Services such as the phone server are handed in by the
composition root as async starters; each returns an async stopper awaited on exit.
"""

from __future__ import annotations

import functools
import time
import traceback
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from textual.app import App, SystemCommand
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from companion.rules.prison.views import gm, story, table
from companion.session import links
from companion.session.session import Change, Session
from companion.session.store import StoreError
from companion.tui.common.moves import NotDone, attempt
from companion.tui.common.services import Running, Stopper
from companion.tui.prison.text import (
    describe_command,
    parse_duration,
    story_markdown,
    timeline,
    wrong_link_lines,
    wrong_links,
)

Service = Callable[["ConsoleApp"], Awaitable[Stopper]]
Links = Callable[[], list[dict[str, Any]]]
Addresses = Callable[[], list[tuple[str, str]]]  # the laptop's (interface, IPv4 address)
# the Balance screen for a session (the composition root wires the simulator into it)
BalanceFactory = Callable[[Any], Screen[None]]
# (session, paper, out, public_url) -> where the PDF went; raises UserError in one sentence
Printer = Callable[[Any, str, Path, str | None], Path]
T = TypeVar("T")

PRISON_BREAK = "prison-break"
DEFAULT_INTERVIEW_SECONDS = 120
INTERVIEW_META = "interview_seconds"
# Changes from elsewhere (phones) are drawn at most this often: a redraw costs the loop the
# phone server shares some milliseconds, and a room of phones makes dozens of changes a second.
REDRAW_SECONDS = 0.12


@dataclass
class SessionShelf:
    """Where sessions are kept and how to make or open one (given by the composition root)."""

    folder: Path
    create: Callable[[str, str, str, list[str]], Session]  # name, scenario, warden, prisoners
    open: Callable[[str], Session]
    game_of: Callable[[str], str] | None = None  # a few words on what a session holds


class SessionChanged(Message):
    """The session changed (here, on a phone, or a passing signal)."""

    def __init__(self, change: Change) -> None:
        super().__init__()
        self.change = change


class ConsoleApp(App[None]):
    CSS_PATH = "console.tcss"
    TITLE = "companion"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        session: Session | None = None,
        *,
        shelf: SessionShelf | None = None,
        new: tuple[str, str] | None = None,
        services: Iterable[Service] = (),
        links: Links | None = None,
        printer: Printer | None = None,
        addresses: Addresses | None = None,
        balance: BalanceFactory | None = None,
        private_seconds: float = 20.0,
        ticking: bool = True,
        clock: Callable[[], float] = time.time,
        notice: str | None = None,
    ) -> None:
        super().__init__()
        self._session = session
        self.shelf = shelf
        self.new = new
        self.services = list(services)
        self.links = links
        self.printer = printer
        self.addresses = addresses
        self.balance = balance
        self.last_print: Path | None = None
        self.private_seconds = private_seconds
        self.ticking = ticking
        self.clock = clock
        self.presence: dict[str, float] = {}
        self._redraw_due = False  # a change from elsewhere is not drawn yet
        self._phones_due: set[str] = set()  # seats whose phone was seen since the last draw
        self._redraw_pending = False
        self._redraw_timer: Timer | None = None
        self._last_redraw = -REDRAW_SECONDS
        self._started_services = Running()
        self._unsubscribe: Callable[[], None] | None = None
        self.crash_log: Path | None = None
        self.last_report: Path | None = None
        self.notice = notice
        self.crashed: BaseException | None = None
        # A session of another game, picked in the picker: the runner opens its own console.
        self.handoff: Session | None = None

    # ---- the session ----------------------------------------------------------------------

    @property
    def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("no session is open yet")
        return self._session

    @property
    def has_session(self) -> bool:
        return self._session is not None

    def on_mount(self) -> None:
        if self.notice:
            self.notify(self.notice, severity="warning", timeout=15)
        if self._session is not None:
            self.open_game(self._session)
        elif self.new is not None:
            from companion.tui.prison.setup import SetupScreen

            self.push_screen(SetupScreen(*self.new, back_to_picker=False))
        else:
            from companion.tui.prison.picker import PickerScreen

            self.push_screen(PickerScreen())

    def open_game(self, session: Session) -> None:
        from companion.tui.prison.game import GameScreen

        if session.game != PRISON_BREAK:
            self.hand_off(session)
            return
        if self._unsubscribe is not None and self._session is not session:
            self._unsubscribe()
            self._unsubscribe = None
        self._session = session
        if self._unsubscribe is None:
            self._unsubscribe = session.subscribe(self._heard)
        self.crash_log = session.store.path.with_suffix(".console-errors.log")
        if len(self.screen_stack) > 1:
            self.switch_screen(GameScreen())
        else:
            self.push_screen(GameScreen())
        if self.services and not self._started_services:
            self.run_worker(self._start_services(), name="services", exit_on_error=False)

    def hand_off(self, session: Session) -> None:
        """Close this console so the runner can open the one for ``session``'s game."""
        self.handoff = session
        self.exit()

    def _heard(self, session: Session, change: Change) -> None:
        # May be called from another thread; post_message is thread-safe.
        self.post_message(SessionChanged(change))

    def on_session_changed(self, message: SessionChanged) -> None:
        change = message.change
        signal = change.signal
        if signal and signal.get("what") == "presence" and isinstance(signal.get("seat"), str):
            seen = signal.get("seen")
            self.presence[signal["seat"]] = float(seen) if seen is not None else self.clock()
            self._phones_due.add(signal["seat"])
        else:
            self._redraw_due = True
        row = change.row
        if change.kind == "note" and row is not None and row.body.get("what") == "bad_tokens":
            self.notify(
                wrong_links(row.body, paused=True) + ". Someone may be guessing links.",
                title="Wrong links",
                severity="warning",
                timeout=15,
                markup=False,
            )
        self.schedule_redraw()

    # ---- redrawing: at most every REDRAW_SECONDS, however many changes arrive --------------

    def schedule_redraw(self) -> None:
        """Redraw soon: at once after a quiet spell, else when REDRAW_SECONDS have passed
        since the last redraw. Changes arriving meanwhile share that one redraw."""
        if self._redraw_pending:
            return
        self._redraw_pending = True
        wait = self._last_redraw + REDRAW_SECONDS - time.monotonic()
        if wait <= 0:
            self.call_later(self.flush_redraw)  # after the messages already queued
        else:
            self._redraw_timer = self.set_timer(wait, self.flush_redraw, name="redraw")

    def flush_redraw(self) -> None:
        """Draw what is due now (tests call it to see a change from elsewhere at once)."""
        if self._redraw_timer is not None:
            self._redraw_timer.stop()
            self._redraw_timer = None
        self._redraw_pending = False
        whole, phones = self._redraw_due, self._phones_due
        self._redraw_due, self._phones_due = False, set()
        if whole:
            self.refresh_screens()
        elif phones:
            for screen in self.screen_stack:
                refresh = getattr(screen, "refresh_phones", None)
                if refresh is not None and screen.is_mounted:
                    self.guarded(refresh)(phones)

    def refresh_screens(self) -> None:
        self._last_redraw = time.monotonic()
        self._redraw_due = False
        self._phones_due = set()
        for screen in self.screen_stack:
            refresh = getattr(screen, "refresh_view", None)
            if refresh is not None and screen.is_mounted:  # a new screen draws on mounting
                self.guarded(refresh)()

    # ---- services (the phone server and the like) -----------------------------------------

    async def _start_services(self) -> None:
        def failed(error: Exception) -> None:  # the game goes on without phones
            self.notify(
                f"A service could not start ({error}); the console works without it.",
                severity="error",
                timeout=10,
            )

        await self._started_services.start(self.services, self, failed)
        self.refresh_screens()  # the links' address may be new (served_url)
        self.hint_addresses()

    def known_addresses(self) -> list[tuple[str, str]] | None:
        """The laptop's addresses, or None when the composition root gave no way to know."""
        if self.addresses is None:
            return None
        try:
            return list(self.addresses())
        except OSError:
            return None

    def hint_addresses(self) -> None:
        """With several addresses and none pinned, say which one the links use."""
        session = self.session
        if session.meta().get("public_url") or links.address_changed(session):
            return
        usable = [a for _, a in self.known_addresses() or [] if not a.startswith("127.")]
        current = links.current_base(session)
        if len(usable) > 1 and current:
            self.notify(
                f"This laptop has {len(usable)} network addresses; the links use {current}. "
                "If phones cannot reach it, press L to pick another.",
                title="Several addresses",
                timeout=20,
            )

    def show_address(self) -> None:
        from companion.tui.prison import address

        address.choose(self)

    def address_warning(self) -> str | None:
        from companion.tui.prison import address

        session = self.session
        if not links.address_changed(session):
            return None
        return address.warning(session, self.known_addresses())

    async def stop_services(self) -> None:
        await self._started_services.stop()

    def action_command_palette(self) -> None:
        # Not while a player holds the laptop for their secret choice: the palette leads to
        # the peek, the seats' codes and the history.
        from companion.tui.prison.choice import ChoiceScreen

        if isinstance(self.screen, ChoiceScreen):
            return
        super().action_command_palette()

    async def action_quit(self) -> None:
        await self.stop_services()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.exit()

    async def on_unmount(self) -> None:
        await self.stop_services()

    # ---- changing the game ----------------------------------------------------------------

    def submit(self, command: dict[str, Any]) -> bool:
        """Submit through the session; a refusal or a storage problem is shown, never raised."""
        done = attempt(lambda: self.session.submit(command))
        if isinstance(done, NotDone):
            self.notify(done.reason, severity="error", timeout=10 if done.unrecorded else 8)
            return False
        self.refresh_screens()
        return True

    def undo(self, only: int | None = None) -> bool:
        """Take back the last move (``only``: if it is still the history entry the game master
        was asked about; a phone may have moved since)."""
        done = attempt(lambda: self.session.undo(only=only))
        if isinstance(done, NotDone):
            if done.unrecorded:
                self.notify(done.reason, severity="error", timeout=10)
            else:
                self.notify(done.reason, severity="warning")
            return False
        self.notify("Undone; the history keeps it as a correction.")
        self.refresh_screens()
        return True

    def interview_seconds(self) -> int:
        value = self.session.meta().get(INTERVIEW_META, DEFAULT_INTERVIEW_SECONDS)
        return int(value) if isinstance(value, int) and value > 0 else DEFAULT_INTERVIEW_SECONDS

    # ---- a crash of one screen must not lose the session ----------------------------------

    def guarded(self, func: Callable[..., T]) -> Callable[..., T | None]:
        """Run ``func``; if it fails, say so, log the details and keep the console going."""

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> T | None:
            try:
                return func(*args, **kwargs)
            except Exception as error:  # noqa: BLE001
                self.report_crash(error)
                return None

        return run

    def _handle_exception(self, error: Exception) -> None:
        # An error no screen caught: note it, then let Textual stop the app; the runner
        # (companion.cli.start) reopens the session from its log.
        self.crashed = error
        self.log_crash(error)
        super()._handle_exception(error)

    def log_crash(self, error: BaseException) -> str:
        """Append the details to the file next to the session; returns " (details in F)"."""
        if self.crash_log is None:
            return ""
        try:
            with self.crash_log.open("a", encoding="utf-8") as log:
                log.write("".join(traceback.format_exception(error)) + "\n")
        except OSError:
            return ""
        return f" (details in {self.crash_log})"

    def report_crash(self, error: BaseException) -> None:
        where = self.log_crash(error)
        self.notify(
            f"That went wrong: {error}{where}. The game is safe in the session log.",
            severity="error",
            timeout=12,
        )

    # ---- screens for every phase ----------------------------------------------------------

    def extras(self) -> list[str]:
        """Corrections and notes from the log, spoiler-free (never a choice or a deal)."""
        session = self.session
        commands = {r.body["hseq"]: r.body["command"] for r in session.rows if r.kind == "command"}
        lines = []
        for row in session.rows:
            if row.kind == "undo":
                what = commands.get(row.body["reverts"])
                text = describe_command(what) if what else "a move"
                lines.append(f"Correction: the game master took back {text}.")
            elif row.kind == "note":
                what = row.body.get("what")
                if what == "peek":
                    lines.append(
                        f"Day {row.body.get('day')}: the game master peeked at the sealed choices."
                    )
                elif what == "seat_reissued":
                    lines.append(f"{row.body.get('seat')}'s seat was reissued (new link and code).")
                elif what == "address_pinned":
                    url = row.body.get("url")
                    lines.append(
                        f"The players' links were pinned to {url}."
                        if url
                        else "The players' links were unpinned (the served address again)."
                    )
        return lines

    def wrong_links(self, *, earlier: bool = False) -> list[str]:
        """The addresses paused for too many wrong links (and, ``earlier``, those that were)."""
        notes = []
        for row in self.session.notes("bad_tokens"):
            try:
                at = datetime.fromisoformat(row.at).timestamp()
            except ValueError:
                continue
            notes.append((at, row.body))
        return wrong_link_lines(notes, self.clock(), earlier=earlier)

    def show_history(self) -> None:
        from companion.tui.prison.history import HistoryScreen

        self.push_screen(HistoryScreen())

    def history_lines(self, full: bool) -> list[str]:
        state = self.session.state
        return timeline(table(state), story(state) if full else None, self.extras())

    def show_seats(self) -> None:
        from companion.tui.prison.seats import SeatsScreen

        self.push_screen(SeatsScreen())

    def show_print(self) -> None:
        from companion.tui.prison.printout import PrintScreen

        if self.session.game != PRISON_BREAK:
            return
        self.push_screen(PrintScreen())

    def show_balance(self) -> None:
        if self.balance is None:
            self.notify(
                "The Balance screen is not available here; run 'companion balance --screen'.",
                severity="warning",
            )
            return
        self.push_screen(self.balance(self.session))

    def show_help(self) -> None:
        from companion.tui.prison.help import HelpScreen

        self.push_screen(HelpScreen())

    def default_report_path(self) -> Path:
        return self.session.store.path.with_suffix(".md")

    def export_report(self) -> None:
        from companion.tui.common.dialogs import MessageScreen, TextScreen

        state = self.session.state
        full = story(state)
        if full is None:
            self.notify("The report can be exported once the game is over.", severity="warning")
            return

        def write(text: str | None) -> None:
            if text is None:
                return
            path = Path(text.strip() or self.default_report_path()).expanduser()
            if path.is_dir():
                path = path / f"{self.session.name}.md"
            report = story_markdown(self.session.name, table(state), full, self.extras())
            try:
                path.write_text(report, encoding="utf-8")
            except OSError as error:
                self.notify(
                    f"The report could not be written to {path}: {error.strerror}; "
                    "give another path.",
                    severity="error",
                    timeout=10,
                )
                return
            self.last_report = path
            self.push_screen(MessageScreen("Report exported", f"The report is in {path.resolve()}"))

        self.push_screen(
            TextScreen(
                "Export the report (Markdown)",
                "Where should it go? Press Enter for the file next to the session.",
                str(self.default_report_path()),
            ),
            self.guarded(write),
        )

    def peek(self) -> None:
        from companion.tui.common.dialogs import ConfirmScreen, MessageScreen

        state = self.session.state
        if not gm(state)["sealed"]:
            self.notify("Nothing is sealed now: the choices are on the board or not made.")
            return
        day = table(state)["day"]

        def look(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.session.note("peek", day=day)
            except StoreError as error:
                self.notify(str(error), severity="error")
                return
            choices = gm(self.session.state, peek=True)["choices"] or {}
            body = "\n".join(f"{n}: {c or 'not chosen yet'}" for n, c in choices.items())
            self.push_screen(
                MessageScreen(
                    f"Day {day}: tonight's sealed choices",
                    body,
                    classes="private",
                    hide_after=self.private_seconds,
                )
            )

        self.push_screen(
            ConfirmScreen(
                "Peek at the sealed choices?",
                "Make sure no player can see the screen. The peek is written to the history.",
                "Peek",
            ),
            self.guarded(look),
        )

    def set_interview_length(self) -> None:
        from companion.tui.common.dialogs import TextScreen

        def check(text: str) -> str | None:
            if parse_duration(text) is None:
                return "Give a length between 10 seconds and an hour, such as 120, 2:30 or 3m."
            return None

        def save(text: str | None) -> None:
            seconds = parse_duration(text) if text else None
            if seconds is None:
                return
            try:
                self.session.store.set_meta(INTERVIEW_META, seconds)
            except StoreError as error:
                self.notify(str(error), severity="error")
                return
            self.notify(f"Interviews now last {seconds // 60}:{seconds % 60:02d}.")
            self.refresh_screens()

        current = self.interview_seconds()
        self.push_screen(
            TextScreen(
                "Interview length",
                "How long is each interview (seconds, or minutes:seconds)?",
                f"{current // 60}:{current % 60:02d}",
                check,
            ),
            self.guarded(save),
        )

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if not self.has_session:
            return
        yield SystemCommand(
            "Peek at tonight's sealed choices",
            "Asks first; the peek is written to the history",
            self.peek,
        )
        yield SystemCommand(
            "Set the interview length",
            "Seconds per interview, kept with the session",
            self.set_interview_length,
        )
        yield SystemCommand("History", "The game so far (spoiler-free)", self.show_history)
        yield SystemCommand("Seats", "Players' links, QR codes and phones", self.show_seats)
        yield SystemCommand(
            "The players' links: address",
            "Pin the printed address, pick one of the laptop's addresses, or reprint",
            self.show_address,
        )
        yield SystemCommand(
            "Print the cards and sheets",
            "One PDF (A4 or Letter): player cards with QR codes, tokens, tracker, rules",
            self.show_print,
        )
        yield SystemCommand(
            "Balance",
            "Chart: how often the prisoners escape, against nights to escape, for this group",
            self.show_balance,
        )
        yield SystemCommand(
            "Export the report", "After the game: Markdown debrief", self.export_report
        )
        yield SystemCommand("Rules and keys", "The help screen", self.show_help)
