"""The game screen's stage: the running clock (the interview's, else planning's) in words,
pausing and extending it, asking to close planning at zero, and following what the stage holds
that no screen shows (an interview in progress, a held reveal)."""

from __future__ import annotations

import math
from functools import partial

from companion.rules.prison.epilogue import steps
from companion.rules.prison.stage import Clock, Extend, GoOn, Pause
from companion.rules.prison.views import table
from companion.tui.common.language import words
from companion.tui.prison import flows
from companion.tui.prison.day import PLANNING_EXTEND_SECONDS, DayActions
from companion.tui.prison.epilogue import EpilogueScreen
from companion.tui.prison.interview import EXTEND_SECONDS, InterviewScreen
from companion.tui.prison.text import clock


class StageActions(DayActions):
    """The stage's part of the game screen (see :class:`~companion.tui.prison.game.GameScreen`)."""

    _asked_planning: Clock | None = None  # the planning limit asked about at zero
    _time_up = False  # the running clock is at zero

    def check_clock_action(self, action: str) -> bool | None:
        if action == "planning_limit":
            return table(self.ctx.session.state)["phase"] == "planning"
        return self.ctx.session.room.stage.running() is not None

    # ---- the stage: its clocks, the interview in progress, the held reveal ------------------

    def clock_text(self) -> str | None:
        """The running clock in words (``None``: none runs)."""
        _ = words(self)
        self._time_up = False
        now_on = self.ctx.session.room.stage
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
        planning = self.ctx.session.room.stage.planning
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
        if session.room.held is not None:
            self.open_reveal()
            return
        if 0 < session.room.stage.epilogue < steps(session.room.game):  # resumed mid-way
            self.action_epilogue()
            return
        if self.interviewing or session.room.stage.interview is None:
            return
        if not any(isinstance(s, InterviewScreen) for s in self.app.screen_stack):
            self.action_interview()

    def action_epilogue(self) -> None:
        """o, after the game: step the room through what really happened."""
        if not any(isinstance(s, EpilogueScreen) for s in self.app.screen_stack):
            self.app.push_screen(EpilogueScreen(self.ctx))

    def action_pause_clock(self) -> None:
        now_on = self.ctx.session.room.stage
        which = now_on.running()
        ticking = now_on.clock(which) if which is not None else None
        if which is None or ticking is None:
            return
        now = self.ctx.clock()
        act = GoOn(now, which) if ticking.paused else Pause(now, which)
        flows.stage_change(self.app, partial(self.ctx.session.stage, act))

    def action_extend_clock(self) -> None:
        which = self.ctx.session.room.stage.running()
        if which is None:
            return
        seconds = EXTEND_SECONDS if which == "interview" else PLANNING_EXTEND_SECONDS
        flows.stage_change(
            self.app,
            partial(self.ctx.session.stage, Extend(self.ctx.clock(), which, seconds)),
        )
