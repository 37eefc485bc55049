"""The history: a spoiler-free timeline while the game runs; the full story after it."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen

from companion.tui.common.follow import Redraw
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.panel import Panel
from companion.tui.prison.context import Context, Show


class HistoryScreen(Screen[None]):
    BINDINGS = [
        Binding("f", "full", "Full story"),
        Binding("r", "export", "Export report"),
        Binding("escape,h", "close", "Back"),
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.ctx = ctx
        self.full = False

    def compose(self) -> ComposeResult:
        yield Panel(id="history-title")
        with VerticalScroll(id="history-scroll"):
            yield Panel(id="history")
        yield Keys()

    def on_mount(self) -> None:
        self.ctx.faults.guarded(self.refresh_view)()
        self.query_one("#history-scroll").focus()

    @on(Redraw)
    def _redraw(self) -> None:
        self.ctx.faults.guarded(self.refresh_view)()

    def refresh_view(self) -> None:
        _ = words(self)
        over = self.ctx.session.state.over
        if not over:
            self.full = False
        if self.full:
            title = _("The full story: every night's choices and every deal (for the debrief)")
        elif over:
            title = _("History (F reveals the full story for the debrief)")
        else:
            title = _("History so far (spoiler-free: no choices, no deals)")
        self.query_one("#history-title", Panel).text = title
        lines = self.ctx.history_lines(self.full, _)
        self.query_one("#history", Panel).text = "\n".join(lines)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("full", "export"):
            return bool(self.ctx.session.state.over)
        return True

    def action_full(self) -> None:
        self.full = not self.full
        self.ctx.faults.guarded(self.refresh_view)()

    def action_export(self) -> None:
        self.post_message(Show("report"))

    def action_close(self) -> None:
        self.dismiss(None)
