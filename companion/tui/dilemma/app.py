"""The game master's console for the dilemma warm-up (``companion dilemma NAME``).

The room's QR code, who joined, who faces whom and who has chosen (never what, unless the game
master peeks, which is noted in the log), the last round and the leaderboard. The console reads
the tournament only through :mod:`companion.rules.dilemma.views` and changes it only through the
session, which it follows (:mod:`companion.tui.common.follow`). The phone server is handed in by
the composition root as an async starter (this module never imports :mod:`companion.web`); it
runs in this app's event loop.
"""

from __future__ import annotations

import secrets
import textwrap
import time
from collections.abc import Callable
from typing import Any

from textual import on, work
from textual.binding import Binding
from textual.screen import Screen

from companion.language import N_, Language
from companion.rules.core.game import Refused
from companion.rules.dilemma.commands import (
    BringBack,
    CloseDoors,
    DilemmaCommand,
    OpenDoors,
    StartRound,
)
from companion.rules.dilemma.engine import DILEMMA
from companion.rules.dilemma.events import Chose, Joined
from companion.rules.dilemma.room import HoldTimer, StartTimer
from companion.rules.dilemma.views import GmView
from companion.session.attached import AttachedSession
from companion.session.dilemma import DilemmaSession
from companion.session.session import Change
from companion.tui.common.console import GameConsole
from companion.tui.common.contracts import NetworkCheck
from companion.tui.common.language import console_language
from companion.tui.common.literal import visible
from companion.tui.common.moves import NotDone, attempt
from companion.tui.common.netcheck import NetworkCheckScreen
from companion.tui.common.phone import PhoneScreen
from companion.tui.common.presence import Presence
from companion.tui.common.qr import qr_lines
from companion.tui.dilemma.flood import burst_news, bursts
from companion.tui.dilemma.flows import BAD_SECONDS, NO_ROUND, OVER, RoomMoves, dialog_keys
from companion.tui.dilemma.room import RoomScreen, RoomShown
from companion.tui.dilemma.screens import KeysScreen
from companion.tui.dilemma.state import RoomState, final_screen
from companion.tui.dilemma.timing import RoundClock

__all__ = ["BAD_SECONDS", "KEY_HELP", "NO_ROUND", "OVER", "DilemmaApp", "dialog_keys"]


BURST_LOOK_SECONDS = 0.3  # a burst is looked for this long after a join (the joins batched)
PROBLEM_WIDTH = 46  # a problem in the room's column (at most 50 wide, padding 1 a side)

KEY_HELP = {
    "add_player": N_("Add a player who has no phone (they choose here, with h)"),
    "choose": N_("Choice: hand the laptop to a player, who chooses in private"),
    "next_round": N_("Next round: draw new pairs and start the next round"),
    "close_round": N_("Close round: reveal now; who has not chosen gives no answer"),
    "more_time": N_("30 s more for the open round (from now, if its time ran out)"),
    "rename": N_("Rename the player under the cursor"),
    "remove": N_("Remove the player under the cursor (asks first)"),
    "clear_flood": N_("Clear a flood: remove a device's players at once (u undoes it)"),
    "doors": N_("Close the doors (nobody can join), or open them again"),
    "bring_back": N_("Bring a removed player back"),
    "undo": N_("Undo the last change (asks first if the room saw it)"),
    "peek": N_("Peek at the choices after asking (in the log), or hide them"),
    "finish": N_("Finish the tournament after this round"),
    "round_time": N_("Timer: seconds per round, from the next round"),
    "house": N_("House player: the strategy in the empty seat"),
    "results": N_("Results: leaderboard, silence per round and why"),
    "toggle_qr": N_("Show or hide the room's QR code (the join address stays shown)"),
    "poster": N_("Print QR: save the room's QR code as a one-page PDF poster"),
    "network_check": N_("Network test: will the players' phones reach this laptop?"),
    "phone": N_("The game master's phone: its link as a QR code"),
    "keys": N_("This list of keys"),
    "quit_asking": N_("Quit (the tournament is saved; reopen it with the same command)"),
}
PHONE_ALONE = N_(
    "The game master's phone needs the night's server, and this console holds the "
    "tournament alone; open it again without --no-phones."
)
NO_PHONES = N_(
    "No phone server (--no-phones). Add players with a; each chooses in private here with h."
)
APP_TITLE = N_("companion: the dilemma warm-up")


