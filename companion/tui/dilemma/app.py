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
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import SystemCommand
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.screen import Screen

from companion.language import N_, Language
from companion.rules.core.game import Refused
from companion.rules.dilemma.commands import (
    BringBack,
    Choose,
    CloseDoors,
    CloseRound,
    DilemmaCommand,
    Finish,
    Join,
    OpenDoors,
    Remove,
    RemoveMany,
    Rename,
    SetHouse,
    StartRound,
)
from companion.rules.dilemma.engine import DILEMMA
from companion.rules.dilemma.events import Chose, Joined
from companion.rules.dilemma.room import SetRoundSeconds, StartTimer
from companion.rules.dilemma.seen import seen_by_the_room
from companion.rules.dilemma.strategies import NAMES
from companion.session.dilemma.seats import forget, new_seat
from companion.session.heap import freeze_survivors
from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen, PickScreen, TextScreen
from companion.tui.common.follow import SessionChanged, follow
from companion.tui.common.guesses import WrongLinks
from companion.tui.common.language import console_language, translated_commands
from companion.tui.common.literal import LiteralNotices, fill, visible
from companion.tui.common.moves import NotDone, attempt
from companion.tui.common.presence import heard
from companion.tui.common.qr import qr_lines
from companion.tui.common.quitting import quit_asking
from companion.tui.common.services import StartedServices, Stopper
from companion.tui.dilemma.choice import ChoiceScreen
from companion.tui.dilemma.flood import flood_groups, group_line, removed_words
from companion.tui.dilemma.room import RoomScreen, RoomShown, RoomState, final_screen
from companion.tui.dilemma.screens import KeysScreen
from companion.tui.dilemma.words import (
    View,
    doing_word,
    house_name,
    shown_name,
    strategy_how,
    strategy_name,
)

Service = Callable[["DilemmaApp"], Awaitable[Stopper]]

REDRAW = 0.2  # seconds: the room is drawn again at most this often after phones' changes
PROBLEM_WIDTH = 46  # a problem in the room's column (at most 50 wide, padding 1 a side)

KEY_HELP = {
    "add_player": N_("Add a player who has no phone (they choose here, with h)"),
    "choose": N_("Choice: hand the laptop to a player, who chooses in private"),
    "next_round": N_("Next round: draw new pairs and start the next round"),
    "close_round": N_("Close round: reveal now; who has not chosen gives no answer"),
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
    "keys": N_("This list of keys"),
    "quit_asking": N_("Quit (the tournament is saved; reopen it with the same command)"),
}
OVER = N_("The tournament is over; r shows the results.")
NO_ROUND = N_("No round is open; n starts the next one.")
NO_PHONES = N_(
    "No phone server (--no-phones). Add players with a; each chooses in private here with h."
)
APP_TITLE = N_("companion: the dilemma warm-up")
BAD_SECONDS = N_("Type whole seconds from 10 to 3600, or 0 for no timer.")


def dialog_keys(lang: Language, enter: str) -> Text:
    """``Enter save   Esc cancel`` with ``enter`` (translated) for Enter: markup around the
    words, not in the messages."""
    _ = lang
    return fill("[b]Enter[/b] %(enter)s   [b]Esc[/b] %(cancel)s", enter=enter, cancel=_("cancel"))


