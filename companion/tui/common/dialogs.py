"""Small modal dialogs every console uses: confirm, pick one name, type a line of text, read a
message."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from companion.tui.common.follow import Redraw
from companion.tui.common.language import enter_key, esc_key, words, yes_key
from companion.tui.common.literal import fill, plain


def keys_line(*pairs: tuple[str, str]) -> Text:
    """The keys a dialog answers: each key in bold, then what it does (already in the
    console's language; brackets in it are letters)."""
    said = (fill("[b]%(key)s[/b] %(does)s", key=key, does=does) for key, does in pairs)
    return Text("  ").join(said)


class ConfirmScreen(ModalScreen[bool]):
    """A question answered with y (yes) or n (no); the console's language's yes key (o, j, s)
    answers yes too, and the dialog names that one."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(
        self,
        title: str,
        question: str,
        yes: str | None = None,
        no: str | None = None,
        *,
        asked: Callable[[], str] | None = None,
    ) -> None:
        """``yes``: what y does (``None``: "Yes" in the console's language); ``no``: what n
        and Esc do (``None``: "No, go back"); ``asked``: the question as it reads now, asked
        again whenever the session is drawn again (a player chose meanwhile)."""
        super().__init__()
        self.title_text = title
        self.question = question
        self.yes = yes
        self.no = no
        self.asked = asked

    def compose(self) -> ComposeResult:
        _ = words(self)
        yes = self.yes if self.yes is not None else _("Yes")
        no = self.no if self.no is not None else _("No, go back")
        with Vertical(classes="dialog"):
            yield Static(plain(self.title_text), classes="dialog-title")
            yield Static(plain(self.question), classes="dialog-body", id="question")
            yield Static(
                fill("[b]%(key)s[/b] %(yes)s    [b]n[/b] %(no)s", key=yes_key(_), yes=yes, no=no),
                classes="dialog-keys",
            )

    @on(Redraw)
    def _asked_again(self) -> None:
        if self.asked is not None:
            question = self.asked()
            if question != self.question:
                self.question = question
                self.query_one("#question", Static).update(plain(question))

    def on_key(self, event: Key) -> None:
        if event.key == yes_key(words(self)) and event.key != "y":
            event.stop()
            self.action_answer(True)

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
            yield Static(plain(self.title_text), classes="dialog-title")
            if self.note:
                yield Static(plain(self.note), classes="dialog-body")
            yield OptionList(
                *[Option(plain(label), id=key) for key, label in self.options], id="pick"
            )
            _ = words(self)
            yield Static(
                keys_line(("↑↓", _("move")), (enter_key(_), _("pick")), (esc_key(_), _("cancel"))),
                classes="dialog-keys",
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
        keys: Text | None = None,
    ) -> None:
        """``keys``: the keys line (``None``: Enter save, Esc cancel, in the
        console's language)."""
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
            yield Static(plain(self.title_text), classes="dialog-title")
            if self.prompt:
                yield Static(plain(self.prompt), classes="dialog-body")
            yield Input(self.value, id="text", max_length=self.max_length)
            if self.problems:
                yield Static("", id="problem", classes="problem", markup=False)
            _ = words(self)
            keys = self.keys
            if keys is None:
                keys = keys_line((enter_key(_), _("save")), (esc_key(_), _("cancel")))
            yield Static(keys, classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        problem = self.check(event.value) if self.check else None
        if problem:
            self.query_one("#problem", Static).update(plain(problem))
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
            yield Static(plain(self.title_text), classes="dialog-title")
            yield Static(plain(self.body), classes="dialog-body")
            _ = words(self)
            keys = keys_line((enter_key(_), _("close")))
            if self.hide_after is not None:
                seconds = round(self.hide_after)
                keys += plain(
                    " "
                    + _.n_(
                        "(it closes itself in %(count)s s)",
                        "(it closes itself in %(count)s s)",
                        seconds,
                    )
                )
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
