"""The warm-up console's round timer: the countdown each second, ``+`` for 30 more seconds,
and the offer to give a held round (its time ran out while nothing counted it down) the time
it had left, or to close it now.

While a night's server serves the room (the console is attached), the server closes the round
at zero, whether or not a console is open; the console counts down and shows it. A console on
its own (``--no-phones``) closes it itself, and, when it opens on a round whose time ran out
while it was closed, holds it first (:func:`~companion.rules.dilemma.room.to_hold`, before it
writes anything else), as the night's server does when it starts again.

"The time it had left" is counted from the log (:func:`~companion.rules.dilemma.room.
time_to_give_back`): the round's deadline less the time of the log's last row, the last moment
the log heard from the room before whatever counted stopped (it may have run a little longer,
so this is the most the round can have had left). The dialog says that moment. The game
master's phone makes the same offer; whichever answers first ends it on the other.
"""

from __future__ import annotations

import time

from companion.rules.dilemma.asked import time_back_asked
from companion.rules.dilemma.commands import CloseRound
from companion.rules.dilemma.room import (
    MORE_SECONDS,
    ExtendTimer,
    HoldTimer,
    due,
    more_time,
    to_hold,
)
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.common.moves import NotDone, attempt
from companion.tui.dilemma.flood import time_of_day
from companion.tui.dilemma.flows import NO_ROUND, OVER, Console


class RoundClock:
    """The warm-up console's round timer (see the module's docstring), over ``console``, which
    ticks it each second and runs the offer in its worker."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._offer: ConfirmScreen | None = None  # the offer to give time back, while on screen
        self._offer_round = 0  # the round it is for

    def offer_time_back(self) -> None:
        """On opening: a console on its own holds the open round if its time ran out while
        it was closed; then, as each second after, the offer for a round held."""
        session = self.console.session
        if self.console.served is None:
            hold = to_hold(session.state, session.room, time.time(), "console")
            if hold is not None:
                session.stage(hold)
        self._offer_if_held()

    def _held(self) -> HoldTimer | None:
        r = self.console.session.state.open_round()
        return self.console.session.room.held(r.number) if r is not None else None

    def _offer_if_held(self) -> None:
        hold = self._held()
        if self._offer is not None:
            if hold is None or hold.round != self._offer_round:
                self._offer.dismiss(False)  # answered elsewhere (the game master's phone)
            return
        if hold is not None:
            self.console.ask_time_back(hold)

    async def ask_time_back(self, hold: HoldTimer) -> None:
        """The offer for the held round ``hold`` (a flow the console runs in its worker)."""
        _ = self.console.lang
        title, question = time_back_asked(hold, time_of_day(hold.heard))
        self._offer = ConfirmScreen(
            _.say(title),
            _.say(question),
            _("Give %(seconds)s s back", seconds=hold.seconds),
            _("Close it now"),
        )
        self._offer_round = hold.round
        try:
            give = await self.console.push_screen_wait(self._offer)
        finally:
            self._offer = None
        if self._held() != hold:  # answered elsewhere, or closed meanwhile (the last choice)
            self.console.refresh_view()
            return
        if not give:
            self._close_timed_out(hold.round)
            return
        number, seconds = hold.round, hold.seconds
        deadline = time.time() + seconds
        self.console.session.stage(ExtendTimer(number, seconds, deadline, "given back"))
        self.console.refresh_view()
        self.console.notify(
            _(
                "Round %(round)s has %(seconds)s s again to choose (noted in the log).",
                round=number,
                seconds=seconds,
            )
        )

    def tick(self) -> None:
        """Each second while a round with a timer is open: the countdown, the offer for a
        round held, and, on a console on its own, the round closed at zero (the night's
        server closes it when it serves the room)."""
        self._offer_if_held()
        if self.console.room_state.timer() is None:
            return
        number = due(self.console.session.state, self.console.session.room, time.time())
        if number is None or self.console.served is not None:
            self.console.room.refresh_status()
            return
        self._close_timed_out(number)

    def _close_timed_out(self, number: int) -> None:
        _ = self.console.lang
        done = attempt(lambda: self.console.session.submit(CloseRound(timed_out=True), by="timer"))
        if not isinstance(done, NotDone):
            self.console.notify(_("Time is up: round %(round)s is revealed.", round=number))
        self.console.refresh_view()

    def more_time(self) -> None:
        """``+``: the open round's timer gets 30 s more (from now, if its time had run out or
        its timer was turned off); noted in the log, so the phones and the board follow."""
        _ = self.console.lang
        v = self.console.view()
        r = self.console.session.state.open_round()
        if r is None:
            closed = OVER if v["phase"] == "over" else NO_ROUND
            self.console.notify(_(closed), severity="warning")
            return
        timer = self.console.room_state.timer()
        if timer is None and not self.console.room_state.timer_off():
            self.console.notify(
                _("Round %(round)s has no timer (t sets one from the next round).", round=r.number),
                severity="warning",
            )
            return
        now = time.time()
        act = more_time(r.number, timer, MORE_SECONDS, now)
        self.console.session.stage(act)
        self.console.refresh_view()
        left = int(-(-(act.deadline - now) // 1))  # whole seconds, as the status line
        self.console.notify(
            _(
                "Round %(round)s has %(seconds)s s more: %(time)s left.",
                round=r.number,
                seconds=MORE_SECONDS,
                time=f"{left // 60}:{left % 60:02d}",
            )
        )
