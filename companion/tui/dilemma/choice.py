"""The private, full-screen choice prompt: the laptop is handed to one player (no phone, or a
phone that died). It shows nothing of the tournament but whom they face and the sentences,
records one choice and hides itself at once, as the prison console's prompt does."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from companion.rules.dilemma.commands import Choice
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.dilemma.words import View, sentences_text


class ChoiceScreen(Screen[Choice | None]):
    BINDINGS = [
        Binding("s", "choose('silent')", "Silent"),
        Binding("b", "choose('betray')", "Betray"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, name: str, facing: str, round_number: int, sentences: View) -> None:
        """``facing``: the partner's name as the room shows it (the house player's in the
        console's language)."""
        super().__init__(classes="private")
        self.player = name
        self.facing = facing
        self.round_number = round_number
        self.sentences = sentences

    def compose(self) -> ComposeResult:
        _ = words(self)
        with Center(), Vertical(id="choice-box"):
            yield Static(_("PRIVATE"), id="private-title", markup=False)
            yield Static(
                plain(
                    _(
                        "%(name)s, this is your secret choice for round %(round)s. "
                        "You face %(facing)s.",
                        name=self.player,
                        round=self.round_number,
                        facing=self.facing,
                    )
                )
            )
            yield Static(
                sentences_text(_, self.sentences), classes="choice-sentences", markup=False
            )
            yield Static(
                _("Press S to stay silent, or B to betray."), classes="choice-keys", markup=False
            )
            yield Static(
                _(
                    "The screen hides itself as soon as you choose. You may change your mind "
                    "until the round is revealed. Esc: go back without choosing."
                ),
                classes="choice-note",
                markup=False,
            )

    def action_choose(self, choice: Choice) -> None:
        self.dismiss(choice)

    def action_cancel(self) -> None:
        self.dismiss(None)
