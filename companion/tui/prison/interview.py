"""One interview: the stage's countdown (pause, extend), then deal or no deal.

The countdown is the stage's interview clock (:mod:`companion.rules.prison.stage`), so the board and
the warden's phone count down to the same moment; pausing and extending are recorded there.
When the stage's interview ends elsewhere (another console, or the warden's phone started the
search), the screen closes itself. A deal the warden's phone records leaves it open: the room's
interview ends by the game master's hand, with a deal or without.

The deal's key is offered only while a deal is left today, as it was when the prisoner came in:
nothing here changes during the interview, and no count of the day's deals is said."""

from __future__ import annotations

import math
from typing import Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from companion.rules.prison.stage import Clock, Extend, GoOn, Pause
from companion.rules.prison.views import gm
from companion.tui.common.follow import Redraw
from companion.tui.common.footer import Keys
from companion.tui.common.language import esc_key, words
from companion.tui.common.literal import plain
from companion.tui.prison import flows
from companion.tui.prison.context import Context
from companion.tui.prison.text import minutes_seconds

EXTEND_SECONDS = 30

# How an interview ends on this screen: a deal, no deal, called off (Esc), or ended elsewhere.
Ending = Literal["deal", "no deal", "cancel", "elsewhere"]


class InterviewScreen(ModalScreen[Ending]):
    BINDINGS = [
        Binding("d", "decide(True)", "Deal"),
        Binding("n", "decide(False)", "No deal"),
        Binding("p", "pause", "Pause/resume"),
        Binding("plus,equals_sign,e", "extend", f"+{EXTEND_SECONDS} s"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, ctx: Context, prisoner: str) -> None:
        super().__init__()
        self.ctx = ctx
        self.prisoner = prisoner
        self._rang = False  # the bell rang at zero (again after an extension)
        self._ended = False
        self._ending: Ending | None = None  # to close with once on top again
        # whether a deal is offered: one was left today as the prisoner came in (their own
        # deal, made on the warden's phone meanwhile, counts as left: nothing on this screen
        # changes with it, even on a console opened again mid-interview)
        state = ctx.session.state
        own = 1 if (prisoner, True) in state.day.interviews else 0
        self.deal_offered = gm(state)["deals_left_today"] + own > 0

    def compose(self) -> ComposeResult:
        _ = words(self)
        with Vertical(classes="dialog", id="interview-box"):
            yield Static(
                plain(_("Interview: %(name)s", name=self.prisoner)), classes="dialog-title"
            )
            yield Static("", id="countdown")
            yield Static(plain(self._deal_text()), id="deals")
            yield Static(self._keys_text(), classes="dialog-keys")
        yield Keys()

    def _keys_text(self) -> Text:
        """``d deal  n no deal  p pause  + extend  Esc cancel``, the keys in bold."""
        _ = words(self)
        keys = [("d", _("deal"))] if self.deal_offered else []
        keys += [
            ("n", _("no deal")),
            ("p", _("pause")),
            ("+", _("extend")),
            (esc_key(_), _("cancel")),
        ]
        text = Text()
        for index, (key, what) in enumerate(keys):
            text.append("  " if index else "")
            text.append(key, style="bold")
            text.append(f" {what}")
        return text

    def _deal_text(self) -> str:
        # The countdown is the room's clock: nothing here (text, keys) may differ with the
        # deals made today, or the room would learn who took one (T on the game screen shows
        # the count).
        _ = words(self)
        limit = gm(self.ctx.session.state)["rules"]["parole_tokens_per_day"]
        return _.n_(
            "A deal gives one parole token; the warden makes at most %(count)s deal a day.",
            "A deal gives one parole token; the warden makes at most %(count)s deals a day.",
            int(limit),
        )

    def clock(self) -> Clock | None:
        """This interview's clock on the stage (``None``: it is over)."""
        now_in = self.ctx.session.room.stage.interview
        return now_in.clock if now_in is not None and now_in.prisoner == self.prisoner else None

    def on_mount(self) -> None:
        self.show()
        if self.ctx.ticking:
            self.set_interval(0.5, self.ctx.faults.guarded(self.show))

    @on(Redraw)
    def _redraw(self) -> None:
        self.ctx.faults.guarded(self.show)()

    def left(self) -> int:
        """Whole seconds left (rounded up: the full length shows first)."""
        clock = self.clock()
        return math.ceil(clock.remaining(self.ctx.clock())) if clock is not None else 0

    def show(self) -> None:
        clock = self.clock()
        if clock is None:
            self._end("elsewhere")
            return
        _ = words(self)
        left = self.left()
        text = minutes_seconds(left)
        if left <= 0:
            text += "  " + (
                _("time is up: deal or no deal?") if self.deal_offered else _("time is up")
            )
            if not self._rang:
                self._rang = True
                self.app.bell()
        else:
            self._rang = False
            if clock.paused:
                text += "  " + _("(paused)")
        self.query_one("#countdown", Static).update(text)
        self.set_class(left <= 0, "time-up")

    def _end(self, ending: Ending) -> None:
        """Close with ``ending``; covered (the palette on top), once it is on top again (a
        dismiss closes the top screen, whichever it is)."""
        if self._ended:
            return
        if not self.is_active:
            self._ending = ending
            return
        self._ended = True
        self.dismiss(ending)

    def on_screen_resume(self) -> None:
        if self._ending is not None:
            self._end(self._ending)

    def action_pause(self) -> None:
        clock = self.clock()
        if clock is None:
            return
        now = self.ctx.clock()
        session = self.ctx.session
        if clock.paused:
            flows.stage_change(self.app, lambda: session.stage(GoOn(now, "interview")))
        else:
            flows.stage_change(self.app, lambda: session.stage(Pause(now, "interview")))
        self.show()

    def action_extend(self) -> None:
        if self.clock() is None:
            return
        now = self.ctx.clock()
        session = self.ctx.session
        flows.stage_change(
            self.app, lambda: session.stage(Extend(now, "interview", EXTEND_SECONDS))
        )
        self.show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No deal's key once the day's deals are made (the footer leaves it out)."""
        if action == "decide" and parameters == (True,):
            return self.deal_offered
        return True

    def action_decide(self, deal: bool) -> None:
        if deal and not self.deal_offered:
            return
        self._end("deal" if deal else "no deal")

    def action_cancel(self) -> None:
        self._end("cancel")
