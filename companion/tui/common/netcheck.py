"""The venue preflight from a console (a key on the prison break's Seats screen and in the
warm-up): the laptop's addresses (which one the phones should use, and why), the test page's QR
code and address, and one line that turns green with "Reached from 192.168.1.23 in 40 ms." when
a phone opens it; after a minute without one, the likely causes with the fix for this laptop's
system. The test page is served by the composition root (:class:`NetworkCheck`): on the running
phone server, or alone on the game's port."""

from __future__ import annotations

import sys
from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from companion.errors import UserError
from companion.tui.common import network
from companion.tui.common.contracts import NetworkCheck, NetworkProbe
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.qr import qr_lines


class NetworkCheckScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,enter", "close", "Close")]

    def __init__(
        self,
        check: NetworkCheck,
        platform: str = sys.platform,
        wait: float = network.WAIT_SECONDS,
    ) -> None:
        super().__init__()
        self.check = check
        self.platform = platform
        self.wait = wait
        self.probe: NetworkProbe | None = None
        self.visits: list[tuple[str, int]] = []
        self._unlisten: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        _ = words(self)
        with VerticalScroll(id="netcheck-box"):
            yield Static(_("Network test: will the players' phones reach this laptop?"),
                         classes="dialog-title", markup=False)
            yield Static("", id="netcheck-addresses", markup=False)
            yield Static("", id="netcheck-qr", markup=False)
            with Vertical(id="netcheck-lines"):
                yield Static(_("Opening the test page…"), id="netcheck-status", markup=False)
                yield Static("", id="netcheck-causes", markup=False)
        yield Keys()

    def on_mount(self) -> None:
        self.run_worker(self._open(), exclusive=True)

    async def _open(self) -> None:
        _ = words(self)
        status = self.query_one("#netcheck-status", Static)
        try:
            probe = await self.check()
        except (UserError, OSError) as error:
            status.update(_("The test page cannot be served: %(error)s", error=error))
            status.add_class("failed")
            return
        if not self.is_attached:  # closed while it opened
            await probe.close()
            return
        self.probe = probe
        found = network.addresses_of(probe.addresses())
        self.query_one("#netcheck-addresses", Static).update(
            "\n".join(network.address_lines(found, _))
        )
        self.query_one("#netcheck-qr", Static).update(
            "\n".join([*qr_lines(probe.url), f"  {probe.url}"])
        )
        status.update(network.waiting_line(probe.url, _))
        self._unlisten = probe.listen(self._reached)
        self.set_timer(max(self.wait, 0.01), self._no_phone, name="network check wait")

    def _reached(self, address: str, ms: int) -> None:
        status = self.query_one("#netcheck-status", Static)
        status.update(network.reached_line(address, ms, words(self)))
        if network.is_loopback(address):
            return  # this laptop itself: no phone yet, nothing turns green
        self.visits.append((address, ms))
        status.add_class("reached")
        self.query_one("#netcheck-causes", Static).update("")

    def _no_phone(self) -> None:
        if self.visits or self.probe is None:
            return
        causes = network.cause_lines(self.platform, self.probe.port, words(self))
        self.query_one("#netcheck-causes", Static).update("\n".join(causes))

    async def action_close(self) -> None:
        if self._unlisten is not None:
            self._unlisten()
        if self.probe is not None:
            await self.probe.close()
            self.probe = None
        self.dismiss(None)
