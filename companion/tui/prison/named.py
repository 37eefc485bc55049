"""After a deal: whom the informant named, ticked from the other prisoners still in the game.

Space ticks a name (or unticks it), Enter records the deal with the names ticked (none
ticked: they named nobody), Esc goes back to the interview with nothing recorded. The names
stay on the game master's console and the warden's phone until the game is over, when the
epilogue tells the room."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from companion.tui.common.dialogs import keys_line
from companion.tui.common.footer import Keys
from companion.tui.common.language import enter_key, esc_key, words
from companion.tui.common.literal import plain


class NamedScreen(ModalScreen[list[str] | None]):
    """Whom ``informant`` named: a list (maybe empty) to record, ``None`` to go back."""

    BINDINGS = [
        Binding("space", "tick", "Tick", priority=True),
        Binding("enter", "record", "Record", priority=True),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, informant: str, others: list[str]) -> None:
        super().__init__()
        self.informant = informant
        self.others = others

    def compose(self) -> ComposeResult:
        _ = words(self)
        with Vertical(classes="dialog", id="named-box"):
            yield Static(
                plain(_("Whom did %(name)s name?", name=self.informant)), classes="dialog-title"
            )
            yield Static(
                plain(
                    _(
                        "Tick each prisoner %(name)s named; with none ticked, %(name)s "
                        "named nobody.",
                        name=self.informant,
                    )
                ),
                classes="dialog-body",
            )
            yield SelectionList[str](
                *[Selection(plain(name), name) for name in self.others], id="named"
            )
            yield Static(
                keys_line(
                    (_.pgettext("key name", "Space"), _("tick")),
                    (enter_key(_), _("record the deal")),
                    (esc_key(_), _("back to the interview")),
                ),
                classes="dialog-keys",
            )
        yield Keys()  # the footer names this dialog's keys, not the game screen's

    def on_mount(self) -> None:
        names = self.query_one(SelectionList)
        names.highlighted = 0 if self.others else None
        names.focus()

    def action_tick(self) -> None:
        """Tick the name under the cursor, or untick it (whatever has the focus)."""
        names = self.query_one(SelectionList)
        if names.highlighted is not None:
            names.toggle(self.others[names.highlighted])

    def ticked(self) -> list[str]:
        """The names ticked, in the order they are listed."""
        chosen = set(self.query_one(SelectionList).selected)
        return [name for name in self.others if name in chosen]

    def action_record(self) -> None:
        self.dismiss(self.ticked())

    def action_back(self) -> None:
        self.dismiss(None)
