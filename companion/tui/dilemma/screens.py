"""The dilemma console's list of keys and its final-results screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Header, Static
from textual_plotext import PlotextPlot

from companion.language import Language
from companion.rules.dilemma.finale import STEP_WORDS, FinaleView
from companion.rules.dilemma.phrases import missed_rule
from companion.tui.common.follow import Redraw
from companion.tui.common.footer import Keys
from companion.tui.common.language import esc_key, words
from companion.tui.common.literal import fill, plain
from companion.tui.dilemma.words import (
    NO_ANSWER,
    View,
    cut,
    decimal,
    played_name,
    strategy_name,
)

# The chart's cases, bottom up, with their colours: no answer is its own case, never silent.
CHART_CASES = {"silent": "green", "betray": "red", "no_answer": "gray"}


def chart_legend(lang: Language) -> str:
    """The chart's colours, each with its case (markup around the words, not in them)."""
    _ = lang
    said = [("green", _("silent")), ("red", _("betray")), ("grey50", _(NO_ANSWER))]
    # Textual's own markup for the colours (as the chart draws them); the words escaped.
    return "  ".join(f"[{colour}]██[/] {escape(word)}" for colour, word in said)


class KeysScreen(ModalScreen[None]):
    """Every key of the room, with what it does (the footer shows only those that fit)."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(self, title: str, rows: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.rows = rows

    def compose(self) -> ComposeResult:
        _ = words(self)
        # the title and Esc in the dialog's border: every key fits at 80x24
        with VerticalScroll(classes="dialog keys-dialog") as dialog:
            dialog.border_title = plain(self.title_text)
            dialog.border_subtitle = fill(
                "[b]%(key)s[/b] %(close)s", key=esc_key(_), close=_("close")
            )
            table: DataTable[Text] = DataTable(
                id="keys-table", cursor_type="none", show_header=False
            )
            table.can_focus = False
            yield table

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("key", "what it does")
        for keys, said in self.rows:
            table.add_row(plain(keys), plain(said))

    def action_close(self) -> None:
        self.dismiss(None)


def house_line(lang: Language, view: View) -> str:
    """The house player's months, said apart from the ranking, and the rule for a missed
    round."""
    house = view["house"]
    said = lang.say(missed_rule(view["sentences"]["sitting_out"]))
    if house["rounds"]:
        said = (
            lang.n_(
                "%(name)s, the house player: %(months)s in %(num)s round, not ranked.",
                "%(name)s, the house player: %(months)s in %(num)s rounds, not ranked.",
                house["rounds"],
                name=played_name(lang, view),
                months=lang.n_("%(count)s month", "%(count)s months", house["months"]),
                num=house["rounds"],
            )
            + " "
            + said
        )
    return said


def debrief_text(lang: Language, view: View, width: int = 20) -> str:
    """Each famous strategy replayed in every player's seat: months each, rounds won."""
    _ = lang
    d = view.get("debrief")
    if not d or not d["seats"]:
        return ""
    lines = [
        _("Famous strategies in your seats"),
        _(
            "(months each; you served %(months)s; rounds served less than the partner)",
            months=decimal(lang, d["people"]),
        ),
    ]
    for row in d["strategies"]:
        name = cut(strategy_name(lang, row["strategy"]), width)
        served = decimal(lang, row["months"])
        lines.append(f" {name:<{width}} {served:>5}  {row['ahead']}/{row['rounds']}")
    return "\n".join(lines)




def finale_line(lang: Language, finale: FinaleView | None) -> str:
    """The finale on the console: what the room sees and what Space shows it next."""
    _ = lang
    if finale is None:
        return ""
    steps, shown = finale["steps"], finale["shown"]
    if shown >= len(steps):
        return _("Finale: the room has seen it all and sees the results as a whole.")
    coming = _.say(STEP_WORDS[steps[shown]])
    if shown == 0:
        return _(
            "Finale for the room, in %(count)s steps: Space shows the board %(next)s; a shows "
            "the results as a whole.",
            count=len(steps), next=coming,
        )
    return _(
        "Finale: the room sees step %(shown)s of %(count)s (%(now)s); Space shows it %(next)s.",
        shown=shown, count=len(steps), now=_.say(STEP_WORDS[steps[shown - 1]]), next=coming,
    )


