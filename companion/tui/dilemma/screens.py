"""The dilemma console's list of keys and its final-results screen."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Header, Static
from textual_plotext import PlotextPlot

from companion.tui.common.footer import Keys
from companion.tui.dilemma.words import View

# The chart's cases, bottom up, with their colours: no answer is its own case, never silent.
CHART_CASES = {"silent": "green", "betray": "red", "no_answer": "gray"}
CHART_LEGEND = "[green]██[/] silent  [red]██[/] betray  [grey50]██[/] no answer"


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


def house_line(view: View) -> str:
    """The house player's months, said apart from the ranking, and the rule for a missed
    round."""
    house = view["house"]
    words = str(view["missed_rule"])
    if house["rounds"]:
        words = (
            f"{house['name']}, the house player: {house['months']} months in "
            f"{house['rounds']} rounds, not ranked. " + words
        )
    return words


def debrief_text(view: View, width: int = 20) -> str:
    """Each famous strategy replayed in every player's seat: months each, rounds won."""
    d = view.get("debrief")
    if not d or not d["seats"]:
        return ""
    lines = [
        "Famous strategies in your seats",
        f"(months each; you served {d['people']:.1f}; rounds served less than the partner)",
    ]
    for row in d["strategies"]:
        name = row["name"][:width]
        lines.append(f" {name:<{width}} {row['months']:>5.1f}  {row['ahead']}/{row['rounds']}")
    return "\n".join(lines)


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
                yield Static(house_line(self.view), id="house-line", markup=False)
            with VerticalScroll(id="final-right"):
                yield PlotextPlot(id="coop-chart")
                yield Static(CHART_LEGEND, id="chart-legend")
                yield Static(debrief_text(self.view), id="debrief", markup=False)
                yield Static(self.view.get("explanation") or "", id="explanation", markup=False)
        yield Keys()

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
        shares = [
            [round(100 * row[case] / row["choices"]) if row["choices"] else 0 for row in rows]
            for case in CHART_CASES
        ]
        colors: Any = list(CHART_CASES.values())  # one per case; plotext's hint says one
        plt.stacked_bar(labels, shares, color=colors, width=0.6)
        plt.ylim(0, 100)
        plt.yticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
        plt.title("Answers, round by round")
        plot.refresh()
