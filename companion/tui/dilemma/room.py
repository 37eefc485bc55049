"""The room: the screen the dilemma console plays on. The room's QR code and links, the status,
the roster (who faces whom, who has chosen; what, only while the game master peeks), the last
round and the leaderboard. It draws itself from a :class:`RoomState`."""

from __future__ import annotations

import time

from textual import on
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header

from companion.language import Language
from companion.tui.common.follow import PhonesSeen, Redraw
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.panel import Panel
from companion.tui.dilemma.flood import time_of_day
from companion.tui.dilemma.keys import room_footer
from companion.tui.dilemma.roster import Roster, roster_shown
from companion.tui.dilemma.state import RoomState, final_screen
from companion.tui.dilemma.words import (
    View,
    last_round,
    leaders,
    waiting_sentence,
    waiting_text,
)

__all__ = ["RoomScreen", "RoomShown", "phase_words"]


def phase_words(lang: Language, v: View) -> str:
    """The status's first sentence: where the tournament stands and what to press."""
    _ = lang
    phase = v["phase"]
    if phase == "lobby":
        return _("Players are joining. Press n to start round 1 when everyone is in.")
    if phase == "choosing":
        return lang.n_(
            "Round %(round)s of %(rounds)s: %(count)s of %(total)s has chosen.",
            "Round %(round)s of %(rounds)s: %(count)s of %(total)s have chosen.",
            v["chosen_count"],
            round=v["round"],
            rounds=v["rounds"],
            total=lang.number(v["to_choose"]),
        )
    if phase == "revealed":
        return _(
            "Round %(round)s of %(rounds)s is revealed. Press n for the next round.",
            round=v["round"],
            rounds=v["rounds"],
        )
    return _("The tournament is over. Press r for the results.")


# Below this width the room's QR code and the side panel take turns; below this height the
# side panel lists fewer pairs and names.
NARROW_WIDTH = 110
SHORT_HEIGHT = 30
SIDE_WIDE, SIDE_NARROW = 36, 33  # the side panel's width, as in dilemma.tcss


class RoomShown(Message):
    """The room is on screen: the console may follow the session and show its links."""


