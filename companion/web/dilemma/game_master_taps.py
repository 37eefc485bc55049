"""What each tap of the warm-up's game master's phone does: the console's moves (a round drawn
with its timer, closed, 30 s more, the doors, the house player, the round's time, a player
removed or brought back, the end, undo, the finale's steps), each through the desk's one path
for a game master's change with the strict stale check
(:func:`companion.web.common.game_master.through`): a tap made on a page older than the latest
game master's change (another console's, or this page's own tap sent twice or replayed) is
refused, never done twice. The rules' refusals come back in their own sentences, the
console's own (nothing to close, no timer) in sentences of the page's.

A tap says whom it acts on by the player's id (``value``), as the console's roster does, never
by the name: two players may share one.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from companion.language import N_
from companion.rules.core.game import Refused
from companion.rules.core.room import StageAct
from companion.rules.dilemma.commands import (
    BringBack,
    CloseDoors,
    CloseRound,
    DilemmaCommand,
    Finish,
    OpenDoors,
    Remove,
    SetHouse,
    StartRound,
)
from companion.rules.dilemma.finale import next_step
from companion.rules.dilemma.phrases import house
from companion.rules.dilemma.room import (
    MORE_SECONDS,
    ExtendTimer,
    HoldTimer,
    SetRoundSeconds,
    StartTimer,
    TimerOff,
    more_time,
)
from companion.rules.dilemma.seen import seen_by_the_room
from companion.rules.dilemma.strategies import NAMES
from companion.session.dilemma import DilemmaSession
from companion.web.common.desk import NOT_UNDERSTOOD, Desk
from companion.web.common.game_master import Done, Outcome, Tap, done, refused, tapped, through

MIN_SECONDS, MAX_SECONDS = 10, 3600  # a round's time, as the console takes it
NO_ROUND = N_("No round is open; start the next one first.")
NO_TIMER = N_("Round %(round)s has no timer; set one for the rounds to come.")
NOTHING_TO_SHOW = N_("There is nothing to show the room now.")
NOT_HELD = N_("That offer has been answered already (from the console, or this page).")
BAD_SECONDS = N_("Type whole seconds from 10 to 3600, or 0 for no timer.")


class Taps:
    """The game master's moves from the phone, on one warm-up's session and its desk."""

    def __init__(
        self, session: DilemmaSession, desk: Desk, clock: Callable[[], float],
        seed: Callable[[], int] = lambda: secrets.randbelow(2**63),
    ) -> None:
        self.session = session
        self.desk = desk
        self.clock = clock
        self.seed = seed
        # the page's buttons, by the action each sends
        self.moves: dict[str, Callable[[Tap], Outcome]] = {
            "next_round": self._next_round, "close_round": self._close_round,
            "more_time": self._more_time, "give_back": self._give_back,
            "close_held": self._close_held, "round_time": self._round_time,
            "doors": self._doors, "house": self._house, "remove": self._remove,
            "bring_back": self._bring_back, "finish": self._finish, "finale": self._finale,
            "undo": self._undo,
        }

    def act(self, tap: Tap) -> Outcome:
        return tapped(self.moves, tap)

    def _command(self, tap: Tap, command: DilemmaCommand, said: Done) -> Outcome:
        def change() -> Refused | None:
            outcome = self.session.submit(command, by="gm")
            return outcome if isinstance(outcome, Refused) else None

        return through(self.desk, tap, change, said)

    def _stage(self, tap: Tap, act: StageAct, said: Done) -> Outcome:
        """A note of the room's (a timer, the finale's step) through the desk's checks."""

        def change() -> None:
            self.session.stage(act)

        return through(self.desk, tap, change, said)

    def _name(self, pid: str) -> str | None:
        player = self.session.state.player(pid)
        return player.name if player is not None else None

    # ---- rounds and their timer --------------------------------------------------------------

    def _next_round(self, tap: Tap) -> Outcome:
        seconds = self.session.room.seconds

        def change() -> Refused | Done:
            outcome = self.session.submit(StartRound(seed=self.seed()), by="gm")
            if isinstance(outcome, Refused):
                return outcome
            opened = self.session.state.open_round()
            number = opened.number if opened is not None else len(self.session.state.rounds)
            if seconds:  # the deadline in the log: every console counts to the same moment
                self.session.stage(StartTimer(number, seconds, self.clock() + seconds))
                return done(N_("Round %(round)s has started: %(seconds)s s to choose."),
                            round=number, seconds=seconds)
            return done(N_("Round %(round)s has started."), round=number)

        return through(self.desk, tap, change)

    def _close_round(self, tap: Tap) -> Outcome:
        if self.session.state.open_round() is None:
            return Refused(NO_ROUND)
        return self._command(tap, CloseRound(), done(N_("The round is revealed.")))

    def _more_time(self, tap: Tap) -> Outcome:
        r = self.session.state.open_round()
        if r is None:
            return Refused(NO_ROUND)
        room = self.session.room
        timer = room.timer(r.number)
        if timer is None and not room.timer_off(r.number):
            return refused(NO_TIMER, round=str(r.number))
        now = self.clock()
        act = more_time(r.number, timer, MORE_SECONDS, now)
        left = int(-(-(act.deadline - now) // 1))
        said = done(N_("Round %(round)s has %(seconds)s s more: %(time)s left."),
                    round=r.number, seconds=MORE_SECONDS, time=f"{left // 60}:{left % 60:02d}")
        return self._stage(tap, act, said)

    def _held(self, tap: Tap) -> HoldTimer | Refused:
        """The open round's hold, the one the page offered (``value``: its round)."""
        r = self.session.state.open_round()
        hold = self.session.room.held(r.number) if r is not None else None
        if hold is None or tap.value != str(hold.round):
            return Refused(NOT_HELD)
        return hold

    def _give_back(self, tap: Tap) -> Outcome:
        """The offer's first answer: the held round gets back the time it had left."""
        hold = self._held(tap)
        if isinstance(hold, Refused):
            return hold
        act = ExtendTimer(hold.round, hold.seconds, self.clock() + hold.seconds, "given back")
        said = done(N_("Round %(round)s has %(seconds)s s again to choose (noted in the log)."),
                    round=hold.round, seconds=hold.seconds)
        return self._stage(tap, act, said)

    def _close_held(self, tap: Tap) -> Outcome:
        """The offer's other answer: the held round closes now, as if its time had run out."""
        hold = self._held(tap)
        if isinstance(hold, Refused):
            return hold
        return self._command(tap, CloseRound(timed_out=True),
                             done(N_("Time is up: round %(round)s is revealed."), round=hold.round))

    def _round_time(self, tap: Tap) -> Outcome:
        typed = tap.value.strip()
        if not typed.isdigit() or not (int(typed) == 0 or MIN_SECONDS <= int(typed) <= MAX_SECONDS):
            return Refused(BAD_SECONDS)
        seconds = int(typed)
        said = (
            done(N_("Rounds now last %(seconds)s s from the next one."), seconds=seconds)
            if seconds else done(N_("No round timer."))
        )
        return self._stage(tap, SetRoundSeconds(seconds), said)

    # ---- the doors, the house player --------------------------------------------------------

    def _doors(self, tap: Tap) -> Outcome:
        if tap.value == "open":
            return self._command(
                tap, OpenDoors(), done(N_("The doors are open: players can join again."))
            )
        if tap.value == "close":
            return self._command(
                tap, CloseDoors(), done(N_("The doors are closed: nobody can join."))
            )
        return Refused(NOT_UNDERSTOOD)

    def _house(self, tap: Tap) -> Outcome:
        strategy = next((key for key in NAMES if key == tap.value), None)
        if strategy is None:
            return Refused(NOT_UNDERSTOOD)
        said = done(N_("The house player is now %(name)s."), name=house([strategy]))
        return self._command(tap, SetHouse(strategy=strategy), said)

    # ---- the players ---------------------------------------------------------------------

    def _remove(self, tap: Tap) -> Outcome:
        name = self._name(tap.value)
        if name is None:
            return Refused(NOT_UNDERSTOOD)
        said = done(N_("%(name)s has left the tournament; you can bring them back."), name=name)
        return self._command(tap, Remove(pid=tap.value), said)

    def _bring_back(self, tap: Tap) -> Outcome:
        name = self._name(tap.value)
        if name is None:
            return Refused(NOT_UNDERSTOOD)
        said = done(N_("%(name)s is back in the tournament."), name=name)
        return self._command(tap, BringBack(pid=tap.value), said)

    # ---- the end, the finale, undo ---------------------------------------------------------

    def _finish(self, tap: Tap) -> Outcome:
        return self._command(tap, Finish(), done(N_("The tournament is over.")))

    def _finale(self, tap: Tap) -> Outcome:
        act = next_step(self.session.state, self.session.room.finale, to_end=tap.value == "all")
        if act is None:
            return Refused(NOTHING_TO_SHOW)
        return self._stage(tap, act, done(N_("The board shows it now.")))

    def _undo(self, tap: Tap) -> Outcome:
        """The console's undo: the move it takes back (the one the page showed, ``value``),
        and, when it opens a revealed round again, that round's timer turned off (its deadline
        has passed: the timer would close it again at once)."""
        target = self.session.history.undo_target()
        if isinstance(target, Refused):
            return target
        if tap.value != str(target.seq):
            return Refused(NOT_UNDERSTOOD)
        seen = seen_by_the_room(self.session.state, target.events)

        def change() -> Refused | Done:
            outcome = self.session.undo(by="gm", only=target.seq)
            if isinstance(outcome, Refused):
                return outcome
            reopened = seen.reopens if seen is not None else None
            if reopened is not None and self.session.room.timer(reopened) is not None:
                self.session.stage(TimerOff(reopened))
                return done(N_("Undone: round %(round)s is open again, without its timer; "
                               "close it when you decide (the log keeps it)."), round=reopened)
            if seen is not None and seen.chooser is not None:
                return done(N_("Undone (the log keeps it): %(name)s chooses again."),
                            name=seen.chooser)
            return done(N_("Undone; the history keeps it as a correction."))

        return through(self.desk, tap, change)
