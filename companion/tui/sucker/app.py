"""The So Long Sucker referee: a standalone Textual app on a live session.

The game master types each move as it happens at the table (``r 2``, ``next bo``, ``kill g``,
``give g bo``, ``refuse``…; see :mod:`companion.tui.sucker.entry`) on the
:class:`~companion.tui.sucker.referee.RefereeScreen`. It reads the game only through
:mod:`companion.rules.sucker.views` and changes it only through the session (``submit``,
``undo``), so every move is in the log before the screen shows it. Ctrl+G shows the game
master's phone's link as a QR code (:mod:`companion.tui.common.phone`): the referee's page on
the game master's own phone, a second console with a button for each legal move.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from companion.language import Language
from companion.session.session import Change
from companion.session.sucker import SuckerSession
from companion.tui.common.console import GameConsole
from companion.tui.common.language import console_language
from companion.tui.common.literal import visible
from companion.tui.common.phone import PhoneScreen
from companion.tui.sucker.referee import RefereeScreen


class SuckerApp(GameConsole):
    """The referee for one So Long Sucker session."""

    CSS_PATH = "sucker.tcss"
    TITLE = "So Long Sucker"
    BINDINGS = [
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("f1", "toggle_help", "Help"),
        # ctrl+g, not g: the move line takes letters (g is a color's)
        Binding("ctrl+g", "gm_phone", "GM phone", priority=True),
        Binding("escape", "escape", "Close help / clear entry", show=False),
        Binding("pageup", "scroll_log(-1)", "Log up", show=False),
        Binding("pagedown", "scroll_log(1)", "Log down", show=False),
        Binding("ctrl+l", "focus_entry", "Entry", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, session: SuckerSession, *, lang: Language | None = None) -> None:
        super().__init__(lang=lang or console_language())
        self.session = session
        self.sub_title = visible(session.name)
        self.referee = RefereeScreen(session)

    def get_default_screen(self) -> Screen[Any]:
        return self.referee

    def on_mount(self) -> None:
        self.follow_session(self.session)

    def session_changed(self, change: Change) -> None:
        """A move or an undo: its lines in the log at once, the table through the throttle."""
        if change.kind not in ("command", "undo"):
            return
        if change.entry is not None:
            self.referee.log_entry(change.entry)
        super().session_changed(change)

    def under_way(self) -> bool:
        return self.referee.view["winner"] is None

    def reopen(self) -> str:
        return f"companion resume {self.session.name}"

    def action_undo(self) -> None:
        self.referee.undo()

    def action_gm_phone(self) -> None:
        """The game master's phone's link as a QR code (R: a new one), on a screen of its
        own."""
        if not isinstance(self.screen, PhoneScreen):
            self.push_screen(PhoneScreen(self.session))

    def action_toggle_help(self) -> None:
        self.referee.toggle_help()

    def action_escape(self) -> None:
        self.referee.escape()

    def action_scroll_log(self, pages: int) -> None:
        self.referee.scroll_log(pages)

    def action_focus_entry(self) -> None:
        self.referee.focus_entry()
