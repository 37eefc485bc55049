"""The day, phase by phase: a banner with what to say and do, the stage's clock, the board and
the side panel, and only the legal actions in the footer. The screen draws and offers; its
moves are flows of :mod:`.day` (run here in workers) and its clock is :mod:`.clocks`."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from companion.rules.prison.epilogue import steps
from companion.rules.prison.views import gm, table
from companion.tui.common.follow import PhonesSeen, Redraw
from companion.tui.common.footer import Keys, fit_footer
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.prison.board import Board
from companion.tui.prison.clocks import CLOCK_ACTIONS, StageClock
from companion.tui.prison.context import Context, Show
from companion.tui.prison.day import DayMoves
from companion.tui.prison.epilogue import EpilogueScreen
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.side import fold, join_line, side_text
from companion.tui.prison.text import (
    View,
    banner,
    can_accuse,
    nights_bar,
    not_interviewed,
)

# Under this many columns the side panel is narrower (console.tcss: GameScreen.narrow).
NARROW = 100

# action -> phases in which it is offered
PHASE_ACTIONS = {
    "choose": ("planning",),
    "close_planning": ("planning",),
    "interview": ("interviews",),
    "search": ("interviews", "search"),
    "accuse": ("accusations",),
    "end_day": ("accusations",),
    "export": ("over",),
    "epilogue": ("over",),
}


def lines(text: str, widget: Static, width: int) -> int:
    """How many lines ``text`` takes in ``widget`` at ``width`` columns."""
    return Content(text).get_height(widget.styles, width)  # type: ignore[arg-type]


class GameScreen(Screen[None]):
    BINDINGS = [
        Binding("c", "choose", "Choice"),
        Binding("x", "close_planning", "Close planning"),
        Binding("i", "interview", "Interview"),
        Binding("s", "search", "Search"),
        Binding("a", "accuse", "Accuse"),
        Binding("e", "end_day", "End day"),
        Binding("o", "epilogue", "Epilogue"),
        Binding("r", "export", "Report"),
        Binding("t", "private", "Tokens"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_console", "Quit"),
        Binding("h", "history", "History"),
        Binding("w", "seats", "Seats"),
        Binding("p", "print", "Print"),
        Binding("l", "address", "Links"),
        Binding("g", "gm_phone", "GM phone"),
        Binding("b", "balance", "Balance"),
        Binding("m", "planning_limit", "Limit"),
        Binding("space", "pause_clock", "Pause"),
        Binding("plus,equals_sign", "extend_clock", "+1 min"),
    ]
    # Left out of a narrow footer, in this order (Help and the palette list them all).
    FOOTER_OPTIONAL = (
        "gm_phone",
        "balance",
        "address",
        "print",
        "seats",
        "history",
        "extend_clock",
        "planning_limit",
        "private",
    )
    # The private view (T): parole tokens and today's deals on screen, for a while.
    private = reactive(False, init=False)

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.ctx = ctx
        self.day = DayMoves(self, ctx)
        self.stage = StageClock(self, ctx, lambda: self.close_planning(time_up=True))
        self.private_until = 0.0
        self._private_timer: Timer | None = None
        self._texts: dict[str, str] = {}  # what each Static shows now
        self._offered: tuple[bool | None, ...] | None = None

    # ---- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="topbar", markup=False)
        yield Static("", id="phones-bar", markup=False)
        yield Static("", id="address-bar", markup=False)
        with Vertical(id="banner"):
            yield Static("", id="say", markup=False)
            yield Static("", id="do", markup=False)
        yield Static("", id="clock-bar", markup=False)
        with Horizontal(id="main"):
            yield Board(id="board")
            yield Static("", id="side", markup=False)
        yield Static("", id="join-bar", markup=False)
        yield Static("", id="private-bar", markup=False)
        yield Keys(compact=True)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return fit_footer(
            super().active_bindings,
            self.app.size.width,
            self.app.get_key_display,
            self.FOOTER_OPTIONAL,
            words(self),
        )

    def on_resize(self) -> None:
        self.set_class(self.app.size.width < NARROW, "narrow")
        self.refresh_bindings()
        # the side panel is folded to its new width once the layout has given it
        self.call_after_refresh(self.ctx.faults.guarded(self.refresh_side))

    def refresh_side(self) -> None:
        self._text("#side", self.side(), layout=False)
        offered = self.offered()  # T is offered only while the tokens' column is in view
        if offered != self._offered:
            self._offered = offered
            self.refresh_bindings()

    def shown_view(self) -> View:
        """The game master's view as the screen shows it: while the interview of the prisoner
        still in with the warden is recorded (her phone's deal), as it was before that record,
        until the interview ends (the laptop may be in the room's view: nothing on it changes
        with a deal made meanwhile)."""
        room = self.ctx.session.room
        return gm(room.game) if room.ahead is not None else self.day.view()

    def side(self) -> str:
        """The side panel's text folded to its width (never an address cut anywhere but at a
        '/', never a line that starts with a comma). Under NARROW columns the join address
        has a line of its own across the screen instead, whole."""
        _ = words(self)
        view = self.shown_view()
        narrow = self.has_class("narrow")
        join = join_line(self.ctx, view, _)
        self._text("#join-bar", join or "", shown=narrow and join is not None)
        widget = self.query_one("#side", Static)
        text = side_text(self.ctx, view, _, self.private, with_join=not narrow)
        return fold(text, widget.content_size.width)

    def on_mount(self) -> None:
        self.ctx.faults.guarded(self.refresh_view)()
        self.query_one(Board).focus()
        if self.ctx.ticking:
            self.set_interval(0.5, self.ctx.faults.guarded(self.tick))  # the stage's clocks
            # paused wrong-link addresses say so only while their window lasts
            self.set_interval(15, self.ctx.faults.guarded(self.refresh_view))

    def on_screen_resume(self) -> None:
        """Back on top (a dialog closed): what waited for it is shown or asked now."""
        self.ctx.faults.guarded(self.tick)()
        self.ctx.faults.guarded(self.follow_stage)()

    @on(Redraw)
    def _redraw(self) -> None:
        self.ctx.faults.guarded(self.refresh_view)()

    @on(PhonesSeen)
    def _phones_seen(self, message: PhonesSeen) -> None:
        self.ctx.faults.guarded(self.refresh_phones)(set(message.seats))

    def refresh_view(self) -> None:
        """Redraw from the session (called on every change, local or remote, at most every
        ~0.1 s for changes from elsewhere). Only what changed is touched: text that is the
        same is left alone, the board changes only its changed cells, and the footer is
        rebuilt only when the keys on offer change (a new phase, the last interview)."""
        _ = words(self)
        view = self.shown_view()
        inside = self.ctx.session.room.stage.interview
        b = banner(view, inside.prisoner if inside is not None else None, _)
        name = self.ctx.session.name
        # the room's count: a held reveal's night only once the room is shown it
        shown = self.ctx.session.room.nights_shown
        bar = nights_bar(shown, view["nights_to_escape"], lang=_)
        self._text(
            "#topbar",
            _("%(session)s · %(title)s · Nights %(bar)s", session=name, title=b.title, bar=bar),
            layout=False,
        )
        self._text("#say", b.say)
        self._text("#do", b.do)
        self.set_class(view["phase"] == "over", "over")
        warning = self.ctx.address_warning()
        self._text("#address-bar", warning or "", shown=warning is not None)
        down = self.ctx.phones_down
        self._text("#phones-bar", down or "", shown=down is not None)
        board = self.query_one(Board)
        board.with_warden = inside.prisoner if inside is not None else None
        board.show(view, private=self.private, presence=self.ctx.presence)
        self._text("#side", self.side(), layout=False)
        self._text(
            "#private-bar",
            _(
                "PRIVATE VIEW: parole tokens are on screen, and today's deals. It turns itself "
                "off in %(seconds)s s; T turns it off now.",
                seconds=round(self.ctx.private_seconds),
            )
            if self.private
            else "",
            shown=self.private,
        )
        self.tick()
        self.follow_stage()

    def tick(self) -> None:
        """The stage's running clock (twice a second while ticking, and on every redraw);
        the keys on offer when they change; planning's time up asks once to close it."""
        running = self.stage.text()
        self._text("#clock-bar", running or "", shown=running is not None)
        self.set_class(running is not None and self.stage.time_up, "time-up")
        offered = self.offered()
        if offered != self._offered:
            self._offered = offered
            self.refresh_bindings()
        self.stage.planning_time_up()

    def refresh_phones(self, seats: set[str]) -> None:
        """Phones came or went: only their connection cells change (and the side's phone
        lines)."""
        self.query_one(Board).show_phones(seats, self.ctx.presence)
        self._text("#side", self.side(), layout=False)

    def _text(self, selector: str, text: str, *, layout: bool = True, shown: bool = True) -> None:
        """Put ``text`` in a Static unless it already shows it (an update costs a layout of
        the screen; ``layout=False`` for the ones whose size never depends on their text)."""
        widget = self.query_one(selector, Static)
        if widget.display != shown:
            widget.display = shown
        before = self._texts.get(selector)
        if before == text:
            return
        self._texts[selector] = text
        width = widget.content_size.width
        if layout and before is not None and width:  # as tall as before: no layout needed
            layout = lines(before, widget, width) != lines(text, widget, width)
        widget.update(plain(text), layout=layout)

    def offered(self) -> tuple[bool | None, ...]:
        """What check_action says of each phase's action now (the footer shows these)."""
        actions = (*PHASE_ACTIONS, *CLOCK_ACTIONS, "private")
        return tuple(self.check_action(action, ()) for action in actions)

    # ---- what is offered ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in CLOCK_ACTIONS:
            return self.stage.offers(action)
        if action == "private" and not self.private:
            # never a column nobody can see (a window too narrow for it)
            board = self.query_one(Board)
            laid_out = board.scrollable_content_region.width > 0
            return None if laid_out and not board.column_in_view("tokens") else True
        if action not in PHASE_ACTIONS:
            return True
        view = table(self.ctx.session.state)
        if view["phase"] not in PHASE_ACTIONS[action]:
            return False
        if action in ("search", "accuse", "end_day", "epilogue") and self.ctx.session.room.held:
            return False  # the room has not seen the search yet: its reveal first
        if action == "interview" and not not_interviewed(view):
            return None
        if action == "accuse" and not can_accuse(view):
            return None
        return True

    # ---- the day's moves (flows of .day, each in a worker) and the stage -------------------

    @work(group="flow")
    async def action_choose(self) -> None:
        await self.day.choose()

    def action_close_planning(self) -> None:
        self.close_planning(time_up=False)

    @work(group="flow")
    async def close_planning(self, *, time_up: bool) -> None:
        await self.day.close_planning(time_up=time_up)

    @work(group="flow")
    async def action_planning_limit(self) -> None:
        await self.day.planning_limit()

    def action_interview(self) -> None:
        if self.day.start_interview():
            self._interview()

    @work(group="flow")
    async def _interview(self) -> None:
        await self.day.interview()

    @work(group="flow")
    async def action_search(self) -> None:
        await self.day.search()

    @work(group="flow")
    async def action_accuse(self) -> None:
        await self.day.accuse()

    @work(group="flow")
    async def action_end_day(self) -> None:
        await self.day.end_day()

    @work(group="flow")
    async def action_undo(self) -> None:
        await self.day.undo()

    def action_epilogue(self) -> None:
        """o, after the game: step the room through what really happened."""
        if not any(isinstance(s, EpilogueScreen) for s in self.app.screen_stack):
            self.app.push_screen(EpilogueScreen(self.ctx))

    def action_pause_clock(self) -> None:
        self.stage.pause()

    def action_extend_clock(self) -> None:
        self.stage.extend()

    def follow_stage(self) -> None:
        """Show what the stage holds that no screen shows: the interview in progress (after
        a resume), a held reveal (a search from the warden's phone, or after a resume), the
        epilogue resumed mid-way. Only with this screen on top: a screen pushed over a dialog
        would be closed by its answer (it waits for the dialog, or the game master's return
        from Seats or History)."""
        if not self.is_active:
            return
        session = self.ctx.session
        if session.room.held is not None:
            self.day.open_reveal()
            return
        if 0 < session.room.stage.epilogue < steps(session.room.game):
            self.action_epilogue()
            return
        if self.day.interviewing or session.room.stage.interview is None:
            return
        if not any(isinstance(s, InterviewScreen) for s in self.app.screen_stack):
            self.action_interview()

    # ---- everywhere -----------------------------------------------------------------------

    def watch_private(self) -> None:
        self.ctx.faults.guarded(self.refresh_view)()

    def action_private(self) -> None:
        if self._private_timer is not None:
            self._private_timer.stop()
            self._private_timer = None
        if not self.private:
            self.private_until = self.ctx.clock() + self.ctx.private_seconds
            self._private_timer = self.set_timer(self.ctx.private_seconds, self.private_due)
        self.private = not self.private

    @property
    def private_timed(self) -> bool:
        """The private view is set to turn itself off (its timer is armed)."""
        return self._private_timer is not None

    def private_due(self) -> None:
        """The private view's timer: off once the console's clock says its time is up (if the
        timer fires early, it waits for the rest)."""
        self._private_timer = None
        if not self.private:
            return
        left = self.private_until - self.ctx.clock()
        if left > 0:
            self._private_timer = self.set_timer(left, self.private_due)
            return
        self.private_off()

    def private_off(self) -> None:
        if self._private_timer is not None:
            self._private_timer.stop()
        self._private_timer = None
        self.private = False

    def action_history(self) -> None:
        self.post_message(Show("history"))

    def action_seats(self) -> None:
        self.post_message(Show("seats"))

    def action_help(self) -> None:
        self.post_message(Show("help"))

    def action_print(self) -> None:
        self.post_message(Show("print"))

    def action_address(self) -> None:
        self.post_message(Show("address"))

    def action_balance(self) -> None:
        self.post_message(Show("balance"))

    def action_gm_phone(self) -> None:
        self.post_message(Show("phone"))

    def action_export(self) -> None:
        self.post_message(Show("report"))

    async def action_quit_console(self) -> None:
        """q: the console's own question (what happens to the phones, or whether to quit in
        the middle of a game)."""
        await self.app.run_action("quit_asking")