class DilemmaApp(GameConsole):
    CSS_PATH = "dilemma.tcss"
    TITLE = APP_TITLE
    # The room is drawn again at most this often after phones' changes (a hall's burst of
    # choices is hundreds a second; the console need not draw each).
    REDRAW_SECONDS = 0.2

    def __init__(
        self,
        session: DilemmaSession,
        *,
        poster: Callable[[str], str] | None = None,
        seed: Callable[[], int] = lambda: secrets.randbelow(2**63),
        lang: Language | None = None,
        network: NetworkCheck | None = None,
        links: tuple[str, str] | None = None,
    ) -> None:
        """``links``: the room's join and board links, when no night's server tells them (a
        server in this process)."""
        super().__init__(lang=lang or console_language())
        self.room_links = links
        self.network = network
        _ = self.lang
        self.title = _(APP_TITLE)
        self.session = session
        self.poster = poster
        self.seed = seed
        starting = (
            _("Starting the phone server…")
            if isinstance(session, AttachedSession) or links is not None
            else ""
        )
        self.room_state = RoomState(
            session, qr=starting or textwrap.fill(_(NO_PHONES), PROBLEM_WIDTH)
        )
        self.room = RoomScreen(self.room_state)
        self._status_pending = False  # a status line is due after a choice (_status_due)
        self._burst_pending = False  # the joins are to be looked at for a burst (_burst_due)
        self._bursts: dict[str, int] = {}  # each burst told of: its size when told
        self.moves = RoomMoves(self)  # the keys that open a dialog (flows.py)
        self.round_timer = RoundClock(self)  # the round timer (timing.py)

    @property
    def join_url(self) -> str | None:
        return self.room_state.join_url

    @property
    def presence(self) -> Presence:
        return self.room_state.presence

    # ---- the room and its links ---------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        return self.room

    def on_mount(self) -> None:
        self.sub_title = visible(self.session.name)

    @on(RoomShown)
    def _start(self) -> None:
        """Once the room is on screen: the time given back to a round whose time ran out
        while the console was closed (asked before anything is written), then follow the
        session, start the timer and the phone server."""
        self.round_timer.offer_time_back()
        self.follow_session(self.session)
        served = self.served
        links = self.room_links
        if served is not None and "join" in served.link.links:
            links = (served.link.links["join"], served.link.links["board"])
        if links is not None:
            join, board = links

            async def show() -> None:  # once the room's first layout is done
                self.show_room(join, board)

            self.run_worker(show(), name="room links")
        self.refresh_view()
        self.set_interval(1.0, self.round_timer.tick, name="round timer")

    def show_room(self, join_url: str, board_url: str) -> None:
        """The room's links, once its night's server listens."""
        lines = qr_lines(join_url)
        self.room_state.join_url, self.room_state.board_url = join_url, board_url
        self.room_state.qr, self.room_state.qr_columns = "\n".join(lines), len(lines[0])
        self.room.show_qr()
        self.refresh_view()

    def night_changed(self, news: str) -> None:
        """While the night's server is not answering, the room's column says so."""
        _ = self.lang
        if news == "lost":
            said = _("The night's server is not answering; it is being started again.")
            self.room_state.qr = textwrap.fill(said, PROBLEM_WIDTH)
            self.room.show_qr()
        elif news == "back":
            served = self.served
            if served is not None and "join" in served.link.links:
                self.show_room(served.link.links["join"], served.link.links["board"])
        super().night_changed(news)

    def under_way(self) -> bool:
        return self.view()["phase"] in ("choosing", "revealed")

    def reopen(self) -> str:
        return f"companion dilemma {self.session.name}"

    def session_changed(self, change: Change) -> None:
        """A change from a phone: a reveal, a round drawn, an undo at once; a choice, a join
        or a phone through the throttle."""
        row = change.row
        if change.kind == "note" and row is not None and row.body.get("what") == "bad_tokens":
            return  # one notice (WrongLinks), nothing to draw
        entry = change.entry
        if entry is not None and not all(isinstance(e, (Chose, Joined)) for e in entry.events):
            self.refresh_screens()
            return
        if entry is not None and any(isinstance(e, Chose) for e in entry.events):
            self._status_due()
        if entry is not None and any(isinstance(e, Joined) for e in entry.events):
            self._burst_due()
        super().session_changed(change)

    def _burst_due(self) -> None:
        """A player joined: the joins are looked at for a burst a moment later (once for all
        the joins of that moment), and the game master told of one as it happens."""
        if self._burst_pending:
            return
        self._burst_pending = True
        self.set_timer(BURST_LOOK_SECONDS, self._look_for_bursts)

    def _look_for_bursts(self) -> None:
        self._burst_pending = False
        if self.return_code is not None:
            return
        for group in bursts(self.view()["roster"], self.room_state.origins()):
            told = self._bursts.get(group.key, 0)
            if len(group.pids) >= 2 * told:  # new, or twice as large as when told
                self._bursts[group.key] = len(group.pids)
                self.notify(burst_news(self.lang, group), severity="warning", timeout=20)

    def _status_due(self) -> None:
        """A choice came in (the phone already reads "Saved"): the status line (who has
        chosen, who is waiting) is drawn again on this notification, not after the throttle;
        the choices queued in the same turn of the loop share one drawing."""
        if self._status_pending:
            return
        self._status_pending = True
        self.call_later(self._draw_status)

    def _draw_status(self) -> None:
        self._status_pending = False
        if self.room.is_mounted and self.room.is_attached and self.return_code is None:
            self.room.refresh_status()

    # ---- changing the tournament ---------------------------------------------------------

    def view(self) -> GmView:
        return self.room_state.view()

    def refresh_view(self) -> None:
        self.room.refresh_view()

    def submit(self, command: DilemmaCommand) -> bool:
        done = attempt(lambda: self.session.submit(command, by="gm"))
        if isinstance(done, NotDone):
            wait = 10 if done.unrecorded else 8
            self.notify(done.said(self.lang), severity="error", timeout=wait)
            return False
        self.refresh_view()
        return True

    def refusal(self, command: DilemmaCommand) -> str | None:
        """What the rules would say against ``command`` now, without recording it."""
        decided = DILEMMA.decide(self.session.state, command)
        return self.lang.refused(decided) if isinstance(decided, Refused) else None

    def action_next_round(self) -> None:
        _ = self.lang
        seconds = self.room_state.round_seconds()
        if self.submit(StartRound(seed=self.seed())):
            number = self.view()["round"]
            if seconds:  # the deadline in the log: a resumed console counts to the same moment
                deadline = time.time() + seconds
                self.session.stage(StartTimer(number, seconds, deadline))
                self.refresh_view()
                self.notify(
                    _(
                        "Round %(round)s has started: %(seconds)s s to choose.",
                        round=number,
                        seconds=seconds,
                    )
                )
            else:
                self.notify(_("Round %(round)s has started.", round=number))

    def action_doors(self) -> None:
        _ = self.lang
        if self.view()["doors_closed"]:
            if self.submit(OpenDoors()):
                self.notify(_("The doors are open: players can join again."))
        elif self.submit(CloseDoors()):
            self.notify(_("The doors are closed: nobody can join; d opens them."))

    def action_bring_back(self) -> None:
        _ = self.lang
        row = self.room.selected()
        if row is not None and self.submit(BringBack(pid=row["pid"])):
            self.notify(_("%(name)s is back in the tournament.", name=row["name"]))

    def action_results(self) -> None:
        _ = self.lang
        v = self.view()
        if v["phase"] != "over":
            self.notify(_("The results come after the last round (f finishes early)."))
            return
        self.push_screen(final_screen(self.room_state, self.lang))

    def action_toggle_qr(self) -> None:
        self.room_state.qr_choice = not self.room_state.qr_shown(self.room.narrow())
        self.refresh_view()

    def action_keys(self) -> None:
        _ = self.lang
        rows = []
        for binding in RoomScreen.BINDINGS:
            assert isinstance(binding, Binding)
            keys = " ".join(self.get_key_display(b) for b in Binding.make_bindings([binding]))
            rows.append((keys, _(KEY_HELP[binding.action.removeprefix("app.")])))
        self.push_screen(KeysScreen(_("The room's keys"), rows))

    def action_network_check(self) -> None:
        if self.network is None:
            self.notify(self.lang("The network test is not available here."), severity="warning")
            return
        self.push_screen(NetworkCheckScreen(self.network))

    def action_phone(self) -> None:
        """``g``: the game master's phone's link as a QR code (a new one on demand)."""
        self.push_screen(PhoneScreen(self.session, PHONE_ALONE))

    def action_poster(self) -> None:
        _ = self.lang
        if self.poster is None or self.room_state.join_url is None:
            self.notify(_("The room's address is not known yet."), severity="warning")
            return
        try:
            path = self.poster(self.room_state.join_url)
        except Exception as error:  # noqa: BLE001 - a printing problem must not stop the game
            self.notify(
                _("The poster could not be written: %(error)s", error=error),
                severity="error",
            )
            return
        self.notify(
            _("Room QR poster saved to %(path)s; print it and put it up.", path=path),
            timeout=10,
        )

    # ---- the keys that open a dialog (flows of .flows, each in a worker) and the timer ---

    @work(group="flow")
    async def action_round_time(self) -> None:
        await self.moves.round_time()

    @work(group="flow")
    async def action_house(self) -> None:
        await self.moves.house()

    @work(group="flow")
    async def action_add_player(self) -> None:
        await self.moves.add_player()

    @work(group="flow")
    async def action_choose(self) -> None:
        await self.moves.choose()

    @work(group="flow")
    async def action_close_round(self) -> None:
        await self.moves.close_round()

    @work(group="flow")
    async def action_rename(self) -> None:
        await self.moves.rename()

    @work(group="flow")
    async def action_remove(self) -> None:
        await self.moves.remove()

    @work(group="flow")
    async def action_clear_flood(self) -> None:
        await self.moves.clear_flood()

    @work(group="flow")
    async def action_undo(self) -> None:
        await self.moves.undo()

    @work(group="flow")
    async def action_peek(self) -> None:
        await self.moves.peek()

    @work(group="flow")
    async def action_finish(self) -> None:
        await self.moves.finish()

    @work(group="flow")
    async def ask_time_back(self, hold: HoldTimer) -> None:
        await self.round_timer.ask_time_back(hold)

    def action_more_time(self) -> None:
        self.round_timer.more_time()
