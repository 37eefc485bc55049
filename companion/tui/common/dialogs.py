"""Small modal dialogs every console uses: confirm, pick one name, type a line of text, read a
message."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option


class ConfirmScreen(ModalScreen[bool]):
    """A question answered with y (yes) or n (no)."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, question: str, yes: str = "Yes") -> None:
        super().__init__()
        self.title_text = title
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.question, classes="dialog-body", markup=False)
            yield Static(f"[b]y[/b] {self.yes}    [b]n[/b] No, go back", classes="dialog-keys")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class PickScreen(ModalScreen[str | None]):
    """Pick one of a few options (only the legal ones are offered)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self, title: str, options: list[tuple[str, str]], note: str = "", highlight: int = 0
    ) -> None:
        super().__init__()
        self.title_text = title
        self.options = options
        self.note = note
        self.start = highlight

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            if self.note:
                yield Static(self.note, classes="dialog-body", markup=False)
            yield OptionList(
                *[Option(Text(label), id=key) for key, label in self.options], id="pick"
            )
            yield Static(
                "[b]↑↓[/b] move  [b]Enter[/b] pick  [b]Esc[/b] cancel", classes="dialog-keys"
            )

    def on_mount(self) -> None:
        pick = self.query_one(OptionList)
        pick.highlighted = min(self.start, len(self.options) - 1) if self.options else None
        pick.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextScreen(ModalScreen[str | None]):
    """Type one line; ``check`` returns a problem sentence or ``None`` when the text is fine."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        prompt: str,
        value: str = "",
        check: Callable[[str], str | None] | None = None,
        *,
        max_length: int = 0,
        problems: bool = True,
        keys: str = "[b]Enter[/b] save  [b]Esc[/b] cancel",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.prompt = prompt  # none shown when empty
        self.value = value
        self.check = check
        self.max_length = max_length  # 0: no limit
        self.problems = problems  # a line for what ``check`` says
        self.keys = keys

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            if self.prompt:
                yield Static(self.prompt, classes="dialog-body", markup=False)
            yield Input(self.value, id="text", max_length=self.max_length)
            if self.problems:
                yield Static("", id="problem", classes="problem", markup=False)
            yield Static(self.keys, classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        problem = self.check(event.value) if self.check else None
        if problem:
            self.query_one("#problem", Static).update(problem)
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class MessageScreen(ModalScreen[None]):
    """Something to read; any of Enter, Space or Esc closes it."""

    BINDINGS = [Binding("enter,space,escape", "close", "Close")]

    def __init__(
        self, title: str, body: str, *, classes: str = "", hide_after: float | None = None
    ) -> None:
        super().__init__(classes=classes)
        self.title_text = title
        self.body = body
        self.hide_after = hide_after  # seconds until it closes itself (a secret on screen)
        self.hide_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.body, classes="dialog-body", markup=False)
            keys = "[b]Enter[/b] close"
            if self.hide_after is not None:
                keys += f" (it closes itself in {round(self.hide_after)} s)"
            yield Static(keys, classes="dialog-keys")

    def on_mount(self) -> None:
        if self.hide_after is not None:
            self.hide_timer = self.set_timer(self.hide_after, self.action_close)

    def action_close(self) -> None:
        if self.hide_timer is not None:
            self.hide_timer.stop()
            self.hide_timer = None
        if self.is_current:
            self.dismiss(None)
        elif self.hide_after is not None:  # covered (the palette): close once it is on top
            self.hide_timer = self.set_timer(1, self.action_close)
