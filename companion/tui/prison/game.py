"""The day, phase by phase: a banner with what to say and do, the board, and only the legal
actions in the footer. The moves themselves are in :mod:`.day`."""

from __future__ import annotations

import math
from functools import partial

from textual import on
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from companion.rules.prison.views import table
from companion.session import links, stage
from companion.session.seats import join_url
from companion.session.stage import Clock, held_reveal
from companion.tui.common.follow import PhonesSeen, Redraw
from companion.tui.common.footer import Keys, fit_footer
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.common.presence import connected_count, phone_words
from companion.tui.common.quitting import quit_asking
from companion.tui.prison import flows
from companion.tui.prison.board import Board
from companion.tui.prison.context import Context, Show, StartPhones
from companion.tui.prison.day import PLANNING_EXTEND_SECONDS, DayActions
from companion.tui.prison.interview import EXTEND_SECONDS, InterviewScreen
from companion.tui.prison.text import (
    RESULT_WORDS,
    View,
    banner,
    can_accuse,
    clock,
    names,
    nights_bar,
    not_interviewed,
    outcome_line,
    said,
    searches_left,
)

# action -> phases in which it is offered
PHASE_ACTIONS = {
    "choose": ("planning",),
    "close_planning": ("planning",),
    "interview": ("interviews",),
    "search": ("interviews", "search"),
    "accuse": ("accusations",),
    "end_day": ("accusations",),
    "export": ("over",),
}


def lines(text: str, widget: Static, width: int) -> int:
    """How many lines ``text`` takes in ``widget`` at ``width`` columns."""
    return Content(text).get_height(widget.styles, width)  # type: ignore[arg-type]