class RoomScreen(Screen[None]):
    """The room: QR code and links, status, roster, last round and leaderboard."""

    BINDINGS = [
        Binding("n", "app.next_round", "Next round"),
        Binding("c", "app.close_round", "Close round"),
        Binding("plus", "app.more_time", "30 s more"),
        Binding("h", "app.choose", "Choice"),
        Binding("a", "app.add_player", "Add player"),
        Binding("e", "app.rename", "Rename"),
        Binding("x", "app.remove", "Remove"),
        Binding("X", "app.clear_flood", "Clear flood"),
        Binding("d", "app.doors", "Close doors"),
        Binding("b", "app.bring_back", "Bring back"),
        Binding("u", "app.undo", "Undo"),
        Binding("v", "app.peek", "Peek"),
        Binding("f", "app.finish", "Finish"),
        Binding("t", "app.round_time", "Timer"),
        Binding("o", "app.house", "House"),
        Binding("r", "app.results", "Results"),
        Binding("s", "app.toggle_qr", "QR code"),
        Binding("p", "app.poster", "Print QR"),
        Binding("i", "app.network_check", "Network test"),
        Binding("g", "app.phone", "GM phone"),
        Binding("question_mark,f1", "app.keys", "Keys"),
        Binding("q", "app.quit_asking", "Quit"),
    ]

    def __init__(self, room: RoomState) -> None:
        super().__init__()
        self.room = room

    def compose(self) -> ComposeResult:
        yield Header()
        yield Panel(id="status")
        with Horizontal(id="main"):
            with Vertical(id="room"):
                yield Panel(self.room.qr, id="qr")
                yield Panel(id="links")
            with Vertical(id="roster-column"):
                yield Roster(id="roster", cursor_type="row", zebra_stripes=True)
                yield Panel(id="origin")
            with VerticalScroll(id="side"):
                yield Panel(id="last")
                yield Panel(id="leaders")
        yield Keys(compact=True, id="room-footer")

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        v = self.room.view()
        qr_shown = self.room.qr_shown(self.narrow())
        return room_footer(
            super().active_bindings,
            v["phase"],
            qr_shown,
            self.app.size.width,
            self.app.get_key_display,
            words(self),
            doors_closed=v["doors_closed"],
            timed=self.room.timer() is not None or self.room.timer_off(),
        )

    def on_data_table_row_highlighted(self, event: Roster.RowHighlighted) -> None:
        self._show_origin(event.row_key.value)

    def _show_origin(self, pid: str | None) -> None:
        """Under the roster: where and when the player under the cursor joined (the game
        master's alone; nothing for a player added at the console)."""
        line = self.query_one("#origin", Panel)
        origin = self.room.origins().get(pid or "")
        player = self.room.session.state.player(pid or "")
        if origin is None or origin.address is None or player is None:
            line.display = False
            return
        _ = words(self)
        line.text = _(
            "%(name)s joined from %(address)s at %(time)s.",
            name=player.name,
            address=origin.address,
            time=time_of_day(origin.joined),
        )
        line.display = True

    def on_mount(self) -> None:
        self.query_one(Roster).focus()
        self.post_message(RoomShown())

    def on_resize(self) -> None:
        if self.app.is_running:
            self.refresh_view()

    @on(Redraw)
    def _redraw(self) -> None:
        self.redraw()

    @on(PhonesSeen)
    def _phones_seen(self) -> None:
        self.redraw(roster=True)

    def redraw(self, *, roster: bool = False) -> None:
        """Draw the room again (``roster``: only the roster, a phone came or went), from the
        one redraw throttle. One that comes due as the console closes draws nothing: the
        room's widgets are already gone."""
        try:
            if roster:
                self.refresh_roster()
            else:
                self.refresh_view()
        except NoMatches:
            if self.is_attached and self.app.return_code is None:
                raise

    def narrow(self) -> bool:
        return self.app.size.width < NARROW_WIDTH

    def short(self) -> bool:
        return self.app.size.height < SHORT_HEIGHT

    def show_qr(self) -> None:
        """Show the room's QR code (or what stands in its place) as it is now."""
        self.query_one("#qr", Panel).text = self.room.qr

    def refresh_view(self) -> None:
        v = self.room.view()
        narrow, short = self.narrow(), self.short()
        qr = self.room.qr_shown(narrow)
        self.set_class(narrow, "-narrow")
        self.set_class(short, "-short")
        self.query_one("#room").display = qr
        self.query_one("#side").display = qr is False or not narrow
        self.query_one("#status", Panel).text = self._status(v, qr)
        self.query_one("#links", Panel).text = self._links(short)
        self._fill_roster(v, self._roster_width(qr, narrow))
        self._show_origin(self.query_one(Roster).cursor_pid())
        pairs, names = (4, 8) if short else (12, 20)
        _ = words(self)
        self.query_one("#last", Panel).text = last_round(_, v, pairs, 15 if narrow else 18)
        self.query_one("#leaders", Panel).text = leaders(_, v, names, 16 if narrow else 18)
        self.refresh_bindings()
        if v["phase"] == "over" and not self.room.shown_final:
            self.room.shown_final = True
            self.app.push_screen(final_screen(self.room, _))

    def refresh_roster(self) -> None:
        """Draw the roster again (a phone came or went: nothing else changed)."""
        narrow = self.narrow()
        self._fill_roster(self.room.view(), self._roster_width(self.room.qr_shown(narrow), narrow))

    def refresh_status(self) -> None:
        """Only the status line again (the round's countdown ticks)."""
        status = self._status(self.room.view(), self.room.qr_shown(self.narrow()))
        self.query_one("#status", Panel).text = status

    def _status(self, v: View, qr: bool) -> str:
        _ = words(self)
        said = phase_words(_, v)
        timer = self.room.timer()
        if timer is not None:
            whole = int(-(-timer.left(time.time()) // 1))
            said = _("[%(time)s left]", time=f"{whole // 60}:{whole % 60:02d}") + " " + said
        elif v["phase"] == "choosing" and self.room.timer_off():
            said += " " + _("Its timer is off: c closes the round.")
        elif v["phase"] in ("lobby", "revealed") and (seconds := self.room.round_seconds()):
            said += " " + _("Rounds last %(seconds)s s (t changes it).", seconds=seconds)
        said += " " + _.n_(
            "%(count)s player in the tournament.",
            "%(count)s players in the tournament.",
            len(v["players"]),
        )
        if v["phase"] == "choosing" and v["waiting"]:
            shown = waiting_text(_, v["waiting"], 2 * (self.app.size.width - 2))
            said += "\n" + waiting_sentence(_, shown)
        if v["doors_closed"] and v["phase"] != "over":
            said += "\n" + _("The doors are closed: nobody can join (d opens them).")
        if self.room.peeking:
            said += "\n" + _("PEEKING: choices are on screen. Press v to hide them.")
        if not qr and self.room.join_url is not None:
            said += "\n" + _("Join at %(url)s (s shows the QR code).", url=self.room.join_url)
        return said

    def _links(self, short: bool) -> str:
        if self.room.join_url is None:
            return ""
        _ = words(self)
        text = _("Scan to join, or open") + "\n" + self.room.join_url
        if not short and self.room.board_url is not None:
            text += "\n\n" + _("Board for a projector:") + "\n" + self.room.board_url
        return text

    def _roster_width(self, qr: bool, narrow: bool) -> int:
        """Columns left for the roster beside the room's column and the side panel (as the
        stylesheet sizes them)."""
        width = self.app.size.width
        if qr:
            # The QR code, or the sentence in its place (no phone server), and the links.
            sentence = max(map(len, self.room.qr.splitlines()), default=0)
            shown = [self.room.qr_columns, sentence, len(self.room.join_url or ""), 30]
            width -= min(50, max(shown) + 3)
        if not (qr and narrow):
            width -= SIDE_NARROW if narrow else SIDE_WIDE
        return width - 1  # the scroll bar

    def _fill_roster(self, v: View, width: int) -> None:
        self.query_one(Roster).shown = roster_shown(words(self), self.room, v, width)

    def selected(self, *, quiet: bool = False) -> View | None:
        """The roster's row under the cursor (None, and a warning unless ``quiet``, when
        nobody joined)."""
        _ = words(self)
        pid = self.query_one(Roster).cursor_pid()
        if pid is None:
            if not quiet:
                self.notify(_("Nobody has joined yet."), severity="warning")
            return None
        row: View = next(r for r in self.room.view()["roster"] if r["pid"] == pid)
        return row
