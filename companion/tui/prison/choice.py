"""The private, full-screen choice prompt: the laptop is handed to one prisoner.

It shows nothing of the game, records one choice and hides itself at once.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from companion.rules.prison.commands import Choice
from companion.tui.common.language import words
from companion.tui.common.literal import plain


class ChoiceScreen(Screen[Choice | None]):
    BINDINGS = [
        Binding("w", "choose('work')", "Work"),
        Binding("r", "choose('rest')", "Rest"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, prisoner: str) -> None:
        super().__init__(classes="private")
        self.prisoner = prisoner

    def compose(self) -> ComposeResult:
        _ = words(self)
        with Center(), Vertical(id="choice-box"):
            yield Static(_("PRIVATE"), id="private-title", markup=False)
            yield Static(
                plain(_("%(name)s, this is your secret choice for tonight.", name=self.prisoner))
            )
            yield Static(_("Press W to work, or R to rest."), classes="choice-keys", markup=False)
            yield Static(
                _(
                    "The screen hides itself as soon as you choose. You may change your mind "
                    "until planning closes. Esc: go back without choosing."
                ),
                classes="choice-note",
                markup=False,
            )

    def action_choose(self, choice: Choice) -> None:
        self.dismiss(choice)

    def action_cancel(self) -> None:
        self.dismiss(None)