class FinalScreen(Screen[None]):
    """After the last round: the leaderboard, cooperation per round, and why."""

    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]

    BINDINGS = [
        Binding("space,enter", "finale_next", "Show the room the next step"),
        Binding("a", "finale_all", "The results as a whole"),
        Binding("escape,r", "app.pop_screen", "Back to the room"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(
        self,
        view: View,
        explained: str,
        finale: Callable[[], FinaleView | None] = lambda: None,
        step: Callable[[bool], bool] = lambda to_end: False,
    ) -> None:
        super().__init__()
        self.view = view
        self.explained = explained  # why betrayal dominates (words.explanation)
        self.finale = finale  # the finale as the room has seen it now
        self.step = step  # show the room its next step (True: all of it); False: nothing to show

    def compose(self) -> ComposeResult:
        _ = words(self)
        yield Header()
        yield Static(id="finale-line", markup=False)
        with Horizontal(id="final"):
            with VerticalScroll(id="final-left"):
                yield Static(_("Final leaderboard: least time served"), classes="section-title")
                yield DataTable(id="final-board", cursor_type="row", zebra_stripes=True)
                yield Static(plain(house_line(_, self.view)), id="house-line")
            with VerticalScroll(id="final-right"):
                yield PlotextPlot(id="coop-chart")
                yield Static(chart_legend(_), id="chart-legend")
                yield Static(debrief_text(_, self.view), id="debrief", markup=False)
                yield Static(self.explained, id="explanation", markup=False)
        yield Keys()

    @on(Redraw)
    def _redraw(self) -> None:
        self.show_finale()

    def show_finale(self) -> None:
        """Where the room is in the finale, and what Space shows it next."""
        self.query_one("#finale-line", Static).update(finale_line(words(self), self.finale()))

    def action_finale_next(self) -> None:
        self.step(False)
        self.show_finale()

    def action_finale_all(self) -> None:
        self.step(True)
        self.show_finale()

    def on_mount(self) -> None:
        _ = words(self)
        self.show_finale()
        table = self.query_one("#final-board", DataTable)
        headers = ("#", _("Name"), _("Months"), _("Silent"))
        table.add_columns(*headers)
        board = self.view["leaderboard"]
        silent = [
            _("%(silent)s of %(rounds)s", silent=r["silent"], rounds=r["rounds"]) for r in board
        ]
        # Names up to 15 columns, fewer when longer words leave the left half less room.
        others = [
            max([len(headers[0]), 2]),
            max([len(headers[2]), *(len(str(r["months"])) for r in board)]),
            max([len(headers[3]), *map(len, silent)]),
        ]
        room = self.app.size.width // 2 - 2 - sum(width + 2 for width in others) - 2
        longest = max(8, min(15, room))
        for row, said in zip(board, silent, strict=True):
            rank = str(row["rank"]) if row["rank"] else "–"
            name = cut(row["name"], longest)
            if not row["present"]:
                name = _("%(name)s (left)", name=name)
            table.add_row(rank, plain(name), str(row["months"]), said)
        rows = self.view["cooperation"]
        plot = self.query_one(PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        labels = [_("R%(round)s", round=row["round"]) for row in rows]
        shares = [
            [round(100 * row[case] / row["choices"]) if row["choices"] else 0 for row in rows]
            for case in CHART_CASES
        ]
        colors: Any = list(CHART_CASES.values())  # one per case; plotext's hint says one
        plt.stacked_bar(labels, shares, color=colors, width=0.6)
        plt.ylim(0, 100)
        plt.yticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
        plt.title(_("Answers, round by round"))
        plot.refresh()
