"""Print: the session's cards and sheets as one PDF (A4 or Letter), written in a worker thread.

The console does not import the printing face: the composition root hands it ``printer``, a
function ``(session, paper, out, public_url) -> Printed`` that raises ``UserError`` with one
sentence when it cannot print. The worker only reads the session; the address the cards were
printed on is recorded on the app's own thread once the PDF is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, RadioButton, RadioSet, Static
from textual.worker import Worker, WorkerState

from companion.errors import UserError
from companion.language import N_
from companion.session import links
from companion.session.prison import seats
from companion.session.store import StoreError
from companion.tui.common.contracts import Printed, Printer
from companion.tui.common.follow import Redraw
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.prison.context import Context, Moved

PAPERS = {"a4": N_("A4"), "letter": N_("Letter")}


def default_out(session: Any, paper: str) -> Path:
    """Next to the session file, named like ``companion print`` names it."""
    return Path(session.store.path).parent / f"{session.name}-{paper}.pdf"


class PrintScreen(Screen[None]):
    """Ask the paper size and where the PDF goes; print; say where it went."""

    BINDINGS = [
        Binding("ctrl+s", "print", "Print", priority=True),
        Binding("f2", "toggle_paper", "A4/Letter"),
        Binding("escape", "close", "Back"),
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.ctx = ctx
        self.paper = "a4"
        self.busy = False

    def compose(self) -> ComposeResult:
        _ = words(self)
        yield Static(_("Print the cards and sheets"), id="print-title", markup=False)
        with VerticalScroll(id="print-body"):
            yield Static(
                _(
                    "One PDF: a card per seat with its QR code and seat code, the warden's "
                    "screen, the rules card, the night tracker and the token sheets."
                ),
                markup=False,
            )
            with Horizontal(id="print-paper-row"):
                yield Static(_("Paper"), classes="label", markup=False)
                with RadioSet(id="print-paper"):
                    yield RadioButton(_(PAPERS["a4"]), value=True, id="paper-a4")
                    yield RadioButton(_(PAPERS["letter"]), id="paper-letter")
            yield Static(_("Save as"), classes="label", markup=False)
            yield Input(id="print-out")
            yield Static("", id="print-links", markup=False)
            yield Static("", id="print-status", markup=False)
        yield Keys()

    def on_mount(self) -> None:
        session = self.ctx.session
        self.query_one("#print-out", Input).value = str(default_out(session, self.paper))
        self.refresh_view()
        self.query_one("#print-out", Input).focus()

    @on(Redraw)
    def _redraw(self) -> None:
        self.ctx.faults.guarded(self.refresh_view)()

    def refresh_view(self) -> None:
        _ = words(self)
        session = self.ctx.session
        base = links.current_base(session)
        if base:
            text = _("The cards' links will start with %(url)s.", url=base)
        else:
            text = _(
                "No phone server is running, so the cards' links will use this laptop's "
                "address and the default port."
            )
        self.query_one("#print-links", Static).update(text)

    # ---- paper ------------------------------------------------------------------------------

    def set_paper(self, paper: str) -> None:
        if paper == self.paper:
            return
        out = self.query_one("#print-out", Input)
        session = self.ctx.session
        if Path(out.value.strip()) == default_out(session, self.paper):
            out.value = str(default_out(session, paper))
        self.paper = paper
        self.query_one(f"#paper-{paper}", RadioButton).value = True

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        pressed = event.pressed.id or ""
        self.set_paper(pressed.removeprefix("paper-") or "a4")

    def action_toggle_paper(self) -> None:
        self.set_paper("letter" if self.paper == "a4" else "a4")

    # ---- printing ---------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_print()

    def action_print(self) -> None:
        _ = words(self)
        printer = self.ctx.printer
        if printer is None:
            self.status(_("Printing is not available in this console; use 'companion print'."))
            return
        if self.busy:
            return
        text = self.query_one("#print-out", Input).value.strip()
        out = Path(text).expanduser() if text else default_out(self.ctx.session, self.paper)
        if out.is_dir():
            out = out / default_out(self.ctx.session, self.paper).name
        try:
            seats.seats_of(self.ctx.session)  # any missing seat is made here, not there
        except Exception as error:  # noqa: BLE001 - one sentence, the console goes on
            self.status(str(error))
            return
        self.busy = True
        self.status(
            _("Printing %(paper)s to %(file)s…", paper=_(PAPERS[self.paper]), file=str(out))
        )
        self._print(printer, self.paper, out)

    @work(thread=True, exclusive=True, group="print", exit_on_error=False)
    def _print(self, printer: Printer, paper: str, out: Path) -> Printed:
        return printer(self.ctx.session, paper, out, None)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "print" or event.state not in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
        ):
            return
        self.busy = False
        _ = words(self)
        if event.state == WorkerState.SUCCESS:
            printed = cast(Printed, event.worker.result)
            path = printed.path
            try:
                self.ctx.session.set("printed_url", printed.base)
            except StoreError as unrecorded:
                self.status(str(unrecorded))
                return
            base = links.printed_base(self.ctx.session) or _("this laptop's address")
            self.status(
                _(
                    "Printed to %(file)s (links on %(url)s). Print it at 100%% scale, in black "
                    "and white.",
                    file=str(path),
                    url=base,
                )
            )
            self.notify(_("The cards and sheets are in %(file)s.", file=str(path)))
            self.post_message(Moved())
            return
        error = event.worker.error
        if isinstance(error, UserError):
            self.status(str(error))
        else:
            where = self.ctx.faults.write(error) if error is not None else ""
            self.status(
                _(
                    "Printing failed: %(error)s%(details)s; nothing was printed.",
                    error=str(error),
                    details=where,
                )
            )
        self.notify(_("Nothing was printed."), severity="error")

    def status(self, text: str) -> None:
        self.query_one("#print-status", Static).update(text)

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 1:
            self.dismiss(None)
