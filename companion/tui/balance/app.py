"""The Balance screen: the prisoners' team's escape rate against nights to escape, for one group
size and one number of parole tokens to win, measured by bot games while you watch.

The console is a face of its own: the simulator reaches this screen only as a function handed in
by the composition root (``source``), so this module imports nothing from ``companion.sim``.
``source(prisoners, tokens, nights)`` yields one measured point at a time (``nights`` is a list
of nights to escape, or ``None`` for the simulator's own window around a first guess); each point
is a dict with ``nights_to_escape``, ``games``, ``mean_days`` and ``escape`` (``rate``, ``low``,
``high``: a 95% interval). ``tables(prisoners, tokens)``, when handed in, gives the real tables'
points in the same shape (the designers' notebook); the chart shows them beside the bots' curve.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Header, Static
from textual.worker import get_current_worker
from textual_plotext import PlotextPlot

from companion.language import N_, Language
from companion.tui.balance.verdict import conclusion
from companion.tui.common.contracts import TableRates
from companion.tui.common.footer import Keys
from companion.tui.common.language import (
    console_language,
    key_name,
    translated_commands,
    words,
)

Point = Mapping[str, Any]
Source = Callable[[int, int, list[int] | None], Iterable[Point]]

MIN_PRISONERS, MAX_PRISONERS = 2, 60
WINDOW_SHIFT = 7

# The footer's labels of the key pairs (translated there, as the keys' descriptions are).
PRISONERS = Binding.Group(N_("Prisoners"), compact=True)
TOKENS = Binding.Group(N_("Parole tokens"), compact=True)
NIGHTS = Binding.Group(N_("Nights"), compact=True)


class BalanceScreen(Screen[None]):
    """Pick a group size and parole tokens to win; see how often the prisoners escape."""

    CSS_PATH = "balance.tcss"
    TITLE = N_("Balance")
    AUTO_FOCUS = None
    # The footer shows a pair of keys per setting (fits 80 columns); Back comes last.
    BINDINGS = [
        Binding("left", "prisoners(-1)", "Fewer prisoners", group=PRISONERS),
        Binding("right", "prisoners(1)", "More prisoners", group=PRISONERS),
        Binding("up", "tokens(1)", "More parole tokens", group=TOKENS),
        Binding("down", "tokens(-1)", "Fewer parole tokens", group=TOKENS),
        Binding("comma,pageup", "shift(-1)", "Earlier nights", group=NIGHTS),
        Binding("full_stop,pagedown", "shift(1)", "Later nights", group=NIGHTS),
        Binding("r", "measure", "Measure again"),
        Binding("escape", "close", "Back"),
    ]
    # Below this width the table drops its games column and shortens its headings.
    NARROW = 100

    def __init__(
        self,
        source: Source,
        *,
        prisoners: int = 4,
        tokens: int = 3,
        target: float = 0.5,
        describe: str | Callable[[Language], str] = "",
        tables: TableRates | None = None,
    ) -> None:
        super().__init__()
        self.source = source
        self.tables = tables
        self.table_points: list[Point] = []  # the real tables', for the settings shown
        self.prisoners = max(MIN_PRISONERS, min(MAX_PRISONERS, prisoners))
        self.tokens = max(1, tokens)
        self.target = target
        self.describe = describe  # what was measured: a line, or a line in the console's words
        self.nights: list[int] | None = None
        self.points: list[Point] = []
        self.verdict: Point | None = None  # the settled close call, when the source settles it
        self._pending: Timer | None = None
        self._narrow = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="balance-settings")
        describe = self.describe if isinstance(self.describe, str) else self.describe(words(self))
        yield Static(describe, id="balance-describe", markup=False)
        yield Static(id="balance-tables", markup=False)
        with Horizontal(id="balance-body"):
            yield PlotextPlot(id="balance-chart")
            table: DataTable[str] = DataTable(
                id="balance-table", cursor_type="none", zebra_stripes=True
            )
            table.can_focus = False  # the arrow keys belong to the screen's settings
            yield table
        yield Static(id="balance-status", markup=False)
        yield Keys(compact=True, id="balance-footer")

    def on_mount(self) -> None:
        self.title = words(self)(self.TITLE)
        self.query_one("#balance-describe").display = bool(self.describe)
        self.query_one("#balance-tables").display = False
        self._narrow = self.app.size.width < self.NARROW
        self.set_class(self._narrow, "-narrow")
        self._fill_table()
        self.action_measure()

    def on_resize(self) -> None:
        narrow = self.app.size.width < self.NARROW
        self.set_class(narrow, "-narrow")
        if narrow != self._narrow:
            self._narrow = narrow
            self._fill_table()
            self._draw()

    # ---- actions --------------------------------------------------------------------------

    def action_prisoners(self, step: int) -> None:
        size = max(MIN_PRISONERS, min(MAX_PRISONERS, self.prisoners + step))
        if size != self.prisoners:
            self.prisoners, self.nights = size, None
            self._soon()

    def action_tokens(self, step: int) -> None:
        tokens = max(1, min(50, self.tokens + step))
        if tokens != self.tokens:
            self.tokens = tokens
            self._soon()

    def action_shift(self, direction: int) -> None:
        if not self.points:
            return
        shown = self.nights or [int(p["nights_to_escape"]) for p in self.points]
        first = max(1, shown[0] + direction * WINDOW_SHIFT)
        nights = list(range(first, first + len(shown)))
        if nights != shown:
            self.nights = nights
            self._soon()

    def action_measure(self) -> None:
        if self._pending is not None:
            self._pending.stop()
            self._pending = None
        self.points = []
        self.verdict = None
        self.table_points = []
        self._show_tables()
        self._fill_table()
        self._show_settings()
        self._draw()
        _ = words(self)
        self._status(_("Measuring…"))
        self._measure(self.prisoners, self.tokens, self.nights)

    def action_close(self) -> None:
        self.workers.cancel_group(self, "balance")
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            self.app.exit()

    def _soon(self) -> None:
        """Measure once the keys stop for a moment (so holding an arrow key is cheap)."""
        self.workers.cancel_group(self, "balance")
        self._show_settings()
        _ = words(self)
        self._status(_("Waiting for the keys to settle…"))
        if self._pending is not None:
            self._pending.stop()
        self._pending = self.set_timer(0.4, self.action_measure)

    # ---- measuring --------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="balance")
    def _measure(self, prisoners: int, tokens: int, nights: list[int] | None) -> None:
        worker = get_current_worker()
        if self.tables is not None:
            try:
                real = self.tables(prisoners, tokens)
            except Exception:  # noqa: BLE001 - a damaged notebook must not stop the chart
                real = []
            if worker.is_cancelled:
                return
            self.app.call_from_thread(self._add_tables, prisoners, tokens, real)
        points = iter(self.source(prisoners, tokens, nights))
        try:
            for point in points:
                if worker.is_cancelled:
                    return
                self.app.call_from_thread(self.add_point, prisoners, tokens, point)
        finally:
            close = getattr(points, "close", None)
            if close is not None:
                close()
        if not worker.is_cancelled:
            self.app.call_from_thread(self._done, prisoners, tokens)

    def add_point(self, prisoners: int, tokens: int, point: Point) -> None:
        """One point measured for ``prisoners`` and ``tokens`` (dropped for other settings)."""
        _ = words(self)
        if (prisoners, tokens) != (self.prisoners, self.tokens):
            return
        nights = point["nights_to_escape"]
        known = [i for i, p in enumerate(self.points) if p["nights_to_escape"] == nights]
        if "verdict" in point:
            self.verdict = point
        if known:  # the same setting again, with more games (settling the close call)
            self.points[known[0]] = point
            self._fill_table()
            self._status(_.ngettext(
                "Settling the close call: %(games)s games at %(count)s night…",
                "Settling the close call: %(games)s games at %(count)s nights…", nights,
            ) % {"games": point["games"], "count": nights})
        else:
            self.points.append(point)
            self.query_one(DataTable).add_row(*self._cells(point))
            self._status(_.n_("Measured %(count)s setting…", "Measured %(count)s settings…",
                              len(self.points)))
        self._draw()

    def _add_tables(self, prisoners: int, tokens: int, real: list[Point]) -> None:
        if (prisoners, tokens) != (self.prisoners, self.tokens):
            return
        self.table_points = real
        self._show_tables()
        self._draw()

    def _show_tables(self) -> None:
        """One line on the real tables' games at these settings, when there are any."""
        _ = words(self)
        line = self.query_one("#balance-tables", Static)
        line.display = bool(self.table_points)
        if not self.table_points:
            return
        said = []
        for p in self.table_points:
            esc = p["escape"]
            said.append(_.ngettext(
                "%(escaped)s of %(games)s escaped at %(count)s night (%(rate)s, %(low)s–%(high)s)",
                "%(escaped)s of %(games)s escaped at %(count)s nights (%(rate)s, "
                "%(low)s–%(high)s)",
                p["nights_to_escape"],
            ) % {"escaped": esc["count"], "games": p["games"], "count": p["nights_to_escape"],
                 "rate": f"{esc['rate']:.0%}", "low": f"{100 * esc['low']:.0f}",
                 "high": f"{esc['high']:.0%}"})
        line.update(_.ngettext(
            "Real tables (%(prisoners)s prisoners, %(count)s parole token): %(games)s.",
            "Real tables (%(prisoners)s prisoners, %(count)s parole tokens): %(games)s.",
            self.tokens,
        ) % {"prisoners": self.prisoners, "count": self.tokens, "games": "; ".join(said)})

    def _done(self, prisoners: int, tokens: int) -> None:
        if (prisoners, tokens) != (self.prisoners, self.tokens) or not self.points:
            return
        self._status(self.conclusion())

    def conclusion(self) -> str:
        """What the points measured so far say (see :func:`.verdict.conclusion`)."""
        return conclusion(words(self), self.points, self.verdict, self.target, self.tokens)

    # ---- drawing ----------------------------------------------------------------------------

    def _fill_table(self) -> None:
        """The table's columns for this width, and a row for every point measured so far."""
        _ = words(self)
        interval = _("%(level)s interval", level="95%")  # the level apart: % is no placeholder
        table = self.query_one(DataTable)
        table.clear(columns=True)
        if self._narrow:  # short headings
            table.add_columns(_("nights"), _("escape"), "95%", _("days"))
        else:
            table.add_columns(_("nights"), _("escapes"), interval, _("days"),
                              _("games"))
        for point in self.points:
            table.add_row(*self._cells(point))

    def _cells(self, point: Point) -> list[str]:
        esc = point["escape"]
        low, high = round(100 * esc["low"]), round(100 * esc["high"])
        cells = [str(point["nights_to_escape"]), f"{esc['rate']:.0%}"]
        if self._narrow:
            return [*cells, f"{low}–{high}%", f"{point['mean_days']:.1f}"]
        return [*cells, f"{low}%–{high}%", f"{point['mean_days']:.1f}", str(point["games"])]

    def _show_settings(self) -> None:
        _ = words(self)

        def counted(message: str, count: int) -> Text:
            """``message`` (``%(count)s`` in it) with the count in bold: no markup in the
            messages, which translators write."""
            before, _sep, after = message.partition("%(count)s")
            return Text.assemble(before, (str(count), "bold"), after)

        line = Text(" · ").join([
            counted(_.ngettext("%(count)s prisoner", "%(count)s prisoners", self.prisoners),
                    self.prisoners),
            counted(_.ngettext("%(count)s parole token to win", "%(count)s parole tokens to win",
                               self.tokens), self.tokens),
            Text(_("target: escapes in %(target)s of games", target=f"{self.target:.0%}")),
        ])
        self.query_one("#balance-settings", Static).update(line)

    def _status(self, text: str) -> None:
        self.query_one("#balance-status", Static).update(text)

    def _draw(self) -> None:
        _ = words(self)
        chart = self.query_one(PlotextPlot)
        plt = chart.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(_.ngettext("The team's escapes, %(count)s prisoner",
                             "The team's escapes, %(count)s prisoners", self.prisoners)
                  % {"count": self.prisoners})
        plt.xlabel(_("nights to escape"))
        # Headroom above 100%: plotext puts the legend in the top left corner, where the rates
        # of the fewest nights (near 100%) are drawn.
        plt.ylim(0, 1.18)
        plt.yticks([0, 0.25, 0.5, 0.75, 1], ["0%", "25%", "50%", "75%", "100%"])
        if self.points:
            xs = [int(p["nights_to_escape"]) for p in self.points]
            # The interval first, so the measured rate is drawn over it.
            plt.plot(xs, [p["escape"]["low"] for p in self.points], marker="dot",
                     color="blue", label=_("%(level)s interval", level="95%"))
            plt.plot(xs, [p["escape"]["high"] for p in self.points], marker="dot",
                     color="blue")
            plt.plot(xs, [p["escape"]["rate"] for p in self.points], marker="braille",
                     color="red", label=_("escape rate"))
            plt.hline(self.target, color="gray")
            shown = [p for p in self.table_points
                     if min(xs) <= int(p["nights_to_escape"]) <= max(xs)]
            for p in shown:  # the real tables' interval, then their rate over it
                x = int(p["nights_to_escape"])
                plt.plot([x, x], [p["escape"]["low"], p["escape"]["high"]], marker="dot",
                         color="green")
            if shown:
                plt.scatter([int(p["nights_to_escape"]) for p in shown],
                            [p["escape"]["rate"] for p in shown], marker="X", color="green",
                            label=_("real tables"))
            plt.xlim(min(xs) - 0.5, max(xs) + 0.5)
            step = -(-len(xs) // (6 if self._narrow else 10))  # whole nights, not crowded
            plt.xticks([float(x) for x in xs[::step]], [str(x) for x in xs[::step]])
        chart.refresh()


class BalanceApp(App[None]):
    """The Balance screen on its own (``companion balance --screen``)."""

    TITLE = "companion balance"

    def __init__(self, source: Source, *, lang: Language | None = None, **options: Any) -> None:
        super().__init__()
        self.lang = lang or console_language()
        self._source = source
        self._options = options

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from translated_commands(super().get_system_commands(screen), self.lang)

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer and the key lists show it, named in the console's language."""
        return key_name(super().get_key_display(binding), self.lang)

    def on_mount(self) -> None:
        self.push_screen(BalanceScreen(self._source, **self._options))
