"""The dilemma console's list of keys and its final-results screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Header, Static
from textual_plotext import PlotextPlot

from companion.tui.dilemma.words import View


class KeysScreen(ModalScreen[None]):
    """Every key of the room, with what it does (the footer shows only those that fit)."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(self, title: str, rows: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.rows = rows

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog keys-dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            table: DataTable[str] = DataTable(
                id="keys-table", cursor_type="none", show_header=False
            )
            table.can_focus = False
            yield table
            yield Static("[b]Esc[/b] close", classes="dialog-keys")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("key", "what it does")
        for keys, words in self.rows:
            table.add_row(keys, words)

    def action_close(self) -> None:
        self.dismiss(None)


class FinalScreen(Screen[None]):
    """After the last round: the leaderboard, cooperation per round, and why."""

    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]

    BINDINGS = [
        Binding("escape,r", "app.pop_screen", "Back to the room"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, view: View) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="final"):
            with VerticalScroll(id="final-left"):
                yield Static("Final leaderboard: least time served", classes="section-title")
                yield DataTable(id="final-board", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="final-right"):
                yield PlotextPlot(id="coop-chart")
                yield Static(self.view.get("explanation") or "", id="explanation", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#final-board", DataTable)
        table.add_columns("#", "Name", "Months", "Silent")
        for row in self.view["leaderboard"]:
            rank = str(row["rank"]) if row["rank"] else "–"
            name = row["name"] if len(row["name"]) <= 15 else row["name"][:14] + "…"
            name += "" if row["present"] else " (left)"
            table.add_row(rank, name, str(row["months"]), f"{row['silent']} of {row['rounds']}")
        rows = self.view["cooperation"]
        plot = self.query_one(PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        labels = [f"R{row['round']}" for row in rows]
        plt.bar(labels, [round(100 * row["rate"]) for row in rows])
        plt.ylim(0, 100)
        plt.yticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
        plt.title("Who stayed silent, round by round")
        plot.refresh()
