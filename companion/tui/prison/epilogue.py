"""The epilogue on the console: after the game, the game master steps the room through what
really happened (a night a step, then the end), held like a search's reveal: Space shows the
room the next step, Esc all of it. Each step is recorded on the stage (``ShowEpilogue``), so
the board shows it at the same moment and a resumed console comes back to it.

The screen is built from the room (``PrisonRoom.stage.epilogue`` and the rules' epilogue,
rules/prison/epilogue.py), said in the game master's language."""

from __future__ import annotations

from functools import partial

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from companion.rules.prison.epilogue import epilogue_view, steps
from companion.rules.prison.epilogue_phrases import step_phrases
from companion.tui.common.follow import Redraw
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.prison import flows
from companion.tui.prison.context import Context


class EpilogueScreen(Screen[None]):
    BINDINGS = [
        Binding("space,enter", "next", "Show the room the next step"),
        Binding("escape", "done", "Show it all"),
        Binding("space,enter,escape", "close", "Back to the game"),
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(classes="epilogue")
        self.ctx = ctx
        self._over = False

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="epilogue-box"):
            yield Static("", id="epilogue-step", markup=False)
            yield Static("", id="epilogue-head", markup=False)
            yield Static("", id="epilogue-lines", markup=False)
            yield Static("", id="epilogue-keys", markup=False)
        yield Keys()

    def on_mount(self) -> None:
        self.show()

    @on(Redraw)
    def _redraw(self) -> None:
        self.ctx.faults.guarded(self.show)()

    def show(self) -> None:
        if self._over:
            return
        _ = words(self)
        room = self.ctx.session.room
        view = epilogue_view(room.game, room.stage.epilogue)
        if view is None:  # the end was taken back
            self.notify(_("The game is not over any more: there is no epilogue to show."))
            self._close()
            return
        if view["shown"] == 0:
            step = _.n_(
                "What really happened, in %(count)s step",
                "What really happened, in %(count)s steps",
                view["steps"],
            )
            head = _("What really happened")
            lines = _("The room has seen nothing yet: the board waits for you.")
        else:
            step = _(
                "What really happened: %(shown)s of %(steps)s",
                shown=view["shown"],
                steps=view["steps"],
            )
            said, told = step_phrases(view)[-1]
            head, lines = _.say(said), "\n".join(_.say(line) for line in told)
        if not view["held"]:
            keys = _("The room has seen it all. Space: back to the game")
        elif view["shown"] + 1 == view["steps"]:
            keys = _("Space: show the room how the game ends") + "\n"
            keys += _("Esc: show the room all of it at once")
        else:
            keys = _("Space: show the room the next night") + "\n"
            keys += _("Esc: show the room all of it at once")
        self.query_one("#epilogue-step", Static).update(plain(step))
        self.query_one("#epilogue-head", Static).update(plain(head))
        self.query_one("#epilogue-lines", Static).update(plain(lines))
        self.query_one("#epilogue-keys", Static).update(plain(keys))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Space and Esc step while steps are left; once the room has seen it all, they go
        back to the game (and the footer says so)."""
        if action not in ("next", "done", "close"):
            return True
        room = self.ctx.session.room
        left = room.stage.epilogue < steps(room.game)
        return left if action != "close" else not left

    def action_close(self) -> None:
        self._close()

    def on_screen_resume(self) -> None:
        self.ctx.faults.guarded(self.show)()

    def _step(self, *, to_end: bool) -> None:
        session = self.ctx.session
        act = session.room.epilogue_next(to_end=to_end, at=self.ctx.clock())
        if act is None:
            self._close()
            return
        flows.stage_change(self.app, partial(session.stage, act))
        self.show()
        self.refresh_bindings()

    def _close(self) -> None:
        if self._over or not self.is_active:
            return
        self._over = True
        self.dismiss(None)

    def action_next(self) -> None:
        self._step(to_end=False)

    def action_done(self) -> None:
        """Show every step at once; again: close."""
        self._step(to_end=True)
