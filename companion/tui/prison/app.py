"""The game master's console (``ConsoleApp``): one app for the session picker, the set-up
screen and the live game.

The console reads the game only through :mod:`companion.rules.prison.views` and changes it only
through the session (``submit``, ``undo``, ``note``). It follows the session
(:mod:`companion.tui.common.follow`), so moves made elsewhere (phones) show at once. Its screens
get a :class:`~companion.tui.prison.context.Context` and post messages up; the app answers them.
A night's server serves the phones; the console is one of its clients (the composition root
hands it the attached session).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Coroutine, Iterable
from pathlib import Path
from typing import Any

from textual import on
from textual.app import App, SystemCommand
from textual.screen import Screen

from companion.language import N_, Language
from companion.session import links
from companion.session.prison import is_prison
from companion.session.session import Session
from companion.tui.common.console import GameConsole
from companion.tui.common.contracts import Addresses, BalanceFactory, Links, NetworkCheck, Printer
from companion.tui.common.language import console_language
from companion.tui.common.phone import PhoneScreen
from companion.tui.common.presence import Presence
from companion.tui.prison import flows
from companion.tui.prison.choice import ChoiceScreen
from companion.tui.prison.context import (
    BackToPicker,
    Context,
    Moved,
    NewSession,
    Place,
    Prison,
    SessionOpened,
    SessionShelf,
    Show,
)
from companion.tui.prison.game import GameScreen
from companion.tui.prison.help import HelpScreen
from companion.tui.prison.history import HistoryScreen
from companion.tui.prison.picker import PickerScreen
from companion.tui.prison.seats import SeatsScreen
from companion.tui.prison.setup import SetupScreen

__all__ = ["ConsoleApp", "SessionShelf"]

# The command palette's places: (title, help, place).
PLACES: list[tuple[str, str, Place]] = [
    (N_("History"), N_("The game so far (spoiler-free)"), "history"),
    (N_("Seats"), N_("Players' links, QR codes and phones"), "seats"),
    (
        N_("The players' links: address"),
        N_("Pin the printed address, pick one of the laptop's addresses, or reprint"),
        "address",
    ),
    (
        N_("Print the cards and sheets"),
        N_("One PDF (A4 or Letter): player cards with QR codes, tokens, tracker, rules"),
        "print",
    ),
    (
        N_("Balance"),
        N_("Chart: how often the prisoners escape, against nights to escape, for this group"),
        "balance",
    ),
    (N_("Export the report"), N_("After the game: Markdown debrief"), "report"),
    (
        N_("The game master's phone"),
        N_("Its link as a QR code: run the night from your own phone; a new link on demand"),
        "phone",
    ),
    (N_("Rules and keys"), N_("The help screen"), "help"),
]
Flow = Callable[[App[Any], Context], Coroutine[Any, Any, None]]


class ConsoleApp(GameConsole):
    CSS_PATH = "console.tcss"
    TITLE = "companion"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        session: Prison | None = None,
        *,
        shelf: SessionShelf | None = None,
        new: tuple[str, str | None] | None = None,
        links: Links | None = None,
        printer: Printer | None = None,
        addresses: Addresses | None = None,
        balance: BalanceFactory[Screen[None]] | None = None,
        private_seconds: float = 20.0,
        ticking: bool = True,
        clock: Callable[[], float] = time.time,
        notice: str | None = None,
        lang: Language | None = None,
        network: NetworkCheck | None = None,
    ) -> None:
        super().__init__(lang=lang or console_language(), clock=clock)
        self.context = Context(
            self.faults,
            shelf=shelf,
            links=links,
            printer=printer,
            addresses=addresses,
            network=network,
            balance=balance,
            private_seconds=private_seconds,
            ticking=ticking,
            clock=clock,
            opened=session,
        )
        self.new = new
        self.notice = notice
        # A session of another game, picked in the picker: the runner opens its own console.
        self.left_for: Session | None = None

    # ---- what the runner reads -----------------------------------------------------------

    @property
    def session(self) -> Prison:
        return self.context.session

    @property
    def has_session(self) -> bool:
        return self.context.opened is not None

    @property
    def crash_log(self) -> Path | None:
        return self.faults.log

    @property
    def addresses(self) -> Addresses | None:
        return self.context.addresses

    @addresses.setter
    def addresses(self, addresses: Addresses | None) -> None:
        self.context.addresses = addresses

    # ---- opening a session -----------------------------------------------------------------

    def on_mount(self) -> None:
        if self.notice:
            self.notify(self.notice, severity="warning", timeout=15)
        if self.context.opened is not None:
            self.open_game(self.context.opened)
        elif self.new is not None:
            self.push_screen(SetupScreen(self.context, *self.new, back_to_picker=False))
        else:
            self.push_screen(PickerScreen(self.context))

    def open_game(self, session: Session) -> None:
        if not is_prison(session):
            self.leave_for(session)
            return
        self.context.opened = session
        self.follow_session(session)
        if len(self.screen_stack) > 1:
            self.switch_screen(GameScreen(self.context))
        else:
            self.push_screen(GameScreen(self.context))
        if self.served is not None:
            self.hint_addresses()

    def leave_for(self, session: Session) -> None:
        """Close this console so the runner can open the one for ``session``'s game."""
        self.left_for = session
        self.exit()

    @on(SessionOpened)
    def _opened(self, message: SessionOpened) -> None:
        self.faults.stopping(self.open_game)(message.session)

    @on(NewSession)
    def _set_up(self, message: NewSession) -> None:
        screen = SetupScreen(self.context, message.name, message.scenario)
        self.faults.stopping(self.switch_screen)(screen)

    @on(BackToPicker)
    def _back_to_picker(self) -> None:
        self.faults.stopping(self.switch_screen)(PickerScreen(self.context))

    # ---- following the session: redrawn at most every REDRAW_SECONDS ----------------------

    @property
    def presence(self) -> Presence:
        return self.context.presence

    @on(Moved)
    def _moved(self) -> None:
        self.refresh_screens()

    # ---- the night's server ----------------------------------------------------------------

    def night_changed(self, news: str) -> None:
        """While the night's server is not answering, a banner on the game screen says so
        (the runner starts it again); it goes once the server answers."""
        _ = self.lang
        if news == "lost":
            self.context.phones_down = _(
                "The night's server is not answering, so the phones cannot play; it is being "
                "started again (nothing is lost)."
            )
            self.refresh_screens()
        elif news == "back":
            self.context.phones_down = None
        super().night_changed(news)

    def hint_addresses(self) -> None:
        """With several addresses and none pinned, say which one the links use."""
        session = self.session
        if session.settings.get("public_url") or links.address_changed(session):
            return
        usable = [a for _, a in self.context.known_addresses() or [] if not a.startswith("127.")]
        current = links.current_base(session)
        if len(usable) > 1 and current:
            _ = self.lang
            self.notify(
                _(
                    "This laptop has %(count)s network addresses; the links use %(url)s. "
                    "If phones cannot reach it, press L to pick another.",
                    count=len(usable),
                    url=current,
                ),
                title=_("Several addresses"),
                timeout=20,
            )

    def action_command_palette(self) -> None:
        # Not while a player holds the laptop for their secret choice: the palette leads to
        # the peek, the seats' codes and the history.
        if isinstance(self.screen, ChoiceScreen):
            return
        super().action_command_palette()

    def under_way(self) -> bool:
        return self.has_session and not self.session.state.over

    def reopen(self) -> str:
        return f"companion resume {self.session.name}"

    # ---- errors: a flow's is reported, an action's stops the console -----------------------

    def run_flow(self, flow: Flow) -> None:
        """Run ``flow`` in a worker; an error in it is reported and the console goes on."""

        self.run_guarded(flow(self, self.context))

    # ---- the console's places --------------------------------------------------------------

    @on(Show)
    def _show(self, message: Show) -> None:
        self.faults.stopping(self.show)(message.what)

    def show(self, what: Place) -> None:
        """Open ``what`` (see :class:`~companion.tui.prison.context.Show`)."""
        ctx = self.context
        if what == "history":
            self.push_screen(HistoryScreen(ctx))
        elif what == "seats":
            self.push_screen(SeatsScreen(ctx))
        elif what == "help":
            self.push_screen(HelpScreen(ctx))
        elif what == "print":
            flows.show_print(self, ctx)
        elif what == "balance":
            flows.show_balance(self, ctx)
        elif what == "address":
            self.run_flow(flows.choose_address)
        elif what == "report":
            self.run_flow(flows.export_report)
        elif what == "phone":
            self.push_screen(PhoneScreen(ctx.session))

    def peek(self) -> None:
        self.run_flow(flows.peek)

    def set_interview_length(self) -> None:
        self.run_flow(flows.set_interview_length)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        _ = self.lang
        if isinstance(screen, SetupScreen):
            yield SystemCommand(
                _("Scenario"),
                _("Pick the scenario (F4): automatic, for the group's size, or any other"),
                screen.action_scenario,
            )
        if not self.has_session:
            return
        yield SystemCommand(
            _("Peek at tonight's sealed choices"),
            _("Asks first; the peek is written to the history"),
            self.peek,
        )
        yield SystemCommand(
            _("Set the interview length"),
            _("Seconds per interview, kept with the session"),
            self.set_interview_length,
        )
        for title, help_text, place in PLACES:
            yield SystemCommand(_(title), _(help_text), functools.partial(self.show, place))
