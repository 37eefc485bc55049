"""What each tap of the game master's phone does: the console's moves (commands, stage acts,
undo), each through the desk's one path for a game master's change (:meth:`Desk.change`),
with the strict stale check: a tap made on a page older than the latest game master's change
(another console's, or this page's own tap sent twice or replayed) is refused, never done
twice. The rules' refusals come back in their own sentences; the console's own refusals
(today's deal limit, nobody in with the warden) in the console's.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from companion.language import N_
from companion.rules.core.game import Refused
from companion.rules.prison.commands import (
    Accuse,
    ClosePlanning,
    EndDay,
    Interview,
    PrisonCommand,
    Search,
)
from companion.rules.prison.phrases import accused as accusation_said
from companion.rules.prison.stage import (
    CallIn,
    Extend,
    GoOn,
    LimitPlanning,
    Pause,
    SendOut,
    StageAct,
)
from companion.rules.prison.views import gm, table
from companion.session.prison import PrisonSession
from companion.web.common.desk import NOT_UNDERSTOOD, Desk
from companion.web.common.game_master import Done, Outcome, Tap, done, refused, tapped, through

INTERVIEW_EXTEND_SECONDS = 30  # the console's + in an interview
PLANNING_EXTEND_SECONDS = 60  # the console's + during planning
NO_DEAL_LEFT = N_("No deal is possible: today's deal limit is reached.")
NOBODY_IN = N_("Nobody is in with the warden now; call the next prisoner in first.")
NOTHING_TO_SHOW = N_("There is nothing to show the room now.")


class Taps:
    """The game master's moves from the phone, on one session and its desk."""

    def __init__(
        self, session: PrisonSession, desk: Desk, clock: Callable[[], float],
        interview_seconds: Callable[[], int],
    ) -> None:
        self.session = session
        self.desk = desk
        self.clock = clock
        self.interview_seconds = interview_seconds
        # the page's buttons, by the action each sends
        self.moves: dict[str, Callable[[Tap], Outcome]] = {
            "close_planning": self._close_planning, "limit": self._limit,
            "pause": self._pause, "extend": self._extend, "call_in": self._call_in,
            "send_out": self._send_out, "deal": self._deal, "no_deal": self._no_deal,
            "search": self._search, "reveal": self._reveal, "epilogue": self._epilogue,
            "accuse": self._accuse, "end_day": self._end_day, "undo": self._undo,
        }

    def act(self, tap: Tap) -> Outcome:
        return tapped(self.moves, tap)

    # ---- through the desk ------------------------------------------------------------------

    def _through(self, tap: Tap, change: Callable[[], Refused | None], said: Done) -> Outcome:
        """``change`` through the desk's checks: the desk's refusal (stale), the change's own,
        or ``said``."""
        return through(self.desk, tap, change, said)

    def _command(self, tap: Tap, command: PrisonCommand, said: Done) -> Outcome:
        def change() -> Refused | None:
            outcome = self.session.submit(command, by="gm")
            return outcome if isinstance(outcome, Refused) else None

        return self._through(tap, change, said)

    def _stage(self, tap: Tap, act: StageAct | None, said: Done) -> Outcome:
        if act is None:
            return Refused(NOTHING_TO_SHOW)

        def change() -> None:
            self.session.stage(act)

        return self._through(tap, change, said)

    # ---- planning ------------------------------------------------------------------------

    def _close_planning(self, tap: Tap) -> Outcome:
        return self._command(tap, ClosePlanning(), done(N_("Planning is closed.")))

    def _limit(self, tap: Tap) -> Outcome:
        seconds = int(tap.value) if tap.value.isdigit() else None
        if table(self.session.state)["phase"] != "planning":
            return Refused(NOTHING_TO_SHOW)
        said = (
            done(N_("Planning closes in %(time)s; at zero you are asked to close it."),
                 time=f"{seconds // 60}:{seconds % 60:02d}")
            if seconds is not None else done(N_("Planning has no time limit."))
        )
        return self._stage(tap, LimitPlanning(self.clock(), seconds), said)

    # ---- the running clock -----------------------------------------------------------------

    def _pause(self, tap: Tap) -> Outcome:
        stage = self.session.room.stage
        which = stage.running()
        ticking = stage.clock(which) if which is not None else None
        if which is None or ticking is None:
            return Refused(NOTHING_TO_SHOW)
        now = self.clock()
        act = GoOn(now, which) if ticking.paused else Pause(now, which)
        said = done(N_("The clock goes on.")) if ticking.paused else done(
            N_("The clock is paused.")
        )
        return self._stage(tap, act, said)

    def _extend(self, tap: Tap) -> Outcome:
        which = self.session.room.stage.running()
        if which is None:
            return Refused(NOTHING_TO_SHOW)
        seconds = INTERVIEW_EXTEND_SECONDS if which == "interview" else PLANNING_EXTEND_SECONDS
        said = done(N_("%(seconds)s seconds more."), seconds=seconds)
        return self._stage(tap, Extend(self.clock(), which, seconds), said)

    # ---- interviews ------------------------------------------------------------------------

    def _call_in(self, tap: Tap) -> Outcome:
        view = table(self.session.state)
        if self.session.room.stage.interview is not None:
            return Refused(N_("Someone is in with the warden already; end that interview first."))
        if tap.value not in view["not_interviewed"]:
            return refused(N_("%(name)s cannot come in now."), name=tap.value)
        act = CallIn(self.clock(), tap.value, self.interview_seconds())
        return self._stage(tap, act, done(N_("%(name)s is called in."), name=tap.value))

    def _send_out(self, tap: Tap) -> Outcome:
        now_in = self.session.room.stage.interview
        if now_in is None:
            return Refused(NOBODY_IN)
        if self._recorded_meanwhile(now_in.prisoner):
            return self._stage(tap, SendOut(self.clock()), self._recorded_words(now_in.prisoner))
        said = done(N_("Nothing is recorded for %(name)s; they may come in again."),
                    name=now_in.prisoner)
        return self._stage(tap, SendOut(self.clock()), said)

    def _interview(self, tap: Tap, deal: bool) -> Outcome:
        now_in = self.session.room.stage.interview
        if now_in is None or now_in.prisoner != tap.value:
            return Refused(NOBODY_IN)
        if self._recorded_meanwhile(tap.value):  # the warden's phone recorded it as they talked
            return self._stage(tap, SendOut(self.clock()), self._recorded_words(tap.value))
        if deal and gm(self.session.state)["deals_left_today"] <= 0:
            return Refused(NO_DEAL_LEFT)
        named = [n for n in tap.named if n != tap.value] if deal else []
        command = Interview(prisoner=tap.value, deal=deal, named=named)

        def change() -> Refused | None:
            outcome = self.session.submit(command, by="gm")
            if isinstance(outcome, Refused):
                return outcome
            # the room sees the interview end now, with its record (rules/prison/room.py), as
            # the console ends it: recorded, then sent out
            self.session.stage(SendOut(self.clock()))
            return None

        return self._through(
            tap, change, done(N_("%(name)s's interview is recorded."), name=tap.value)
        )

    def _recorded_meanwhile(self, name: str) -> bool:
        return name in table(self.session.state)["today"]["interviewed"]

    @staticmethod
    def _recorded_words(name: str) -> Done:
        return done(
            N_("%(name)s's interview was recorded on the warden's phone; the room sees it "
               "end now."),
            name=name,
        )

    def _deal(self, tap: Tap) -> Outcome:
        return self._interview(tap, True)

    def _no_deal(self, tap: Tap) -> Outcome:
        return self._interview(tap, False)

    # ---- the search and its held reveal -----------------------------------------------------

    def _search(self, tap: Tap) -> Outcome:
        said = done(N_("Searched %(name)s's cell; show the room each step of its reveal."),
                    name=tap.value)
        return self._command(tap, Search(prisoner=tap.value), said)

    def _reveal(self, tap: Tap) -> Outcome:
        act = self.session.room.next_step(to_end=tap.value == "all", at=self.clock())
        return self._stage(tap, act, done(N_("The board shows it now.")))

    def _epilogue(self, tap: Tap) -> Outcome:
        act = self.session.room.epilogue_next(to_end=tap.value == "all", at=self.clock())
        return self._stage(tap, act, done(N_("The board shows it now.")))

    # ---- accusations, the end of the day, undo -----------------------------------------------

    def _accuse(self, tap: Tap) -> Outcome:
        try:
            accuser, accused = json.loads(tap.value)
        except (ValueError, TypeError):
            return Refused(NOT_UNDERSTOOD)
        if not isinstance(accuser, str) or not isinstance(accused, str):
            return Refused(NOT_UNDERSTOOD)
        command = Accuse(accuser=accuser, accused=accused)

        def change() -> Refused | Done:
            outcome = self.session.submit(command, by="gm")
            if isinstance(outcome, Refused):
                return outcome
            result = table(self.session.state)["today"]["accusations"][-1]["result"]
            return done(accusation_said(accuser, accused, result))

        return through(self.desk, tap, change)

    def _end_day(self, tap: Tap) -> Outcome:
        return self._command(tap, EndDay(), done(N_("The day is over.")))

    def _undo(self, tap: Tap) -> Outcome:
        only = int(tap.value) if tap.value.isdigit() else None
        was_over = bool(self.session.state.over)

        def change() -> Refused | Done:
            outcome = self.session.undo(by="gm", only=only)
            if isinstance(outcome, Refused):
                return outcome
            return (
                done(N_("Undone: the game is on again; the history keeps the end of the game "
                        "as a correction."))
                if was_over and not self.session.state.over
                else done(N_("Undone; the history keeps it as a correction."))
            )

        return through(self.desk, tap, change)
