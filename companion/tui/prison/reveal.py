"""The held reveal after a search: the game master shows the room each step (the warden
searches X's cell… → CAUGHT or SAFE → who worked and the nights bar → the end of the game);
each step is recorded on the stage, so the board shows it at the same moment.

The screen is built from the room's held reveal (``PrisonRoom.held``, rules/prison/room.py),
whoever started the search (the console or the warden's phone). Once the room has seen it all
and a move is made since (from the game master's phone, or another console), it closes itself:
the game has moved on."""

from __future__ import annotations

from functools import partial

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from companion.language import N_, Language, language
from companion.rules.core.phrase import Listed
from companion.rules.prison import news, phrases
from companion.rules.prison.stage import Reveal, Step
from companion.rules.prison.views import table
from companion.tui.common.follow import Redraw
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.prison import flows
from companion.tui.prison.context import Context
from companion.tui.prison.text import View, caught, squares

# What the room is shown by the next Space, step by step.
NEXT: dict[Step, str] = {
    "search": N_("Space: show the room “The warden searches %(name)s's cell…”"),
    "result": N_("Space: show the room whether %(name)s was working"),
    "night": N_("Space: show the room who worked tonight and the nights"),
    "outcome": N_("Space: show the room how the game ends"),
}


def step_lines(
    step: Step, reveal: Reveal, view: View, lang: Language | None = None
) -> tuple[str, str]:
    """(headline, line) of one step of ``reveal``; ``view`` is the table after the search."""
    _ = lang if lang is not None else language()
    done, total = view["nights_done"], view["nights_to_escape"]
    ended = phrases.outcome(view["outcome"], view["winners"]) if view["outcome"] else None
    bar = Listed((squares(done, total), phrases.nights_count(done, total)), "sentences")
    head, line = news.reveal_step(step, reveal, caught(view["today"]), bar, ended)
    said = _.say(line) if line is not None else ""
    if step == "night":  # "nobody worked: …" starts the screen's line
        said = said[:1].upper() + said[1:]
    return _.say(head), said


class RevealScreen(Screen[None]):
    BINDINGS = [
        Binding("space,enter", "next", "Show the room the next step"),
        Binding("escape", "done", "Show it all"),
        # Once the room has seen it all, the footer says what the dialog says.
        Binding("space,enter,escape", "back", "Back to the game"),
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
        now = self.ctx.session.room.stage.reveal
        return now if now is not None and now.hseq == self.hseq else None

    def on_mount(self) -> None:
        self.show()

    @on(Redraw)
    def _redraw(self) -> None:
        self.ctx.faults.guarded(self.show)()

    def show(self) -> None:
        if self._over or self._closing:
            return
        _ = words(self)
        reveal = self.reveal()
        if reveal is None:
            self.notify(_("The search was taken back; there is nothing to reveal."))
            self._close()
            return
        if not reveal.held and self._moved_on(reveal):
            self._close()  # a move made since (the game master's phone): the game screen's
            return
        view = table(self.ctx.session.state)
        lines = [step_lines(step, reveal, view, _) for step in reveal.steps]
        step = reveal.steps[reveal.shown - 1] if reveal.shown else None
        if reveal.shown == 0:
            head = _("The search of %(name)s's cell", name=reveal.prisoner)
            line = _("The room has seen nothing yet: the board waits for you.")
        else:
            head, line = lines[reveal.shown - 1]
        earlier = [
            _("%(head)s: %(line)s", head=h, line=ln)
            for h, ln in lines[1 : max(0, reveal.shown - 1)]
        ]
        if reveal.held:
            following = _(NEXT[reveal.steps[reveal.shown]], name=reveal.prisoner)
            keys = following + "\n" + _("Esc: show the room all of it at once")
        else:
            keys = _("The room has seen it all. Space: back to the game")
        self.query_one("#reveal-head", Static).update(plain(head))
        self.query_one("#reveal-line", Static).update(plain(line))
        self.query_one("#reveal-shown", Static).update(plain("\n".join(earlier)))
        self.query_one("#reveal-keys", Static).update(keys)
        self.refresh_bindings()  # the footer's keys follow: step, or back to the game
        self.set_class(step == "result" and reveal.caught, "caught")
        self.set_class(step == "result" and not reveal.caught, "safe")

    def _moved_on(self, reveal: Reveal) -> bool:
        """Whether a move was made since this search (an accusation, the end of the day: from
        the game master's phone, or another console), so that the room has left the reveal."""
        entries = self.ctx.session.history.entries
        return bool(entries) and entries[-1].seq > reveal.hseq

    def _step(self, *, to_end: bool) -> None:
        reveal = self.reveal()
        if reveal is None or not reveal.held:
            self._close()
            return
        session = self.ctx.session
        now = self.ctx.clock()
        act = session.room.next_step(to_end=to_end, at=now)
        if act is not None:
            flows.stage_change(self.app, partial(session.stage, act))
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Space and Esc step the reveal while it is held, and go back to the game after."""
        if action in ("next", "done", "back"):
            reveal = self.reveal()
            held = reveal is not None and reveal.held
            return held if action != "back" else not held
        return True

    def action_back(self) -> None:
        self._close()

    def action_next(self) -> None:
        self._step(to_end=False)

    def action_done(self) -> None:
        """Show every step at once (a slip of Esc must not hide the reveal); again: close."""
        self._step(to_end=True)
