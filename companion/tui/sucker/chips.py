"""The referee's chips and players: a chip as its letter on its color, the players' table laid
out for the width it is drawn at, and the dead chips (pure Rich renderables of the table view)."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table
from rich.text import Text

from companion.language import N_, Language
from companion.tui.common.literal import plain
from companion.tui.sucker.entry import View

# True colors for the chip colors a game may use (companion.rules.sucker.setup.COLORS; ANSI
# names vary by terminal theme); a chip of any other color shows its letter reversed.
PAINT = {
    "red": "#d32f2f",
    "blue": "#1e63d6",
    "green": "#2e9e3e",
    "yellow": "#f2c80f",
    "white": "#f0f0f0",
    "black": "#202020",
    "orange": "#f28c28",
    "pink": "#f06292",
    "purple": "#8e44ad",
    "brown": "#8b5a2b",
    "grey": "#8a8a8a",
    "gray": "#8a8a8a",
    "violet": "#b36ae2",
    "gold": "#d4a017",
    "silver": "#c0c0c0",
    "cyan": "#22c3d6",
    "teal": "#13857f",
    "lime": "#9ccc3c",
    "magenta": "#d0359b",
    "navy": "#1f2f6b",
    "maroon": "#7b1e2b",
    "olive": "#7a7a1f",
    "beige": "#e6d8b0",
    "tan": "#d2b48c",
    "turquoise": "#30c8bb",
    "indigo": "#4b2a8c",
    "ivory": "#fbf8e8",
}
LIGHT = {"yellow", "white", "orange", "pink", "cyan", "grey", "gray", "gold", "lime", "silver",
         "beige", "tan", "turquoise", "ivory"}


def chip(color: str, key: str, *, mark: bool = False) -> Text:
    """One chip: its letter on its color (readable without color too)."""
    paint = PAINT.get(color.casefold(), color.casefold())
    ink = "black" if color.casefold() in LIGHT else "white"
    try:
        style = Style.parse(f"bold {ink} on {paint}")
    except Exception:  # noqa: BLE001 - an unknown color name: letter only
        style = Style(bold=True, reverse=True)
    face = f"[{key}]" if mark else f" {key} "
    return Text(face, style=style)


NAME_WIDTH = 12  # a longer name is cut short with an ellipsis in the players' table
# In the narrow layout a mark says what the status column would: these words, in the caption.
MARKS = {"●": N_("to act"), "▶": N_("may be named"), "?": N_("may rescue"), "–": N_("refused"),
         "✗": N_("defeated"), "★": N_("won")}


class PlayersPanel:
    """The players' table, laid out for the width it is drawn at. At 120 columns each player has
    a status and a column of prisoners; at 80 columns the status shrinks to its mark (explained
    in the caption), so that every player still fits on one line and no prisoner is cut off.
    ``rows`` hold each player's status already in ``lang``."""

    def __init__(self, lang: Language, view: View, rows: list[tuple[View, str, str]]) -> None:
        self._ = lang
        self.view = view
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        for wide in (True, False):
            # The room the other columns leave the prisoners, who are then wrapped by whole
            # chips (Rich would break a chip from its count).
            bare = self.table(wide=wide, room=0)
            others = Measurement.get(console, options.update(width=10_000), bare).maximum - 9
            if not wide or others + 13 <= width:
                yield self.table(wide=wide, room=max(width - others - 1, 9))
                return

    def table(self, *, wide: bool, room: int) -> Table:
        _ = self._
        keys = self.view["keys"]
        awaiting = self.view["awaiting"]
        refused = awaiting.get("refused", []) if awaiting["what"] == "rescue" else []
        grid = Table(expand=True, box=None, padding=(0, 1), show_edge=False, pad_edge=wide)
        grid.add_column("", no_wrap=True)
        grid.add_column(_("player"), no_wrap=True, overflow="ellipsis", max_width=NAME_WIDTH)
        grid.add_column("", justify="center", no_wrap=True)
        grid.add_column(_("own"), justify="right", no_wrap=True)
        if wide:
            grid.add_column("", no_wrap=True, min_width=13)
        grid.add_column(_("prisoners"), min_width=9, ratio=1)
        used: dict[str, str] = {}  # mark -> what it means here
        for p, status, pointer in self.rows:
            prisoners = Text()
            line = 0
            for color, count in p["prisoners"].items() if room else ():
                count_text = f"×{count} " if wide else f"{count} "
                if line and line + 3 + len(count_text.rstrip()) > room:
                    prisoners.append("\n")
                    line = 0
                prisoners.append_text(chip(color, keys[color]))
                prisoners.append(count_text)
                line += 3 + len(count_text)
            style = "dim strike" if p["defeated"] else ("bold" if pointer else "")
            mark = pointer
            if not wide and not mark:
                mark = "✗" if p["defeated"] else ("–" if p["name"] in refused else "")
            for one in mark:  # "●▶": the mover, who may also name themselves
                if one not in used:
                    # The acting player's mark says what they do ("awaits rescue", "to play"…).
                    used[one] = status if one == "●" and status else _(MARKS[one])
            cells: list[Text] = [
                Text(mark, style="bold"),
                plain(p["name"], style),
                chip(p["color"], keys[p["color"]]),
                Text(str(p["supply"])),
            ]
            if wide:
                cells.append(Text(status, style="bold" if pointer else "italic"))
            grid.add_row(*cells, prisoners)
        if wide:
            if awaiting["what"] == "next":
                grid.caption = "▶ " + _("may be named to move next")
        elif used:
            grid.caption = "  ".join(f"{m} {used[m]}" for m in MARKS if m in used)
        return grid


def dead_text(lang: Language, view: View) -> str:
    """The killed chips, by letter (they have left the game): for the piles' frame."""
    dead: dict[str, int] = view["dead"]
    if not dead:
        return ""
    keys = view["keys"]
    chips = "  ".join(f"{keys[color]}×{count}" for color, count in dead.items())
    _ = lang
    return _("dead %(chips)s", chips=chips)
