"""The game screen's stage clock: the running clock (the interview's, else planning's) in
words, pausing and extending it, and asking once to close planning when its time is up."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.screen import Screen

from companion.rules.prison.stage import Clock, Extend, GoOn, Pause
from companion.rules.prison.views import table
from companion.tui.common.language import words
from companion.tui.prison import flows
from companion.tui.prison.context import Context
from companion.tui.prison.day import PLANNING_EXTEND_SECONDS
from companion.tui.prison.interview import EXTEND_SECONDS
from companion.tui.prison.text import minutes_seconds

# The clock's keys, offered only while they mean something (see :meth:`StageClock.offers`).
CLOCK_ACTIONS = ("planning_limit", "pause_clock", "extend_clock")


class StageClock:
    """The clock of ``screen``'s stage; ``close_planning`` asks to close planning (the
    screen's flow) when planning's time is up."""

    def __init__(
        self, screen: Screen[Any], ctx: Context, close_planning: Callable[[], object]
    ) -> None:
        self.screen = screen
        self.ctx = ctx
        self.close_planning = close_planning
        self.asked: Clock | None = None  # the planning limit asked about at zero
        self.time_up = False  # the running clock is at zero

    def offers(self, action: str) -> bool:
        """Whether the clock's key ``action`` means something now."""
        if action == "planning_limit":
            return table(self.ctx.session.state)["phase"] == "planning"
        return self.ctx.session.room.stage.running() is not None

    def text(self) -> str | None:
        """The running clock in words (``None``: none runs)."""
        _ = words(self.screen)
        self.time_up = False
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
            self.time_up = True
            return _("%(clock)s · time is up.", clock=head)
        if ticking.paused:
            return _("%(clock)s · %(left)s left (paused)", clock=head, left=minutes_seconds(left))
        return _("%(clock)s · %(left)s left", clock=head, left=minutes_seconds(left))

    def planning_time_up(self) -> None:
        """At zero, ask once (per limit) to close planning; only with the screen on top."""
        planning = self.ctx.session.room.stage.planning
        if planning is None or planning == self.asked or not self.screen.is_active:
            return
        if planning.remaining(self.ctx.clock()) > 0:
            return
        if table(self.ctx.session.state)["phase"] != "planning":
            return
        self.asked = planning
        self.screen.app.bell()
        self.close_planning()

    def pause(self) -> None:
        """Pause the running clock, or let it go on."""
        now_on = self.ctx.session.room.stage
        which = now_on.running()
        ticking = now_on.clock(which) if which is not None else None
        if which is None or ticking is None:
            return
        now = self.ctx.clock()
        act = GoOn(now, which) if ticking.paused else Pause(now, which)
        flows.stage_change(self.screen.app, partial(self.ctx.session.stage, act))

    def extend(self) -> None:
        """More time on the running clock (an interview's 30 s, planning's minute)."""
        which = self.ctx.session.room.stage.running()
        if which is None:
            return
        seconds = EXTEND_SECONDS if which == "interview" else PLANNING_EXTEND_SECONDS
        flows.stage_change(
            self.screen.app,
            partial(self.ctx.session.stage, Extend(self.ctx.clock(), which, seconds)),
        )
