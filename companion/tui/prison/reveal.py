"""The reveal moment after a search: caught or safe, then who worked and the nights bar."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from companion.rules.core.words import plural
from companion.tui.prison.text import View, night_work, nights_bar, outcome_line


def reveal_steps(view: View, searched: str) -> list[tuple[str, str]]:
    """(headline, line) for each moment, from the table view right after the search."""
    today = view["today"]
    result = next(s for s in reversed(today["searches"]) if s["prisoner"] == searched)
    steps = [(f"The warden searches {searched}'s cell…", "Space: reveal")]
    if result["caught"]:
        steps.append(("CAUGHT", f"{searched} was working, and is out of the game."))
    else:
        steps.append(("SAFE", f"{searched} was not working."))
    if today["revealed"]:
        worked = night_work(today)
        line = f"{worked[0].upper()}{worked[1:]}: {plural(len(today['workers']), 'night')} more. "
        bar = nights_bar(view["nights_done"], view["nights_to_escape"])
        steps.append(("The night's work", f"{line}Nights {bar}"))
    if view["outcome"]:
        steps.append(("GAME OVER", outcome_line(view)))
    return steps


class RevealScreen(Screen[None]):
    BINDINGS = [
        Binding("space,enter", "next", "Reveal / next"),
        Binding("escape", "done", "Skip to the end"),
    ]

    def __init__(self, view: View, searched: str) -> None:
        super().__init__(classes="reveal")
        self.steps = reveal_steps(view, searched)
        self.step = 0

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="reveal-box"):
            yield Static("", id="reveal-head", markup=False)
            yield Static("", id="reveal-line", markup=False)
            yield Static("", id="reveal-shown", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        head, line = self.steps[self.step]
        self.query_one("#reveal-head", Static).update(head)
        self.query_one("#reveal-line", Static).update(line)
        earlier = [f"{h}: {ln}" for h, ln in self.steps[1 : self.step]]
        self.query_one("#reveal-shown", Static).update("\n".join(earlier))
        self.set_class(head == "CAUGHT", "caught")
        self.set_class(head == "SAFE", "safe")

    def action_next(self) -> None:
        if self.step + 1 >= len(self.steps):
            self.dismiss(None)
            return
        self.step += 1
        self.show()

    def action_done(self) -> None:
        """Show every moment at once (a slip of Esc must not hide the reveal); again: close."""
        if self.step + 1 >= len(self.steps):
            self.dismiss(None)
            return
        self.step = len(self.steps) - 1
        self.show()
