"""The day's moves from the game screen, phase by phase: the secret choices, closing planning,
the interviews, the search and its reveal, the accusations, the end of the day and the undo.

Each is a flow in a worker: it asks (``push_screen_wait``), then acts through the session; an
error in it is reported and the console goes on.
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.screen import Screen

from companion.rules.core.game import Refused
from companion.rules.prison.views import gm, table
from companion.tui.common.dialogs import ConfirmScreen, MessageScreen, PickScreen
from companion.tui.prison import flows
from companion.tui.prison.choice import ChoiceScreen
from companion.tui.prison.context import Context
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.reveal import RevealScreen
from companion.tui.prison.text import (
    View,
    can_accuse,
    describe_command,
    names,
    not_interviewed,
    outcome_line,
    unsearched,
)


class DayActions(Screen[None]):
    """The game screen's moves (the screen itself draws the day: :mod:`.game`)."""

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.ctx = ctx

    def view(self) -> View:
        return gm(self.ctx.session.state)

    def submit(self, command: dict[str, Any]) -> bool:
        return flows.submit(self.app, self.ctx, command)

    # ---- planning -------------------------------------------------------------------------

    @work(group="flow")
    async def action_choose(self) -> None:
        with self.ctx.faults.caught():
            view = self.view()
            options = [
                (n, f"{n}  ({'chosen' if n in view['submitted'] else 'waiting'})")
                for n in view["active"]
            ]
            first = next((i for i, (n, _) in enumerate(options) if n not in view["submitted"]), 0)
            name = await self.app.push_screen_wait(
                PickScreen("Whose choice?", options, "The next screen is private.", first)
            )
            if name is None:
                return
            choice = await self.app.push_screen_wait(ChoiceScreen(name))
            if choice is None:
                return
            if self.submit({"do": "choose", "prisoner": name, "choice": choice}):
                self.notify(f"{name}'s choice is recorded and sealed.")

    @work(group="flow")
    async def action_close_planning(self) -> None:
        with self.ctx.faults.caught():
            view = self.view()
            waiting = [n for n in view["active"] if n not in view["submitted"]]
            if waiting and not await self.app.push_screen_wait(
                ConfirmScreen(
                    "Close planning?",
                    f"{names(waiting)} {'has' if len(waiting) == 1 else 'have'} not "
                    "chosen and will rest tonight.",
                    "Close planning",
                )
            ):
                return
            self.submit({"do": "close_planning"})

    # ---- interviews -----------------------------------------------------------------------

    @work(group="flow")
    async def action_interview(self) -> None:
        with self.ctx.faults.caught():
            queue = not_interviewed(self.view())
            if not queue:
                return
            name = await self.app.push_screen_wait(
                PickScreen(
                    "Who comes in?", [(n, n) for n in queue], "The first in the queue is lit."
                )
            )
            if name is None:
                return
            view = self.view()
            deal = await self.app.push_screen_wait(
                InterviewScreen(
                    name,
                    self.ctx.interview_seconds(),
                    view["deals_left_today"],
                    view["rules"]["parole_tokens_per_day"],
                    ticking=self.ctx.ticking,
                )
            )
            if deal is None:
                return
            if self.submit({"do": "interview", "prisoner": name, "deal": deal}):
                self.notify(f"{name}'s interview is recorded.")
                after = table(self.ctx.session.state)
                if after["outcome"] == "parole":
                    self.app.push_screen(MessageScreen("GAME OVER", outcome_line(after)))

    # ---- search ---------------------------------------------------------------------------

    @work(group="flow")
    async def action_search(self) -> None:
        with self.ctx.faults.caught():
            view = self.view()
            queue = not_interviewed(view) if view["phase"] == "interviews" else []
            if queue and not await self.app.push_screen_wait(
                ConfirmScreen(
                    "Start the search?",
                    f"The search ends the interviews; {names(queue)} "
                    f"{'was' if len(queue) == 1 else 'were'} not interviewed (no deal).",
                    "Search",
                )
            ):
                return
            cells = unsearched(self.view())
            name = await self.app.push_screen_wait(
                PickScreen(
                    "Which cell does the warden search?", [(n, f"{n}'s cell") for n in cells]
                )
            )
            if name is None:
                return
            if self.submit({"do": "search", "prisoner": name}):
                self.app.push_screen(RevealScreen(table(self.ctx.session.state), name))

    # ---- accusations and the end of the day -----------------------------------------------

    @work(group="flow")
    async def action_accuse(self) -> None:
        with self.ctx.faults.caught():
            accusers = can_accuse(self.view())
            if not accusers:
                return
            accuser = await self.app.push_screen_wait(
                PickScreen("Who accuses?", [(n, n) for n in accusers], "Only holders of a shiv.")
            )
            if accuser is None:
                return
            others = [n for n in self.view()["active"] if n != accuser]
            accused = await self.app.push_screen_wait(
                PickScreen(f"{accuser} accuses whom?", [(n, n) for n in others])
            )
            if accused is None:
                return
            if not self.submit({"do": "accuse", "accuser": accuser, "accused": accused}):
                return
            result = table(self.ctx.session.state)["today"]["accusations"][-1]
            if result["result"] == "shived":
                text = f"{accused} had taken a deal: {accused} is SHIVED and out of the game."
            else:
                text = f"{accused} never took a deal: {accuser}'s shiv passes to {accused}."
            self.app.push_screen(MessageScreen("The accusation", text))

    @work(group="flow")
    async def action_end_day(self) -> None:
        with self.ctx.faults.caught():
            view = self.view()
            limit = view["rules"]["max_days"]
            last = limit is not None and view["day"] >= limit
            question = (
                f"Day {view['day']} is the last day: ending it ends the game (time is up)."
                if last
                else f"Day {view['day']} ends and day {view['day'] + 1} starts with planning."
            )
            if await self.app.push_screen_wait(
                ConfirmScreen("End the day?", question, "End the day")
            ):
                self.submit({"do": "end_day"})

    # ---- undo -----------------------------------------------------------------------------

    @work(group="flow")
    async def action_undo(self) -> None:
        with self.ctx.faults.caught():
            session = self.ctx.session
            target = session.history.undo_target()
            if isinstance(target, Refused):
                self.notify(target.reason, severity="warning")
                return
            what = describe_command(session.kind.engine.command_to_dict(target.command))
            if await self.app.push_screen_wait(
                ConfirmScreen(
                    "Undo?",
                    f"Take back {what}? The history keeps it as a correction; "
                    "press Ctrl+Z again to go further back.",
                    "Undo",
                )
            ):
                # not another move that came in meanwhile
                flows.undo(self.app, self.ctx, only=target.seq)
