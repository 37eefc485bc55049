"""A panel of the consoles' screens drawn from its state: :class:`Panel` shows its ``text``
letter for letter (a player's name in it is never read as markup) and draws again only when
the text changes."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from companion.tui.common.literal import plain


class Panel(Static):
    """Plain text (``text``), drawn again when it changes, not when it is set to the same."""

    text: reactive[str] = reactive("", layout=True, init=False)

    def __init__(
        self, text: str = "", *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(plain(text), markup=False, id=id, classes=classes)
        self.set_reactive(Panel.text, text)  # drawn above: no watcher to call

    def watch_text(self, text: str) -> None:
        self.update(plain(text))
