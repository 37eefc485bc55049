"""Seats: each player's link, seat code and phone connection; the join address; a QR code on
demand; reissue a seat; the links' address (pin, pick, reprint); the venue preflight (I: will
the players' phones reach this laptop?).

Seat codes open a player's private page, so they are masked until the game master shows them
(C), and they hide themselves again after the console's private time."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import DataTable, Static

from companion.language import N_
from companion.session import links
from companion.session.prison import seats
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.common.follow import PhonesSeen, Redraw
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.common.netcheck import NetworkCheckScreen
from companion.tui.common.panel import Panel
from companion.tui.common.presence import phone_words
from companion.tui.common.qr import qr_lines
from companion.tui.common.table import Rows
from companion.tui.prison.context import Context, Show

MASK = "•••• ••••"
ROLE_WORDS = {"prisoner": N_("prisoner"), "warden": N_("warden")}
SEAT_COLUMNS = (
    (N_("Player"), "player"),
    (N_("Role"), "role"),
    (N_("Seat code"), "seat code"),
    (N_("Phone"), "phone"),
)


def spaced(code: str) -> str:
    """A seat code as the cards print it, in two groups of four."""
    return f"{code[:4]} {code[4:]}"


class QRScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,enter,space,q", "close", "Close")]

    def __init__(self, seat: seats.Seat, base: str) -> None:
        super().__init__(classes="private")
        self.seat = seat
        self.base = base

    def compose(self) -> ComposeResult:
        _ = words(self)
        url = seats.seat_url(self.base, self.seat)
        role = self.seat.role
        with Center(), Vertical(id="qr-box"):
            yield Static(
                plain(
                    _(
                        "%(name)s (%(role)s): scan with the phone's camera",
                        name=self.seat.name,
                        role=_(ROLE_WORDS[role]) if role in ROLE_WORDS else role,
                    )
                ),
                classes="dialog-title",
            )
            yield Static("\n".join(qr_lines(url)), id="qr", markup=False)
            yield Static(
                _(
                    "or open %(url)s and type %(code)s",
                    url=seats.join_url(self.base),
                    code=spaced(self.seat.code),
                ),
                markup=False,
            )
        yield Keys()

    def action_close(self) -> None:
        self.dismiss(None)


class SeatsScreen(Screen[None]):
    BINDINGS = [
        Binding("enter,k", "qr", "QR code"),
        Binding("c", "codes", "Codes"),
        Binding("n", "reissue", "Reissue"),
        Binding("l", "address", "Address"),
        Binding("p", "print", "Print"),
        Binding("i", "network", "Network test", show=False),  # in the help (the footer is full)
        Binding("escape,w", "close", "Back"),
    ]
    codes = reactive(False, init=False)  # the seat codes on screen (C), for a while

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.ctx = ctx
        self._codes_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Panel(id="seats-title")
        yield Panel(id="seats-address")
        yield Panel(id="seats-join")
        yield Rows([key for _, key in SEAT_COLUMNS], id="seats", cursor_type="row")
        yield Panel(id="seats-private")
        yield Panel(id="seats-links")
        yield Keys()

    def on_mount(self) -> None:
        _ = words(self)
        table = self.query_one(DataTable)
        for label, key in SEAT_COLUMNS:
            table.add_column(_(label), key=key)
        self.ctx.faults.guarded(self.refresh_view)()
        table.focus()

    @on(Redraw)
    def _redraw(self) -> None:
        self.ctx.faults.guarded(self.refresh_view)()

    @on(PhonesSeen)
    def _phones_seen(self, message: PhonesSeen) -> None:
        self.ctx.faults.guarded(self.refresh_phones)(set(message.seats))

    def refresh_view(self) -> None:
        _ = words(self)
        session = self.ctx.session
        base = links.current_base(session)
        down = self.ctx.phones_down
        if down is not None:
            title = _("Seats: %(problem)s", problem=f"{down[0].lower()}{down[1:]}")
            base = None  # the links lead nowhere until the server is up
        elif base:
            title = _("Seats: players' links start with %(url)s", url=base)
        else:
            title = _(
                "Seats: no phone server is running (started with --no-phones?), so there are "
                "no links or QR codes; play on paper."
            )
        self.query_one("#seats-title", Panel).text = title
        warning = self.ctx.address_warning()
        bar = self.query_one("#seats-address", Panel)
        bar.display = warning is not None
        bar.text = warning or ""
        join = self.query_one("#seats-join", Panel)
        lines = []
        if base:
            lines.append(
                _("No QR? Open %(url)s and type the seat code.", url=seats.join_url(base))
            )
            lines.append(_("Board for a projector: %(url)s", url=seats.board_url(base)))
        lines.append(_("C shows the seat codes (only where no player can see)."))
        lines += self.ctx.wrong_links(earlier=True)
        join.text = "\n".join(lines)
        private = self.query_one("#seats-private", Panel)
        private.display = self.codes
        private.text = _(
            "PRIVATE: seat codes are on screen. They hide in %(seconds)s s; C hides them now.",
            seconds=round(self.ctx.private_seconds),
        )
        self.query_one(Rows).shown = tuple(
            (
                seat.name,
                _(ROLE_WORDS[seat.role]) if seat.role in ROLE_WORDS else seat.role,
                spaced(seat.code) if self.codes else MASK,
                phone_words(self.ctx.presence.get(seat.name), _),
            )
            for seat in seats.seats_of(session)
        )  # most changes (a choice) change nothing here, and nothing is drawn again
        extra = self.ctx.links() if self.ctx.links else []
        self.query_one("#seats-links", Panel).text = (
            "\n".join(
                f"{item.get('label', '')}: {item.get('url', '')}"
                for item in extra
                if item.get("label") not in ("Board", "Join")  # shown above, as the links are
            )
        )

    def refresh_phones(self, names: set[str]) -> None:
        """Phones were seen: only their connection cells change."""
        table = self.query_one(Rows)
        presence = self.ctx.presence
        _ = words(self)
        table.shown = tuple(
            (*cells[:3], phone_words(presence.get(cells[0]), _)) if cells[0] in names else cells
            for cells in table.shown
        )

    def _selected(self) -> seats.Seat | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        name = seats.seats_of(self.ctx.session)[table.cursor_row].name
        return next((s for s in seats.seats_of(self.ctx.session) if s.name == name), None)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_qr()

    def action_qr(self) -> None:
        _ = words(self)
        seat = self._selected()
        base = links.current_base(self.ctx.session)
        if seat is None:
            return
        if self.ctx.phones_down is not None:
            self.notify(
                _("There is no link to show until the phone server is up: the title says why."),
                severity="warning",
                timeout=8,
            )
            return
        if base is None:
            self.notify(
                _(
                    "There is no link to show: no phone server is running. Start the console "
                    "without --no-phones."
                ),
                severity="warning",
                timeout=8,
            )
            return
        self.app.push_screen(QRScreen(seat, base))

    @work(group="flow")
    async def action_reissue(self) -> None:
        _ = words(self)
        with self.ctx.faults.caught():
            seat = self._selected()
            if seat is None:
                return
            if await self.app.push_screen_wait(
                ConfirmScreen(
                    _("Reissue %(name)s's seat?", name=seat.name),
                    _(
                        "The old QR code and seat code stop working at once; print or show the "
                        "new one."
                    ),
                    _("Reissue"),
                )
            ):
                seats.reissue(self.ctx.session, seat.name)
                self.notify(
                    _(
                        "%(name)s has a new link and code; the old ones stop working.",
                        name=seat.name,
                    )
                )
                self.refresh_view()

    def action_codes(self) -> None:
        """Show or hide the seat codes; shown, they hide again after the private time."""
        if self._codes_timer is not None:
            self._codes_timer.stop()
            self._codes_timer = None
        if not self.codes:
            self._codes_timer = self.set_timer(self.ctx.private_seconds, self.codes_off)
        self.codes = not self.codes

    @property
    def codes_timed(self) -> bool:
        """The seat codes are set to hide by themselves (their timer is armed)."""
        return self._codes_timer is not None

    def codes_off(self) -> None:
        self._codes_timer = None
        self.codes = False

    def watch_codes(self) -> None:
        self.ctx.faults.guarded(self.refresh_view)()

    def action_address(self) -> None:
        self.post_message(Show("address"))

    def action_print(self) -> None:
        self.post_message(Show("print"))

    def action_network(self) -> None:
        _ = words(self)
        if self.ctx.network is None:
            self.notify(_("The network test is not available here."), severity="warning")
            return
        self.app.push_screen(NetworkCheckScreen(self.ctx.network))

    def action_close(self) -> None:
        self.dismiss(None)
