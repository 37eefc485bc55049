"""One interview: a countdown (pause, extend), then deal or no deal."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Footer, Static

from companion.rules.core.words import plural
from companion.tui.prison.text import clock

EXTEND_SECONDS = 30


class InterviewScreen(ModalScreen[bool | None]):
    """Returns True (deal), False (no deal) or None (cancelled: nothing recorded)."""

    BINDINGS = [
        Binding("d", "decide(True)", "Deal"),
        Binding("n", "decide(False)", "No deal"),
        Binding("p", "pause", "Pause/resume"),
        Binding("plus,equals_sign,e", "extend", f"+{EXTEND_SECONDS} s"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(
        self,
        prisoner: str,
        seconds: int,
        deals_left: int,
        deals_limit: int,
        *,
        ticking: bool = True,
    ) -> None:
        super().__init__()
        self.prisoner = prisoner
        self.remaining = seconds
        self.deals_left = deals_left
        self.deals_limit = deals_limit
        self.paused = False
        self.ticking = ticking
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="interview-box"):
            yield Static(f"Interview: {self.prisoner}", classes="dialog-title", markup=False)
            yield Static("", id="countdown")
            yield Static(self._deal_text(), id="deals", markup=False)
            yield Static(
                "[b]d[/b] deal  [b]n[/b] no deal  [b]p[/b] pause  [b]+[/b] extend  "
                "[b]Esc[/b] cancel",
                classes="dialog-keys",
            )
        yield Footer()

    def _deal_text(self) -> str:
        # The countdown is the room's clock: nothing here (text, keys) may differ with the
        # deals made today, or the room would learn who took one (T on the game screen shows
        # the count).
        most = plural(self.deals_limit, "deal")
        return f"A deal gives one parole token; the warden makes at most {most} a day."

    def on_mount(self) -> None:
        self.show()
        if self.ticking:
            self._timer = self.set_interval(1, self.tick)

    def show(self) -> None:
        text = clock(self.remaining)
        if self.remaining <= 0:
            text += "  time is up: deal or no deal?"
        elif self.paused:
            text += "  (paused)"
        self.query_one("#countdown", Static).update(text)
        self.set_class(self.remaining <= 0, "time-up")

    def tick(self) -> None:
        if self.paused or self.remaining <= 0:
            return
        self.remaining -= 1
        if self.remaining == 0:
            self.app.bell()
        self.show()

    def action_pause(self) -> None:
        self.paused = not self.paused
        self.show()

    def action_extend(self) -> None:
        self.remaining = max(0, self.remaining) + EXTEND_SECONDS
        self.show()

    def action_decide(self, deal: bool) -> None:
        if deal and self.deals_left <= 0:
            self.notify("No deal is possible: today's deal limit is reached.", severity="warning")
            return
        self.dismiss(deal)

    def action_cancel(self) -> None:
        self.dismiss(None)
