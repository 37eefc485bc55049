"""The day, phase by phase: a banner with what to say and do, the board, and only the legal
actions in the footer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from companion.rules.core.game import Refused
from companion.rules.prison.views import gm, table
from companion.session import links
from companion.session.seats import join_url
from companion.tui.common.dialogs import ConfirmScreen, MessageScreen, PickScreen
from companion.tui.common.footer import fit_footer
from companion.tui.prison.board import Board
from companion.tui.prison.choice import ChoiceScreen
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.reveal import RevealScreen
from companion.tui.prison.text import (
    banner,
    can_accuse,
    clock,
    describe_command,
    names,
    nights_bar,
    not_interviewed,
    outcome_line,
    searches_left,
    unsearched,
)

if TYPE_CHECKING:
    from companion.tui.prison.app import ConsoleApp

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
    return Content(text).get_height(widget.styles, width)


class GameScreen(Screen[None]):
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
    ]
    # Left out of a narrow footer, in this order (Help and the palette list them all).
    FOOTER_OPTIONAL = ("balance", "address", "print", "seats", "history")

    def __init__(self) -> None:
        super().__init__()
        self.private = False
        self.private_until = 0.0
        self._private_timer: Timer | None = None
        self._texts: dict[str, str] = {}  # what each Static shows now
        self._offered: tuple[bool | None, ...] | None = None

    @property
    def console(self) -> ConsoleApp:
        return cast("ConsoleApp", self.app)

    def view(self) -> dict[str, Any]:
        return gm(self.console.session.state)

    # ---- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="topbar", markup=False)
        yield Static("", id="address-bar", markup=False)
        with Vertical(id="banner"):
            yield Static("", id="say", markup=False)
            yield Static("", id="do", markup=False)
        with Horizontal(id="main"):
            yield Board(id="board")
            yield Static("", id="side", markup=False)
        yield Static("", id="private-bar", markup=False)
        yield Footer(compact=True)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return fit_footer(
            super().active_bindings,
            self.app.size.width,
            self.app.get_key_display,
            self.FOOTER_OPTIONAL,
        )

    def on_resize(self) -> None:
        self.refresh_bindings()

    def on_mount(self) -> None:
        self.console.guarded(self.refresh_view)()
        self.query_one(Board).focus()
        if self.console.ticking:  # phones seen more than a minute ago turn "away"
            self.set_interval(15, self.console.guarded(self.refresh_view))

    def refresh_view(self) -> None:
        """Redraw from the session (called on every change, local or remote, at most every
        ~0.1 s for changes from elsewhere). Only what changed is touched: text that is the
        same is left alone, the board changes only its changed cells, and the footer is
        rebuilt only when the keys on offer change (a new phase, the last interview)."""
        view = self.view()
        b = banner(view)
        name = self.console.session.name
        bar = nights_bar(view["nights_done"], view["nights_to_escape"])
        self._text("#topbar", f"{name} · {b.title} · Nights {bar}", layout=False)
        self._text("#say", b.say)
        self._text("#do", b.do)
        self.set_class(view["phase"] == "over", "over")
        warning = self.console.address_warning()
        self._text("#address-bar", warning or "", shown=warning is not None)
        self.query_one(Board).show(
            view,
            private=self.private,
            presence=self.console.presence,
            now=self.console.clock(),
        )
        self._text("#side", self.side_text(view), layout=False)
        self._text(
            "#private-bar",
            "PRIVATE VIEW: parole tokens are on screen, and today's deals. It turns itself "
            f"off in {round(self.console.private_seconds)} s; T turns it off now."
            if self.private
            else "",
            shown=self.private,
        )
        offered = self.offered()
        if offered != self._offered:
            self._offered = offered
            self.refresh_bindings()

    def refresh_phones(self, seats: set[str]) -> None:
        """Phones were seen: only their connection cells change."""
        self.query_one(Board).show_phones(seats, self.console.presence, self.console.clock())

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
        widget.update(text, layout=layout)

    def offered(self) -> tuple[bool | None, ...]:
        """What check_action says of each phase's action now (the footer shows these)."""
        return tuple(self.check_action(action, ()) for action in PHASE_ACTIONS)

    def side_text(self, view: dict[str, Any]) -> str:
        phase = view["phase"]
        today = view["today"]
        lines: list[str] = []
        if phase == "planning":
            waiting = [n for n in view["active"] if n not in view["submitted"]]
            lines.append(f"Chosen: {len(view['submitted'])} of {len(view['active'])}")
            lines.append(f"Waiting for: {names(waiting)}" if waiting else "Everyone has chosen.")
            lines.append("")
            lines.append("Choices stay sealed until the search.")
        elif phase == "interviews":
            queue = not_interviewed(view)
            lines.append("Queue: " + (", ".join(queue) if queue else "everyone was seen"))
            lines.append(f"Seen: {names(today['interviewed'])}" if today["interviewed"] else "")
            limit = view["rules"]["parole_tokens_per_day"]
            if self.private:
                made = limit - view["deals_left_today"]
                lines.append(f"Deals today: {made} of {limit}")
                if view["deals_left_today"] == 0:
                    lines.append("Deal limit reached")
            else:
                # today's count would tell the room who took a deal (it saw who went in)
                lines.append(f"Deals: at most {limit} a day (T: today's count)")
            lines.append(f"Interviews: {clock(self.console.interview_seconds())} each")
        elif phase == "search":
            lines.append(f"Cells left to search today: {searches_left(view)}")
        for s in today["searches"]:
            lines.append(f"Searched {s['prisoner']}: {'CAUGHT' if s['caught'] else 'safe'}")
        for a in today["accusations"]:
            lines.append(f"{a['accuser']} accused {a['accused']}: {a['result']}")
        if phase == "accusations":
            who = can_accuse(view)
            lines.append(f"May still accuse: {names(who)}")
        if phase == "over":
            lines.append(outcome_line(view))
        base = links.current_base(self.console.session)
        if base and phase != "over":
            lines += ["", f"No QR code? Type the seat code at {join_url(base)}"]
        wrong = self.console.wrong_links()
        if wrong:
            lines += ["", *wrong]
        return "\n".join(line for line in lines if line is not None)

    # ---- what is offered ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in PHASE_ACTIONS:
            return True
        view = table(self.console.session.state)
        if view["phase"] not in PHASE_ACTIONS[action]:
            return False
        if action == "interview" and not not_interviewed(view):
            return None
        if action == "accuse" and not can_accuse(view):
            return None
        return True

    # ---- planning -------------------------------------------------------------------------

    def action_choose(self) -> None:
        view = self.view()
        options = [
            (n, f"{n}  ({'chosen' if n in view['submitted'] else 'waiting'})")
            for n in view["active"]
        ]
        first = next((i for i, (n, _) in enumerate(options) if n not in view["submitted"]), 0)
        self.app.push_screen(
            PickScreen("Whose choice?", options, "The next screen is private.", first),
            self.console.guarded(self._choose_for),
        )

    def _choose_for(self, name: str | None) -> None:
        if name is None:
            return

        def entered(choice: str | None) -> None:
            if choice is None:
                return
            if self.console.submit({"do": "choose", "prisoner": name, "choice": choice}):
                self.notify(f"{name}'s choice is recorded and sealed.")

        self.app.push_screen(ChoiceScreen(name), self.console.guarded(entered))

    def action_close_planning(self) -> None:
        view = self.view()
        waiting = [n for n in view["active"] if n not in view["submitted"]]

        def close(yes: bool | None) -> None:
            if yes:
                self.console.submit({"do": "close_planning"})

        if not waiting:
            close(True)
            return
        self.app.push_screen(
            ConfirmScreen(
                "Close planning?",
                f"{names(waiting)} {'has' if len(waiting) == 1 else 'have'} not chosen and "
                "will rest tonight.",
                "Close planning",
            ),
            self.console.guarded(close),
        )

    # ---- interviews -----------------------------------------------------------------------

    def action_interview(self) -> None:
        view = self.view()
        queue = not_interviewed(view)
        if not queue:
            return
        self.app.push_screen(
            PickScreen("Who comes in?", [(n, n) for n in queue], "The first in the queue is lit."),
            self.console.guarded(self._interview),
        )

    def _interview(self, name: str | None) -> None:
        if name is None:
            return
        view = self.view()

        def decided(deal: bool | None) -> None:
            if deal is None:
                return
            if self.console.submit({"do": "interview", "prisoner": name, "deal": deal}):
                self.notify(f"{name}'s interview is recorded.")
                after = table(self.console.session.state)
                if after["outcome"] == "parole":
                    self.app.push_screen(MessageScreen("GAME OVER", outcome_line(after)))

        self.app.push_screen(
            InterviewScreen(
                name,
                self.console.interview_seconds(),
                view["deals_left_today"],
                view["rules"]["parole_tokens_per_day"],
                ticking=self.console.ticking,
            ),
            self.console.guarded(decided),
        )

    # ---- search ---------------------------------------------------------------------------

    def action_search(self) -> None:
        view = self.view()
        queue = not_interviewed(view) if view["phase"] == "interviews" else []
        if queue:
            self.app.push_screen(
                ConfirmScreen(
                    "Start the search?",
                    f"The search ends the interviews; {names(queue)} "
                    f"{'was' if len(queue) == 1 else 'were'} not interviewed (no deal).",
                    "Search",
                ),
                self.console.guarded(lambda yes: self._pick_cell() if yes else None),
            )
            return
        self._pick_cell()

    def _pick_cell(self) -> None:
        view = self.view()
        cells = unsearched(view)
        self.app.push_screen(
            PickScreen("Which cell does the warden search?", [(n, f"{n}'s cell") for n in cells]),
            self.console.guarded(self._search),
        )

    def _search(self, name: str | None) -> None:
        if name is None:
            return
        if self.console.submit({"do": "search", "prisoner": name}):
            self.app.push_screen(RevealScreen(table(self.console.session.state), name))

    # ---- accusations and the end of the day -----------------------------------------------

    def action_accuse(self) -> None:
        view = self.view()
        accusers = can_accuse(view)
        if not accusers:
            return
        self.app.push_screen(
            PickScreen("Who accuses?", [(n, n) for n in accusers], "Only holders of a shiv."),
            self.console.guarded(self._accused_by),
        )

    def _accused_by(self, accuser: str | None) -> None:
        if accuser is None:
            return
        others = [n for n in self.view()["active"] if n != accuser]

        def accuse(accused: str | None) -> None:
            if accused is None:
                return
            if not self.console.submit({"do": "accuse", "accuser": accuser, "accused": accused}):
                return
            result = table(self.console.session.state)["today"]["accusations"][-1]
            if result["result"] == "shived":
                text = f"{accused} had taken a deal: {accused} is SHIVED and out of the game."
            else:
                text = f"{accused} never took a deal: {accuser}'s shiv passes to {accused}."
            self.app.push_screen(MessageScreen("The accusation", text))

        self.app.push_screen(
            PickScreen(f"{accuser} accuses whom?", [(n, n) for n in others]),
            self.console.guarded(accuse),
        )

    def action_end_day(self) -> None:
        view = self.view()
        limit = view["rules"]["max_days"]
        last = limit is not None and view["day"] >= limit
        question = (
            f"Day {view['day']} is the last day: ending it ends the game (time is up)."
            if last
            else f"Day {view['day']} ends and day {view['day'] + 1} starts with planning."
        )

        def end(yes: bool | None) -> None:
            if yes:
                self.console.submit({"do": "end_day"})

        self.app.push_screen(
            ConfirmScreen("End the day?", question, "End the day"), self.console.guarded(end)
        )

    # ---- everywhere -----------------------------------------------------------------------

    def action_private(self) -> None:
        self.private = not self.private
        if self._private_timer is not None:
            self._private_timer.stop()
            self._private_timer = None
        if self.private:
            self.private_until = self.console.clock() + self.console.private_seconds
            self._private_timer = self.set_timer(self.console.private_seconds, self.private_due)
        self.console.guarded(self.refresh_view)()

    def private_due(self) -> None:
        """The private view's timer: off once the console's clock says its time is up (if the
        timer fires early, it waits for the rest)."""
        self._private_timer = None
        if not self.private:
            return
        left = self.private_until - self.console.clock()
        if left > 0:
            self._private_timer = self.set_timer(left, self.private_due)
            return
        self.private_off()

    def private_off(self) -> None:
        self.private = False
        if self._private_timer is not None:
            self._private_timer.stop()
        self._private_timer = None
        self.console.guarded(self.refresh_view)()

    def action_undo(self) -> None:
        session = self.console.session
        target = session.history.undo_target()
        if isinstance(target, Refused):
            self.notify(target.reason, severity="warning")
            return
        what = describe_command(session.kind.engine.command_to_dict(target.command))

        def undo(yes: bool | None) -> None:
            if yes:
                self.console.undo(only=target.seq)  # not another move that came in meanwhile

        self.app.push_screen(
            ConfirmScreen(
                "Undo?",
                f"Take back {what}? The history keeps it as a correction; "
                "press Ctrl+Z again to go further back.",
                "Undo",
            ),
            self.console.guarded(undo),
        )

    def action_history(self) -> None:
        self.console.show_history()

    def action_seats(self) -> None:
        self.console.show_seats()

    def action_help(self) -> None:
        self.console.show_help()

    def action_print(self) -> None:
        self.console.show_print()

    def action_address(self) -> None:
        self.console.show_address()

    def action_balance(self) -> None:
        self.console.show_balance()

    def action_export(self) -> None:
        self.console.export_report()

    async def action_quit_console(self) -> None:
        await self.console.action_quit()
