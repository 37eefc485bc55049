"""The day's moves from the game screen, phase by phase: the secret choices, closing planning,
the interviews, the search and its reveal, the accusations, the end of the day and the undo.

Each is a flow the game screen runs in a worker (:mod:`.game`): it asks
(``push_screen_wait``), then acts through the session; an error in it is reported and the
console goes on.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from textual.app import App
from textual.screen import Screen

from companion.language import Language
from companion.rules.core.game import Refused
from companion.rules.prison.asked import close_planning_asked, end_day_asked, search_asked
from companion.rules.prison.commands import (
    Accuse,
    Choose,
    ClosePlanning,
    EndDay,
    Interview,
    PrisonCommand,
    Search,
)
from companion.rules.prison.phrases import accused as accusation_said
from companion.rules.prison.stage import CallIn, LimitPlanning, SendOut
from companion.rules.prison.views import gm, table
from companion.tui.common.dialogs import ConfirmScreen, MessageScreen, PickScreen, TextScreen
from companion.tui.common.language import words
from companion.tui.prison import flows
from companion.tui.prison.choice import ChoiceScreen
from companion.tui.prison.context import Context
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.named import NamedScreen
from companion.tui.prison.reveal import RevealScreen
from companion.tui.prison.text import (
    View,
    can_accuse,
    minutes_seconds,
    not_interviewed,
    outcome_line,
    parse_duration,
    unsearched,
)
from companion.tui.prison.told import ended_elsewhere, undo_question

PLANNING_EXTEND_SECONDS = 60


def _limit_problem(text: str, lang: Language) -> str | None:
    _ = lang
    if text.strip() and parse_duration(text) is None:
        return _(
            "Give a length between 10 seconds and an hour, such as 300, 5:00 or 5m, or none."
        )
    return None


class DayMoves:
    """The game screen's moves, each a flow over ``screen`` (which draws the day and runs them
    in its workers: :mod:`.game`)."""

    def __init__(self, screen: Screen[Any], ctx: Context) -> None:
        self.screen = screen
        self.ctx = ctx
        self.interviewing = False  # an interview flow is running (its pick or countdown)

    @property
    def app(self) -> App[Any]:
        return self.screen.app

    def notify(self, message: str, **how: Any) -> None:
        self.screen.notify(message, **how)

    def view(self) -> View:
        return gm(self.ctx.session.state)

    def submit(self, command: PrisonCommand) -> bool:
        return flows.submit(self.app, self.ctx, command)

    # ---- planning -------------------------------------------------------------------------

    async def choose(self) -> None:
        _ = words(self.screen)
        with self.ctx.faults.caught():
            view = self.view()
            options = [
                (
                    n,
                    _("%(name)s  (chosen)", name=n)
                    if n in view["submitted"]
                    else _("%(name)s  (waiting)", name=n),
                )
                for n in view["active"]
            ]
            first = next(
                (i for i, (n, __) in enumerate(options) if n not in view["submitted"]), 0
            )
            name = await self.app.push_screen_wait(
                PickScreen(_("Whose choice?"), options, _("The next screen is private."), first)
            )
            if name is None:
                return
            choice = await self.app.push_screen_wait(ChoiceScreen(name))
            if choice is None:
                return
            if self.submit(Choose(prisoner=name, choice=choice)):
                self.notify(_("%(name)s's choice is recorded and sealed.", name=name))

    async def close_planning(self, *, time_up: bool) -> None:
        """Close planning (asks first when someone has not chosen, or when the planning time
        is up and the console is asking)."""
        _ = words(self.screen)
        with self.ctx.faults.caught():
            view = self.view()
            if view["phase"] != "planning":
                return
            question = close_planning_asked(table(self.ctx.session.state), time_up=time_up)
            if question is not None and not await self.app.push_screen_wait(
                ConfirmScreen(
                    _.say(question[0]),
                    _.say(question[1]),
                    _.pgettext("the answer yes", "Close planning"),
                    asked=partial(self._waiting_words, _),  # a phone's choice meanwhile
                )
            ):
                return
            self.submit(ClosePlanning())

    def _waiting_words(self, _: Language) -> str:
        """Who has not chosen yet (and so rests), or that everyone has: the question's body
        as it stands now (a phone may choose while it is open)."""
        question = close_planning_asked(table(self.ctx.session.state), time_up=True)
        assert question is not None  # asked at the time's end, it always has a body
        return _.say(question[1])

    async def planning_limit(self) -> None:
        """Set, change or lift the planning time limit (the board and phones count down)."""
        _ = words(self.screen)
        with self.ctx.faults.caught():
            session = self.ctx.session
            now_on = session.room.stage.planning
            value = minutes_seconds(math.ceil(now_on.remaining(self.ctx.clock()))) if now_on else ""
            text = await self.app.push_screen_wait(
                TextScreen(
                    _("Planning time limit"),
                    _(
                        "How long until planning closes (seconds, or minutes:seconds)? "
                        "Leave it empty for no limit."
                    ),
                    value,
                    partial(_limit_problem, lang=_),
                )
            )
            if text is None or table(session.state)["phase"] != "planning":
                return
            seconds = parse_duration(text) if text.strip() else None
            limit = partial(session.stage, LimitPlanning(self.ctx.clock(), seconds))
            if flows.stage_change(self.app, limit):
                self.notify(
                    _(
                        "Planning closes in %(time)s; at zero you are asked to close it.",
                        time=minutes_seconds(seconds),
                    )
                    if seconds is not None
                    else _("Planning has no time limit.")
                )

    # ---- interviews: one flow with the stage ---------------------------------------------

    def start_interview(self) -> bool:
        """Whether an interview flow may start now (one at a time): if so, it is running from
        now on, until :meth:`interview` ends."""
        if self.interviewing:
            return False
        self.interviewing = True
        return True

    async def interview(self) -> None:
        """Call the next prisoner in (or show again the interview in progress), once
        :meth:`start_interview` said yes."""
        try:
            with self.ctx.faults.caught():
                await self._hold_interview()
        finally:
            self.interviewing = False

    async def _hold_interview(self) -> None:
        _ = words(self.screen)
        session = self.ctx.session
        now_in = session.room.stage.interview
        if now_in is None:
            queue = not_interviewed(self.view())
            if not queue:
                return
            name = await self.app.push_screen_wait(
                PickScreen(
                    _("Who comes in?"), [(n, n) for n in queue], _("The first in the queue is lit.")
                )
            )
            if name is None or name not in not_interviewed(self.view()):
                return
            call_in = partial(
                session.stage, CallIn(self.ctx.clock(), name, self.ctx.interview_seconds())
            )
            if not flows.stage_change(self.app, call_in):
                return
        else:
            name = now_in.prisoner
        while True:
            ending = await self.app.push_screen_wait(InterviewScreen(self.ctx, name))
            if ending == "elsewhere":
                self.notify(ended_elsewhere(session, name, _), timeout=10)
                return
            if name in table(session.state)["today"]["interviewed"]:
                # the warden's phone recorded it while they talked: the room's interview ends
                # now, by the game master's hand, as one without a deal does
                flows.stage_change(self.app, partial(session.stage, SendOut(self.ctx.clock())))
                self.notify(ended_elsewhere(session, name, _), timeout=10)
                after = table(session.state)
                if after["outcome"] == "parole":
                    self.app.push_screen(MessageScreen(_("GAME OVER"), outcome_line(after, _)))
                return
            if ending == "cancel":
                flows.stage_change(self.app, partial(session.stage, SendOut(self.ctx.clock())))
                self.notify(
                    _("Nothing is recorded for %(name)s; they may come in again.", name=name)
                )
                return
            named: list[str] = []
            if ending == "deal":
                others = [n for n in self.view()["active"] if n != name]
                ticked = await self.app.push_screen_wait(NamedScreen(name, others))
                if ticked is None:
                    continue  # back to the interview: nothing recorded yet
                named = ticked
            if self.submit(Interview(prisoner=name, deal=ending == "deal", named=named)):
                # the room sees the interview end now, with its record (rules/prison/room.py)
                flows.stage_change(self.app, partial(session.stage, SendOut(self.ctx.clock())))
                self.notify(_("%(name)s's interview is recorded.", name=name))
                after = table(session.state)
                if after["outcome"] == "parole":
                    self.app.push_screen(MessageScreen(_("GAME OVER"), outcome_line(after, _)))
                return
            if session.room.stage.interview is None:
                return  # refused and over (recorded elsewhere meanwhile): the notice says so

    # ---- search and its held reveal -------------------------------------------------------

    async def search(self) -> None:
        _ = words(self.screen)
        with self.ctx.faults.caught():
            question = search_asked(table(self.ctx.session.state))
            if question is not None and not await self.app.push_screen_wait(
                ConfirmScreen(_.say(question[0]), _.say(question[1]), _("Search"))
            ):
                return
            cells = unsearched(self.view())
            name = await self.app.push_screen_wait(
                PickScreen(
                    _("Which cell does the warden search?"),
                    [(n, _("%(name)s's cell", name=n)) for n in cells],
                )
            )
            if name is None:
                return
            if self.submit(Search(prisoner=name)):
                self.open_reveal()

    def open_reveal(self) -> None:
        """Open the held reveal, unless it is open already (one search, one reveal screen);
        only over the game screen (see ``follow_stage``)."""
        reveal = self.ctx.session.room.held
        if reveal is None or not self.screen.is_active:
            return
        if any(isinstance(s, RevealScreen) for s in self.app.screen_stack):
            return
        self.app.push_screen(RevealScreen(self.ctx, reveal))

    # ---- accusations and the end of the day -----------------------------------------------

    async def accuse(self) -> None:
        _ = words(self.screen)
        with self.ctx.faults.caught():
            accusers = can_accuse(self.view())
            if not accusers:
                return
            accuser = await self.app.push_screen_wait(
                PickScreen(
                    _("Who accuses?"), [(n, n) for n in accusers], _("Only holders of a shiv.")
                )
            )
            if accuser is None:
                return
            others = [n for n in self.view()["active"] if n != accuser]
            accused = await self.app.push_screen_wait(
                PickScreen(_("%(name)s accuses whom?", name=accuser), [(n, n) for n in others])
            )
            if accused is None:
                return
            if not self.submit(Accuse(accuser=accuser, accused=accused)):
                return
            result = table(self.ctx.session.state)["today"]["accusations"][-1]
            text = _.say(accusation_said(accuser, accused, result["result"]))
            self.app.push_screen(MessageScreen(_("The accusation"), text))

    async def end_day(self) -> None:
        _ = words(self.screen)
        with self.ctx.faults.caught():
            title, question = end_day_asked(table(self.ctx.session.state))
            if await self.app.push_screen_wait(
                ConfirmScreen(_.say(title), _.say(question), _("End the day"))
            ):
                self.submit(EndDay())

    # ---- undo -----------------------------------------------------------------------------

    async def undo(self) -> None:
        _ = words(self.screen)
        with self.ctx.faults.caught():
            session = self.ctx.session
            target = session.history.undo_target()
            if isinstance(target, Refused):
                self.notify(words(self.screen).refused(target), severity="warning")
                return
            title, question = undo_question(session, target.seq, _)
            if await self.app.push_screen_wait(ConfirmScreen(title, question, _("Undo"))):
                # not another move that came in meanwhile
                flows.undo(self.app, self.ctx, only=target.seq)
