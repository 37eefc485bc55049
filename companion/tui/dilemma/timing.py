"""The warm-up console's round timer: the countdown each second and the round closed at zero,
``+`` for 30 more seconds, and, when the console reopens on a round whose time ran out while
it was closed, the offer to give that round the time it had left (or to close it now).

"The time it had left" is counted from the log (:func:`~companion.rules.dilemma.room.
time_to_give_back`): the round's deadline less the time of the log's last row, the last moment
the log heard from the room before the console stopped (it may have run a little longer, so
this is the most the round can have had left). The dialog says that moment. The offer is
worked out when the room first shows, before the console writes anything or starts the phone
server, and until it is answered the timer closes nothing.
"""

from __future__ import annotations

import time

from textual import work

from companion.rules.dilemma.commands import CloseRound
from companion.rules.dilemma.room import MORE_SECONDS, ExtendTimer, more_time, time_to_give_back
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.common.moves import NotDone, attempt
from companion.tui.dilemma.flood import clock
from companion.tui.dilemma.flows import NO_ROUND, OVER, RoomFlows


class TimerFlows(RoomFlows):
    """The round timer's part of the warm-up console (see the module's docstring)."""

    _offering = False  # the offer to give time back is on screen: the timer closes nothing

    def offer_time_back(self) -> None:
        """On opening: if the open round's time ran out while the console was closed and it
        had time left when the log last heard from the room, ask before anything closes it."""
        timer = self.room_state.timer()
        seconds = time_to_give_back(self.session.room, timer, time.time())
        heard = self.session.room.last_row_at
        if timer is None or not seconds or heard is None:
            return
        self._offering = True
        self._ask_time_back(timer.round, seconds, heard)

    @work(group="flow")
    async def _ask_time_back(self, number: int, seconds: int, heard: float) -> None:
        _ = self.lang
        question = _(
            "The log's last entry before the console stopped was written at %(time)s, when "
            "round %(round)s had %(seconds)s s left. Give it that time back (the phones and "
            "the board count down again), or close it now (who has not chosen gives no "
            "answer)?",
            time=clock(heard),
            round=number,
            seconds=seconds,
        )
        title = _(
            "Round %(round)s's time ran out while the console was closed.", round=number
        )
        try:
            give = await self.push_screen_wait(
                ConfirmScreen(
                    title,
                    question,
                    _("Give %(seconds)s s back", seconds=seconds),
                    _("Close it now"),
                )
            )
        finally:
            self._offering = False
        r = self.session.state.open_round()
        if r is None or r.number != number:  # closed meanwhile (the last choice came in)
            self.refresh_view()
            return
        if not give:
            self._close_timed_out(number)
            return
        self.session.stage(ExtendTimer(number, seconds, time.time() + seconds, "given back"))
        self.refresh_view()
        self.notify(
            _(
                "Round %(round)s has %(seconds)s s again to choose (noted in the log).",
                round=number,
                seconds=seconds,
            )
        )

    def _tick(self) -> None:
        """Each second while a round with a timer is open: the countdown, and at zero the
        round closes (also at once after a resume, if its time ran out meanwhile and there was
        nothing to give back, or the game master closes it)."""
        timer = self.room_state.timer()
        if timer is None:
            return
        if self._offering or timer.left(time.time()) > 0:
            self.room.refresh_status()
            return
        self._close_timed_out(timer.round)

    def _close_timed_out(self, number: int) -> None:
        _ = self.lang
        done = attempt(lambda: self.session.submit(CloseRound(timed_out=True), by="timer"))
        if not isinstance(done, NotDone):
            self.notify(_("Time is up: round %(round)s is revealed.", round=number))
        self.refresh_view()

    def action_more_time(self) -> None:
        """``+``: the open round's timer gets 30 s more (from now, if its time had run out or
        its timer was turned off); noted in the log, so the phones and the board follow."""
        _ = self.lang
        v = self.view()
        r = self.session.state.open_round()
        if r is None:
            closed = OVER if v["phase"] == "over" else NO_ROUND
            self.notify(_(closed), severity="warning")
            return
        timer = self.room_state.timer()
        if timer is None and not self.room_state.timer_off():
            self.notify(
                _("Round %(round)s has no timer (t sets one from the next round).", round=r.number),
                severity="warning",
            )
            return
        now = time.time()
        act = more_time(r.number, timer, MORE_SECONDS, now)
        self.session.stage(act)
        self.refresh_view()
        left = int(-(-(act.deadline - now) // 1))  # whole seconds, as the status line
        self.notify(
            _(
                "Round %(round)s has %(seconds)s s more: %(time)s left.",
                round=r.number,
                seconds=MORE_SECONDS,
                time=f"{left // 60}:{left % 60:02d}",
            )
        )
