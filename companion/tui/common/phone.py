"""The game master's phone: its link as a QR code, on a screen of its own (never printed, never
on the board), and a new link on demand (R), which ends every device holding the old one.

The page it opens is a second console on the game master's own phone (the night's server's
``/gm/SECRET``: the prison break's, the warm-up's, So Long Sucker's); whoever scans this code
can run the night, so the screen closes itself after a while, as every secret on the console
does."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Static

from companion.language import N_
from companion.session.attached import AttachedSession
from companion.session.session import Session
from companion.session.store import StoreError
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.common.qr import qr_lines

SHOWN_SECONDS = 60.0  # the code stays on screen this long at most
ALONE = N_(
    "The game master's phone needs the night's server, and this console holds the session "
    "alone; open it with companion resume (without --no-phones)."
)


class PhoneScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("r", "replace", "New link"),
        Binding("escape,enter,space,g", "close", "Close"),
    ]

    def __init__(self, session: Session, alone: str = ALONE) -> None:
        """``alone``: what the screen says when this console holds the session alone (how to
        open it on the night's server instead)."""
        super().__init__(classes="private")
        self.session = session
        self.alone = alone
        self.link: str | None = None
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="qr-box"):
            yield Static("", classes="dialog-title", id="phone-title", markup=False)
            yield Static("", id="qr", markup=False)
            yield Static("", id="phone-link", markup=False)
            yield Static("", id="phone-note", markup=False)
        yield Keys()

    def on_mount(self) -> None:
        session = self.session
        try:
            self.link = session.phone_link() if isinstance(session, AttachedSession) else None
        except StoreError as error:
            self.notify(str(error), severity="error", timeout=10)
        self.show()
        self._timer = self.set_timer(SHOWN_SECONDS, self.action_close)

    def show(self) -> None:
        _ = words(self)
        title = self.query_one("#phone-title", Static)
        code = self.query_one("#qr", Static)
        link = self.query_one("#phone-link", Static)
        note = self.query_one("#phone-note", Static)
        if self.link is None:
            title.update(plain(_("The game master's phone")))
            code.update("")
            link.update("")
            note.update(plain(_(self.alone)))
            return
        title.update(plain(_("The game master's phone: scan this with your own phone")))
        code.update("\n".join(qr_lines(self.link)))
        link.update(plain(self.link))
        note.update(plain(_.n_(
            "Whoever scans this runs the night: keep it from the players' eyes. R: a new link "
            "(every phone holding this one stops). It closes itself in %(count)s s.",
            "Whoever scans this runs the night: keep it from the players' eyes. R: a new link "
            "(every phone holding this one stops). It closes itself in %(count)s s.",
            round(SHOWN_SECONDS),
        )))

    @work(group="flow")
    async def action_replace(self) -> None:
        session = self.session
        if not isinstance(session, AttachedSession) or self.link is None:
            return
        _ = words(self)
        if not await self.app.push_screen_wait(ConfirmScreen(
            _("A new link for the game master's phone?"),
            _("Every phone holding the link shown now stops working at once; scan the new "
              "code with yours."),
            _("New link"),
        )):
            return
        try:
            self.link = session.replace_phone_link()
        except StoreError as error:
            self.notify(str(error), severity="error", timeout=10)
            return
        self.show()
        self.notify(_("The game master's phone has a new link; the old one no longer works."))

    def action_close(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.is_current:
            self.dismiss(None)
        else:  # covered (a question): close once it is on top again
            self._timer = self.set_timer(1, self.action_close)