class DilemmaApp(LiteralNotices[None]):
    CSS_PATH = "dilemma.tcss"
    TITLE = APP_TITLE

    def __init__(
        self,
        session: Session,
        *,
        services: Iterable[Service] = (),
        poster: Callable[[str], str] | None = None,
        seed: Callable[[], int] = lambda: secrets.randbelow(2**63),
        lang: Language | None = None,
    ) -> None:
        super().__init__()
        self.lang = _ = lang or console_language()
        self.title = _(APP_TITLE)
        self.session = session
        self.services = list(services)
        self.poster = poster
        self.seed = seed
        starting = _("Starting the phone server…") if self.services else ""
        self.room_state = RoomState(
            session, qr=starting or textwrap.fill(_(NO_PHONES), PROBLEM_WIDTH)
        )
        self.room = RoomScreen(self.room_state)
        self._started_services = StartedServices()
        self._unfollow: Callable[[], None] | None = None
        self._redraw_due = self._redraw_view = self._redraw_roster = False
        self.wrong_links = WrongLinks(self, lambda: self.lang)

    @property
    def join_url(self) -> str | None:
        return self.room_state.join_url

    def view(self) -> View:
        return self.room_state.view()

    # ---- the room and its services ------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from translated_commands(super().get_system_commands(screen), self.lang)

    def get_default_screen(self) -> Screen[Any]:
        return self.room

    def on_mount(self) -> None:
        self.sub_title = visible(self.session.name)

    @on(RoomShown)
    def _start(self) -> None:
        """Once the room is on screen: follow the session, start the phone server."""
        self._unfollow = follow(self, self.session)
        self.refresh_view()
        self.set_interval(1.0, self._tick, name="round timer")
        if self.services:
            self.run_worker(self._start_services(), name="services", exit_on_error=False)

    def show_room(self, join_url: str, board_url: str) -> None:
        """Called by the phone-server starter once it listens."""
        lines = qr_lines(join_url)
        self.room_state.join_url, self.room_state.board_url = join_url, board_url
        self.room_state.qr, self.room_state.qr_columns = "\n".join(lines), len(lines[0])
        self.room.show_qr()
        self.refresh_view()

    async def _start_services(self) -> None:
        def failed(error: Exception) -> None:  # the console works without phones
            # Wrapped here: the room column sizes itself to its longest line (at most 50
            # columns with its padding), and the toast below soon goes.
            _ = self.lang
            said = _("No phone server: %(error)s", error=error)
            self.room_state.qr = textwrap.fill(said, PROBLEM_WIDTH)
            self.room.show_qr()
            self.notify(
                _("The phone server could not start (%(error)s).", error=error), severity="error"
            )

        await self._started_services.start(self.services, self, failed)

    async def action_quit(self) -> None:
        await self._started_services.stop()
        if self._unfollow is not None:
            self._unfollow()
            self._unfollow = None
        self.exit()

    async def action_quit_asking(self) -> None:
        """q: asks first while a round is under way (the phones and the board lose it)."""
        under_way = self.view()["phase"] in ("choosing", "revealed")
        reopen = f"companion dilemma {self.session.name}"
        await quit_asking(self, under_way=under_way, reopen=reopen)

    async def on_unmount(self) -> None:
        await self._started_services.stop()

    def on_session_changed(self, message: SessionChanged) -> None:
        """A change from a phone: drawn at most every ``REDRAW`` seconds, so that a hall's
        burst of choices does not hold up the phone server, which shares this loop."""
        change = message.change
        row = change.row
        if change.kind == "note" and row is not None and row.body.get("what") == "bad_tokens":
            self.wrong_links.heard(row.body)
            return
        if heard(self.room_state.presence, change.signal) is not None:
            self._redraw_roster = True  # only a phone came or went
        elif change.entry is not None and not all(
            isinstance(event, (Chose, Joined)) for event in change.entry.events
        ):
            self.refresh_view()  # a reveal, a round drawn, an undo: at once
            # What exists now (the log's states, the roster's cells) mostly lives on; kept out
            # of the collector's full passes, which otherwise grew to ~250 ms with a hall's
            # states and stalled the phone server sharing this loop in mid-round.
            freeze_survivors()
            return
        else:
            self._redraw_view = True
        if not self._redraw_due:
            self._redraw_due = True
            self.set_timer(REDRAW, self._redraw)

    def _redraw(self) -> None:
        self._redraw_due = False
        view, roster = self._redraw_view, self._redraw_roster
        self._redraw_view = self._redraw_roster = False
        try:
            if view:
                self.refresh_view()
            elif roster:
                self.room.refresh_roster()
        except NoMatches:
            # The timer came due as the console closes: the room's widgets are already gone
            # and there is nothing left to draw on.
            if self.room.is_attached and not self._exit:
                raise

    def refresh_view(self) -> None:
        self.room.refresh_view()

    def _tick(self) -> None:
        """Each second while a round with a timer is open: the countdown, and at zero the
        round closes (also at once after a resume, if its time ran out meanwhile)."""
        _ = self.lang
        timer = self.room_state.timer()
        if timer is None:
            return
        if timer.left(time.time()) > 0:
            self.room.refresh_status()
            return
        close = CloseRound(timed_out=True)
        done = attempt(lambda: self.session.submit(close, by="timer"))
        if not isinstance(done, NotDone):
            self.notify(_("Time is up: round %(round)s is revealed.", round=timer.round))
        self.refresh_view()

    # ---- changing the tournament --------------------------------------------------------

    def submit(self, command: DilemmaCommand) -> bool:
        done = attempt(lambda: self.session.submit(command, by="gm"))
        if isinstance(done, NotDone):
            wait = 10 if done.unrecorded else 8
            self.notify(done.said(self.lang), severity="error", timeout=wait)
            return False
        self.refresh_view()
        return True

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

    @work(group="flow")
    async def action_round_time(self) -> None:
        _ = self.lang
        now = self.room_state.round_seconds()
        typed = await self.push_screen_wait(
            TextScreen(
                _("Seconds per round"),
                _(
                    "From the next round; at zero the round closes and who has not chosen gives "
                    "no answer. 0 or empty: no timer."
                ),
                str(now or ""),
                check=lambda text: _(problem) if (problem := _seconds_problem(text)) else None,
                max_length=4,
                keys=dialog_keys(_, _("save")),
            )
        )
        if typed is None:
            return
        seconds = int(typed.strip() or "0")
        self.session.stage(SetRoundSeconds(seconds))
        if seconds:
            said = _("Rounds now last %(seconds)s s from the next one.", seconds=seconds)
        else:
            said = _("No round timer.")
        self.notify(said)
        self.refresh_view()

    @work(group="flow")
    async def action_house(self) -> None:
        _ = self.lang
        state = self.session.state
        options: list[tuple[str, str]] = [
            (key, f"{strategy_name(_, key)}: {strategy_how(_, key)}") for key in NAMES
        ]
        first = next(i for i, (key, _label) in enumerate(options) if key == state.house)
        strategy = await self.push_screen_wait(
            PickScreen(
                _("The house player"),
                options,
                _("It fills the empty seat on an odd count; never ranked."),
                first,
            )
        )
        chosen = next((key for key in NAMES if key == strategy), None)
        if chosen is not None and self.submit(SetHouse(strategy=chosen)):
            name = house_name(_, self.view())
            self.notify(_("The house player is now %(name)s.", name=name))

    def refusal(self, command: DilemmaCommand) -> str | None:
        """What the rules would say against ``command`` now, without recording it."""
        decided = DILEMMA.decide(self.session.state, command)
        return self.lang.refused(decided) if isinstance(decided, Refused) else None

    @work(group="flow")
    async def action_add_player(self) -> None:
        _ = self.lang
        if self.view()["phase"] == "over":
            self.notify(_(OVER), severity="warning")
            return
        typed = await self.push_screen_wait(
            TextScreen(
                _("Add a player"),
                _("Their name, as the room will see it. They choose here, in private, with h."),
                check=lambda text: self.refusal(Join(pid="new", name=" ".join(text.split()))),
                max_length=40,
                keys=dialog_keys(_, _("add")),
            )
        )
        if typed is None:
            return
        name = " ".join(typed.split())
        pid, token = new_seat(self.session)  # a pid as a phone's join has one
        if self.submit(Join(pid=pid, name=name)):
            self.notify(_("%(name)s has joined; h enters their choice in private.", name=name))
        else:
            forget(self.session, token)

    @work(group="flow")
    async def action_choose(self) -> None:
        _ = self.lang
        v = self.view()
        if v["phase"] != "choosing":
            closed = OVER if v["phase"] == "over" else NO_ROUND
            self.notify(_(closed), severity="warning")
            return
        rows = [r for r in v["roster"] if r["doing"] in ("choosing", "chosen")]
        chosen, waiting_word = doing_word(_, "chosen"), _("waiting")
        options = [
            (r["pid"], f"{r['name']}  ({chosen if r['doing'] == 'chosen' else waiting_word})")
            for r in rows
        ]
        under = self.room.selected(quiet=True)  # the player under the cursor, if waiting
        waiting = [r["pid"] for r in rows if r["doing"] == "choosing"]
        start = under["pid"] if under and under["pid"] in waiting else (waiting or [None])[0]
        first = next((i for i, r in enumerate(rows) if r["pid"] == start), 0)
        pid = await self.push_screen_wait(
            PickScreen(_("Whose choice?"), options, _("The next screen is private."), first)
        )
        row = next((r for r in rows if r["pid"] == pid), None)
        if row is None or row["facing"] is None:
            return
        choice = await self.push_screen_wait(
            ChoiceScreen(row["name"], shown_name(_, v, row["facing"]), v["round"], v["sentences"])
        )
        if choice is not None and self.submit(Choose(pid=row["pid"], choice=choice)):
            self.notify(_("%(name)s's choice is recorded and sealed.", name=row["name"]))

    @work(group="flow")
    async def action_close_round(self) -> None:
        _ = self.lang
        v = self.view()
        if v["phase"] == "choosing" and v["waiting"]:
            rule = _("silent") if v["sentences"]["no_answer"] == "silent" else _("betraying")
            question = _.n_(
                "%(count)s player has not chosen: no answer, served as %(served)s.",
                "%(count)s players have not chosen: no answer, served as %(served)s.",
                len(v["waiting"]),
                served=rule,
            )
            if not await self.push_screen_wait(
                ConfirmScreen(_("Close the round now?"), question, _("Yes"))
            ):
                return
        self.submit(CloseRound())

    @work(group="flow")
    async def action_rename(self) -> None:
        row = self.room.selected()
        if row is None:
            return
        _ = self.lang
        typed = await self.push_screen_wait(
            TextScreen(
                _("Rename %(name)s", name=row["name"]),
                "",
                row["name"],
                max_length=40,
                problems=False,
                keys=dialog_keys(_, _("save")),
            )
        )
        name = " ".join(typed.split()) if typed is not None else None
        if name and self.submit(Rename(pid=row["pid"], name=name)):
            self.notify(_("%(old)s is now %(new)s.", old=row["name"], new=name))

    @work(group="flow")
    async def action_remove(self) -> None:
        row = self.room.selected()
        if row is None:
            return
        _ = self.lang
        name = row["name"]
        if not row["present"]:
            self.notify(_("%(name)s has already left (b brings them back).", name=name))
            return
        question = _("%(name)s sits out every round from now on; b brings them back.", name=name)
        if row["facing"] and not row["facing_house"]:
            question += " " + _(
                "The house player takes their seat against %(name)s.", name=row["facing"]
            )
        if not await self.push_screen_wait(
            ConfirmScreen(_("Remove %(name)s?", name=name), question, _("Remove"))
        ):
            return
        if self.submit(Remove(pid=row["pid"])):
            self.notify(_("%(name)s has left the tournament (b brings them back).", name=name))

    @work(group="flow")
    async def action_clear_flood(self) -> None:
        """Remove one group of players (from one device address, or who joined in the last
        minutes) in one step, after one confirmation; one undo brings them all back."""
        _ = self.lang
        v = self.view()
        if v["phase"] == "over":
            self.notify(_(OVER), severity="warning")
            return
        groups = flood_groups(v["roster"], self.room_state.origins(), time.time())
        if not groups:
            self.notify(
                _("No flood to clear: nobody still in joined from a phone just now, nor two "
                  "from one device."),
                severity="warning",
            )
            return
        options = [(group.key, group_line(_, group)) for group in groups]
        key = await self.push_screen_wait(
            PickScreen(
                _("Clear a flood of joins"),
                options,
                _("Pick the players to remove in one step; u brings them all back."),
            )
        )
        group = next((g for g in groups if g.key == key), None)
        if group is None:
            return
        count = len(group.pids)
        title = _.n_("Remove %(count)s player?", "Remove %(count)s players?", count)
        question = group_line(_, group) + "\n" + _(
            "They leave in one step; u brings them all back."
        )
        if v["phase"] == "choosing":
            question += " " + _("The house player takes the seats they leave in this round.")
        if not await self.push_screen_wait(ConfirmScreen(title, question, _("Remove"))):
            return
        if self.submit(RemoveMany(pids=list(group.pids))):
            self.notify(removed_words(_, group))

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

    @work(group="flow")
    async def action_undo(self) -> None:
        """Take back the last change; when the room has already seen it (a reveal, the end),
        say what it saw and ask first."""
        target = self.session.history.undo_target()
        if isinstance(target, Refused):
            self.notify(self.lang.refused(target), severity="warning")
            return
        _ = self.lang
        seen = seen_by_the_room(self.session.state, target.events)
        if seen is not None:
            title, what = _.say(seen.title), _.say(seen.words)
            question = _("The room has already seen %(what)s; undo anyway?", what=what)
            if seen.reopens is not None:
                question += " " + _(
                    "Round %(round)s opens again and the phones offer SILENT or BETRAY once more.",
                    round=seen.reopens,
                )
            if not await self.push_screen_wait(
                ConfirmScreen(_("Undo %(what)s?", what=title), question, _("Undo anyway"))
            ):
                self.notify(_("Nothing was undone."))
                return
        done = attempt(lambda: self.session.undo(by="gm", only=target.seq))
        if isinstance(done, NotDone):
            if done.unrecorded:
                self.notify(done.said(self.lang), severity="error", timeout=10)
                return
            self.notify(done.said(self.lang), severity="warning")
        else:
            # A round opened again has no timer: its deadline has passed, and the timer would
            # close it again at once; the game master closes it (the note is in the log).
            reopened = seen.reopens if seen is not None else None
            timer_off = reopened is not None and self.room_state.turn_timer_off(reopened)
            self.room_state.shown_final = self.view()["phase"] == "over"
            taken = _.say(seen.title) if seen is not None else _("the last change")
            self.notify(_("Undone: %(what)s is taken back (the log keeps it).", what=taken))
            if timer_off:
                self.notify(
                    _(
                        "Round %(round)s is open again; its timer is off: c closes it when "
                        "you decide.",
                        round=reopened,
                    )
                )
        self.refresh_view()

    @work(group="flow")
    async def action_peek(self) -> None:
        _ = self.lang
        if not self.room_state.peeking and not await self.push_screen_wait(
            ConfirmScreen(
                _("Show every secret choice?"),
                _(
                    "Make sure no player can see this screen, nor a projector showing it. "
                    "The peek is written in the log; v hides the choices again."
                ),
                _("Peek"),
            )
        ):
            return
        self.room_state.peeking = not self.room_state.peeking
        if self.room_state.peeking:
            self.session.note("peek", round=self.view()["round"])
        self.refresh_view()

    @work(group="flow")
    async def action_finish(self) -> None:
        _ = self.lang
        if await self.push_screen_wait(
            ConfirmScreen(
                _("Finish the tournament?"),
                _("No more rounds will be played."),
                _("Yes"),
            )
        ):
            self.submit(Finish())

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


def _seconds_problem(text: str) -> str | None:
    """What is wrong with a typed number of seconds per round, in one sentence (in English:
    the caller translates it)."""
    typed = text.strip()
    if not typed or typed == "0":
        return None
    if not typed.isdigit() or not 10 <= int(typed) <= 3600:
        return BAD_SECONDS
    return None