class GameScreen(DayActions):
    BINDINGS = [
        Binding("c", "choose", "Choice"),
        Binding("x", "close_planning", "Close planning"),
        Binding("i", "interview", "Interview"),
        Binding("s", "search", "Search"),
        Binding("a", "accuse", "Accuse"),
        Binding("e", "end_day", "End day"),
        Binding("r", "export", "Report"),
        Binding("t", "private", "Tokens"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_console", "Quit"),
        Binding("h", "history", "History"),
        Binding("w", "seats", "Seats"),
        Binding("p", "print", "Print"),
        Binding("l", "address", "Links"),
        Binding("b", "balance", "Balance"),
        Binding("m", "planning_limit", "Limit"),
        Binding("space", "pause_clock", "Pause"),
        Binding("plus,equals_sign", "extend_clock", "+1 min"),
        Binding("f5", "phones_again", "Phones again"),
    ]
    # Offered only while they mean something (see check_action).
    CLOCK_ACTIONS = ("planning_limit", "pause_clock", "extend_clock", "phones_again")
    # Left out of a narrow footer, in this order (Help and the palette list them all).
    FOOTER_OPTIONAL = (
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
        super().__init__(ctx)
        self.private_until = 0.0
        self._private_timer: Timer | None = None
        self._texts: dict[str, str] = {}  # what each Static shows now
        self._offered: tuple[bool | None, ...] | None = None
        self._asked_planning: Clock | None = None  # the planning limit asked about at zero
        self._time_up = False  # the running clock is at zero

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
        self.refresh_bindings()

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
        view = self.view()
        inside = stage.stage_of(self.ctx.session).interview
        b = banner(view, inside.prisoner if inside is not None else None, _)
        name = self.ctx.session.name
        bar = nights_bar(view["nights_done"], view["nights_to_escape"], lang=_)
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
        self._text("#side", self.side_text(view), layout=False)
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
        running = self.clock_text()
        self._text("#clock-bar", running or "", shown=running is not None)
        self.set_class(running is not None and self._time_up, "time-up")
        offered = self.offered()
        if offered != self._offered:
            self._offered = offered
            self.refresh_bindings()
        self.planning_time_up()

    def refresh_phones(self, seats: set[str]) -> None:
        """Phones came or went: only their connection cells change (and the side's phone
        lines)."""
        self.query_one(Board).show_phones(seats, self.ctx.presence)
        self._text("#side", self.side_text(self.view()), layout=False)

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
        actions = (*PHASE_ACTIONS, *self.CLOCK_ACTIONS)
        return tuple(self.check_action(action, ()) for action in actions)

    def side_text(self, view: View) -> str:
        _ = words(self)
        phase = view["phase"]
        today = view["today"]
        lines: list[str] = []
        if phase == "planning":
            waiting = [n for n in view["active"] if n not in view["submitted"]]
            lines.append(
                _(
                    "Chosen: %(chosen)s of %(count)s",
                    chosen=len(view["submitted"]),
                    count=len(view["active"]),
                )
            )
            lines.append(
                _("Waiting for: %(names)s", names=names(waiting, _))
                if waiting
                else _("Everyone has chosen.")
            )
            lines.append("")
            lines.append(_("Choices stay sealed until the search."))
        elif phase == "interviews":
            queue = not_interviewed(view)
            lines.append(
                _("Queue: %(names)s", names=", ".join(queue))
                if queue
                else _("Queue: everyone was seen")
            )
            lines.append(
                _("Seen: %(names)s", names=names(today["interviewed"], _))
                if today["interviewed"]
                else ""
            )
            limit = view["rules"]["parole_tokens_per_day"]
            if self.private:
                made = limit - view["deals_left_today"]
                lines.append(_("Deals today: %(made)s of %(limit)s", made=made, limit=limit))
                if view["deals_left_today"] == 0:
                    lines.append(_("Deal limit reached"))
            else:
                # today's count would tell the room who took a deal (it saw who went in)
                lines.append(_("Deals: at most %(limit)s a day (T: today's count)", limit=limit))
            lines.append(
                _("Interviews: %(length)s each", length=clock(self.ctx.interview_seconds()))
            )
        elif phase == "search":
            lines.append(_("Cells left to search today: %(count)s", count=searches_left(view)))
        for s in today["searches"]:
            lines.append(
                _("Searched %(name)s: CAUGHT", name=s["prisoner"])
                if s["caught"]
                else _("Searched %(name)s: safe", name=s["prisoner"])
            )
        for a in today["accusations"]:
            lines.append(
                _(
                    "%(accuser)s accused %(accused)s: %(result)s",
                    accuser=a["accuser"],
                    accused=a["accused"],
                    result=said(RESULT_WORDS, a["result"], _),
                )
            )
        if phase == "accusations":
            who = can_accuse(view)
            lines.append(_("May still accuse: %(names)s", names=names(who, _)))
        if phase == "over":
            lines.append(outcome_line(view, _))
        lines += ["", *self.phone_lines(view)]
        base = links.current_base(self.ctx.session)
        if base and phase != "over" and self.ctx.phones_down is None:
            lines += ["", _("No QR code? Type the seat code at %(url)s", url=join_url(base))]
        wrong = self.ctx.wrong_links()
        if wrong:
            lines += ["", *wrong]
        return "\n".join(line for line in lines if line is not None)

    def phone_lines(self, view: View) -> list[str]:
        """The warden's phone, and how many of the prisoners' phones are connected."""
        _ = words(self)
        presence = self.ctx.presence
        prisoners = [p["name"] for p in view["prisoners"]]
        return [
            _("Warden's phone:"),
            f"  {phone_words(presence.get(view['warden']))}",
            _("Prisoners' phones:"),
            "  "
            + _(
                "%(connected)s of %(count)s connected",
                connected=connected_count(presence, prisoners),
                count=len(prisoners),
            ),
        ]

    # ---- what is offered ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.CLOCK_ACTIONS:
            return self.check_clock_action(action)
        if action not in PHASE_ACTIONS:
            return True
        view = table(self.ctx.session.state)
        if view["phase"] not in PHASE_ACTIONS[action]:
            return False
        if action in ("search", "accuse", "end_day") and held_reveal(self.ctx.session):
            return False  # the room has not seen the search yet: its reveal first
        if action == "interview" and not not_interviewed(view):
            return None
        if action == "accuse" and not can_accuse(view):
            return None
        return True

    def check_clock_action(self, action: str) -> bool | None:
        if action == "phones_again":
            return self.ctx.phones_down is not None
        if action == "planning_limit":
            return table(self.ctx.session.state)["phase"] == "planning"
        return stage.stage_of(self.ctx.session).running() is not None

    # ---- the stage: its clocks, the interview in progress, the held reveal ------------------

    def clock_text(self) -> str | None:
        """The running clock in words (``None``: none runs)."""
        _ = words(self)
        self._time_up = False
        now_on = stage.stage_of(self.ctx.session)
        which = now_on.running()
        ticking = now_on.clock(which) if which is not None else None
        if which is None or ticking is None:
            return None
        left = math.ceil(ticking.remaining(self.ctx.clock()))
        if which == "interview" and now_on.interview is not None:
            head = _("With the warden: %(name)s", name=now_on.interview.prisoner)
        else:
            head = _("Planning time")
        if left <= 0:
            self._time_up = True
            return _("%(clock)s · time is up.", clock=head)
        if ticking.paused:
            return _("%(clock)s · %(left)s left (paused)", clock=head, left=clock(left))
        return _("%(clock)s · %(left)s left", clock=head, left=clock(left))

    def planning_time_up(self) -> None:
        """At zero, ask once (per limit) to close planning; only with this screen on top."""
        planning = stage.stage_of(self.ctx.session).planning
        if planning is None or planning == self._asked_planning or not self.is_active:
            return
        if planning.remaining(self.ctx.clock()) > 0:
            return
        if table(self.ctx.session.state)["phase"] != "planning":
            return
        self._asked_planning = planning
        self.app.bell()
        self.close_planning(time_up=True)

    def follow_stage(self) -> None:
        """Show what the stage holds that no screen shows: the interview in progress (after
        a resume), a held reveal (a search from the warden's phone, or after a resume). Only
        with this screen on top: a screen pushed over a dialog would be closed by its answer
        (it waits for the dialog, or the game master's return from Seats or History)."""
        if not self.is_active:
            return
        session = self.ctx.session
        if stage.held_reveal(session) is not None:
            self.open_reveal()
            return
        if self.interviewing or stage.stage_of(session).interview is None:
            return
        if not any(isinstance(s, InterviewScreen) for s in self.app.screen_stack):
            self.action_interview()

    def action_pause_clock(self) -> None:
        now_on = stage.stage_of(self.ctx.session)
        which = now_on.running()
        ticking = now_on.clock(which) if which is not None else None
        if which is None or ticking is None:
            return
        change = stage.go_on if ticking.paused else stage.pause
        now = self.ctx.clock()
        flows.stage_change(self.app, partial(change, self.ctx.session, which, now=now))

    def action_extend_clock(self) -> None:
        which = stage.stage_of(self.ctx.session).running()
        if which is None:
            return
        seconds = EXTEND_SECONDS if which == "interview" else PLANNING_EXTEND_SECONDS
        flows.stage_change(
            self.app,
            partial(stage.extend, self.ctx.session, which, seconds, now=self.ctx.clock()),
        )

    def action_phones_again(self) -> None:
        self.post_message(StartPhones())

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

    def action_export(self) -> None:
        self.post_message(Show("report"))

    async def action_quit_console(self) -> None:
        """q: asks first while the game is under way (the phones and the board lose it)."""
        session = self.ctx.session
        reopen = f"companion resume {session.name}"
        await quit_asking(self.app, under_way=not session.state.over, reopen=reopen)
