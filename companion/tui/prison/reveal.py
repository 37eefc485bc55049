"""The held reveal after a search: the game master shows the room each step (the warden
searches X's cell… → CAUGHT or SAFE → who worked and the nights bar → the end of the game);
each step is recorded on the stage, so the board shows it at the same moment.

The screen is built from the stage's held reveal (:func:`companion.session.stage.held_reveal`),
whoever started the search (the console or the warden's phone)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from companion.rules.core.words import plural
from companion.rules.prison.views import table
from companion.session import stage
from companion.session.stage import Reveal, Step
from companion.tui.common.follow import Redraw
from companion.tui.common.footer import Keys
from companion.tui.prison import flows
from companion.tui.prison.context import Context
from companion.tui.prison.text import View, night_work, nights_bar, outcome_line

# What the room is shown by the next Space, step by step.
NEXT: dict[Step, str] = {
    "search": "“The warden searches {name}'s cell…”",
    "result": "whether {name} was working",
    "night": "who worked tonight and the nights",
    "outcome": "how the game ends",
}


def step_lines(step: Step, reveal: Reveal, view: View) -> tuple[str, str]:
    """(headline, line) of one step of ``reveal``; ``view`` is the table after the search."""
    searched = reveal.prisoner
    if step == "search":
        return (f"The warden searches {searched}'s cell…", "")
    if step == "result":
        if reveal.caught:
            return ("CAUGHT", f"{searched} was working, and is out of the game.")
        return ("SAFE", f"{searched} was not working.")
    if step == "night":
        workers = list(reveal.workers or ())
        worked = night_work({"workers": workers, "searches": view["today"]["searches"]})
        line = f"{worked[0].upper()}{worked[1:]}: {plural(len(workers), 'night')} more. "
        bar = nights_bar(view["nights_done"], view["nights_to_escape"])
        return ("The night's work", f"{line}Nights {bar}")
    return ("GAME OVER", outcome_line(view))


def reveal_steps(view: View, searched: str) -> list[tuple[str, str]]:
    """(headline, line) for each step of the search of ``searched``, from the table view right
    after it (every step shown)."""
    today = view["today"]
    result = next(s for s in reversed(today["searches"]) if s["prisoner"] == searched)
    steps: list[Step] = ["search", "result"]
    if today["revealed"]:
        steps.append("night")
    if view["outcome"]:
        steps.append("outcome")
    reveal = Reveal(
        hseq=0,
        prisoner=searched,
        caught=bool(result["caught"]),
        workers=tuple(today["workers"]) if today["revealed"] else None,
        outcome=view["outcome"],
        winners=tuple(view["winners"]),
        steps=tuple(steps),
        shown=len(steps),
    )
    return [step_lines(step, reveal, view) for step in steps]


class RevealScreen(Screen[None]):
    BINDINGS = [
        Binding("space,enter", "next", "Show the room the next step"),
        Binding("escape", "done", "Show it all"),
    ]

    def __init__(self, ctx: Context, reveal: Reveal) -> None:
        super().__init__(classes="reveal")
        self.ctx = ctx
        self.hseq = reveal.hseq
        self._over = False
        self._closing = False  # to close once on top again

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="reveal-box"):
            yield Static("", id="reveal-head", markup=False)
            yield Static("", id="reveal-line", markup=False)
            yield Static("", id="reveal-shown", markup=False)
            yield Static("", id="reveal-keys", markup=False)
        yield Keys()

    def reveal(self) -> Reveal | None:
        """This search's reveal on the stage (``None``: the search was taken back)."""
        now = stage.stage_of(self.ctx.session).reveal
        return now if now is not None and now.hseq == self.hseq else None

    def on_mount(self) -> None:
        self.show()

    @on(Redraw)
    def _redraw(self) -> None:
        self.ctx.faults.guarded(self.show)()

    def show(self) -> None:
        if self._over or self._closing:
            return
        reveal = self.reveal()
        if reveal is None:
            self.notify("The search was taken back; there is nothing to reveal.")
            self._close()
            return
        view = table(self.ctx.session.state)
        lines = [step_lines(step, reveal, view) for step in reveal.steps]
        if reveal.shown == 0:
            head = f"The search of {reveal.prisoner}'s cell"
            line = "The room has seen nothing yet: the board waits for you."
        else:
            head, line = lines[reveal.shown - 1]
        earlier = [f"{h}: {ln}" for h, ln in lines[1 : max(0, reveal.shown - 1)]]
        if reveal.held:
            following = NEXT[reveal.steps[reveal.shown]].format(name=reveal.prisoner)
            keys = f"Space: show the room {following}\nEsc: show the room all of it at once"
        else:
            keys = "The room has seen it all. Space: back to the game"
        self.query_one("#reveal-head", Static).update(head)
        self.query_one("#reveal-line", Static).update(line)
        self.query_one("#reveal-shown", Static).update("\n".join(earlier))
        self.query_one("#reveal-keys", Static).update(keys)
        self.set_class(head == "CAUGHT", "caught")
        self.set_class(head == "SAFE", "safe")

    def _step(self, *, to_end: bool) -> None:
        reveal = self.reveal()
        if reveal is None or not reveal.held:
            self._close()
            return
        session = self.ctx.session
        now = self.ctx.clock()
        flows.stage_change(self.app, lambda: stage.step_reveal(session, to_end=to_end, now=now))
        self.show()

    def _close(self) -> None:
        """Close; covered (the palette on top), once it is on top again (a dismiss closes the
        top screen, whichever it is)."""
        if self._over:
            return
        if not self.is_active:
            self._closing = True
            return
        self._over = True
        self.dismiss(None)

    def on_screen_resume(self) -> None:
        if self._closing:
            self._close()

    def action_next(self) -> None:
        self._step(to_end=False)

    def action_done(self) -> None:
        """Show every step at once (a slip of Esc must not hide the reveal); again: close."""
        self._step(to_end=True)
