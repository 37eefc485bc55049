"""The referee's screen: the game master types each move as it happens at the table; the screen
shows what the table says now (the piles, the players, the log) and draws itself from the
session, which it follows (:mod:`companion.tui.common.follow`)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, RichLog, Static
from textual.widgets.input import Selection

from companion.language import N_, Language
from companion.rules.sucker.views import LETTERING, event_phrase, says, standing, table
from companion.session.sucker import SuckerSession
from companion.tui.common.follow import Redraw
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.common.moves import NotDone, attempt
from companion.tui.common.panel import Panel
from companion.tui.sucker.chips import PlayersPanel, dead_text
from companion.tui.sucker.entry import (
    COLORS_HELP,
    SYNTAX,
    UNDO,
    EntryError,
    View,
    command_text,
    hint,
    moves,
    parse_entry,
)
from companion.tui.sucker.line import MoveLine
from companion.tui.sucker.piles import Piles, natural_height

LOG_LEAST = 5  # the log's rows at least (3 lines in its frame)
MAIN_LEAST = 6  # the piles' and players' rows at least
LETTERS_HELP = N_("letters")


class RefereeScreen(Screen[None]):
    """The table of one So Long Sucker session and the line the moves are typed on."""

    def __init__(self, session: SuckerSession) -> None:
        super().__init__()
        self.session = session
        # A refused line and the lines held after it until the keys already sent are read:
        # (token, the line, why it was refused, how many lines after it changed nothing).
        self._held: tuple[int, str, str, int] | None = None
        self._token = 0

    # ---- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        _ = words(self)
        yield Header()
        yield Panel(id="says")
        with Horizontal(id="main"):
            with VerticalScroll(id="piles-box"):
                yield Piles(id="piles")
            yield Static(id="players")
        with VerticalScroll(id="help"):  # at 80x24 taller than its box: PgUp/PgDn scroll it
            yield Static(id="help-text")
        yield RichLog(id="log", markup=False, wrap=True)
        yield Panel(id="hint")
        yield MoveLine(id="entry")
        yield Panel(id="problem")
        yield Keys()

    def on_mount(self) -> None:
        _ = words(self)
        self.query_one("#piles-box").border_title = _("Piles (top chip first)")
        self.query_one("#players").border_title = _("Players")
        self.query_one("#log").border_title = _("Log")
        self.query_one("#log").border_subtitle = _("PgUp/PgDn scroll")
        self.query_one("#help").border_title = _("What to type (F1 or Esc closes)")
        self.query_one("#help").border_subtitle = _("PgUp/PgDn scroll")
        self.query_one("#help-text", Static).update(self._help())
        log = self.query_one("#log", RichLog)
        for entry in self.session.history.entries[-40:]:
            self._log_entry(log, entry)
        self.refresh_table()
        self.query_one("#entry", MoveLine).focus()

    # ---- drawing ----------------------------------------------------------------------

    @property
    def view(self) -> View:
        return table(self.session.state)

    def refresh_table(self) -> None:
        _ = words(self)
        view = self.view
        top = self.query_one("#says", Panel)
        top.text = _.say(says(view["awaiting"], view["winner"]))
        top.set_class(view["winner"] is not None, "over")
        top.set_class(view["awaiting"]["what"] == "rescue", "rescue")
        self.query_one("#piles-box").border_subtitle = plain(dead_text(_, view))
        self.query_one("#players", Static).update(self._players(view))
        self.query_one("#hint", Panel).text = hint(_, view)
        # as typed, in every language: this table's own letters, players and piles
        self.query_one("#entry", MoveLine).placeholder = _("move: %(moves)s", moves=moves(view))
        self.fit()
        self.call_after_refresh(self.fit)  # once the lines above have their heights

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit)

    def fit(self) -> None:
        """Give the piles and players the rows they need, up to what leaves the log at least
        ``LOG_LEAST`` rows; the log takes the rest. The piles are drawn for the rows they get
        (cut with a word when they must be)."""
        view = self.view
        box = self.query_one("#piles-box")
        players = self.query_one("#players", Static)
        width = box.content_size.width
        if not width:
            return
        console = self.app.console
        options = console.options.update_width(max(players.content_size.width, 1))
        needed = max(
            natural_height(words(self), view, width),
            len(console.render_lines(self._players(view), options, pad=False)),
        ) + box.styles.gutter.height
        others = sum(
            w.outer_size.height
            for w in self.children
            if w.id not in ("main", "log", "help") and w.display
        )
        rows = max(min(needed, self.size.height - others - LOG_LEAST), MAIN_LEAST)
        main = self.query_one("#main")
        if main.styles.height is None or main.styles.height.value != rows:
            main.styles.height = rows
            self.query_one("#log", RichLog).scroll_end(animate=False, immediate=False)
        self.query_one("#piles", Piles).show(view, rows - box.styles.gutter.height)

    def _players(self, view: View) -> PlayersPanel:
        _ = words(self)
        rows = []
        for p in view["players"]:
            status, pointer = self._status(_, view, p["name"])
            rows.append((p, status, pointer))
        return PlayersPanel(_, view, rows)

    @staticmethod
    def _status(lang: Language, view: View, name: str) -> tuple[str, str]:
        """A player's status (in ``lang``) and their mark (the rules' :func:`standing`, as the
        game master's phone shows it too)."""
        said, mark = standing(view, name)  # type: ignore[arg-type]
        return (lang.say(said) if said is not None else ""), mark

    def _help(self) -> Table:
        _ = words(self)
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        for typed, meaning in SYNTAX:
            grid.add_row(typed, _(meaning))
        grid.add_row(_(COLORS_HELP[0]), _(COLORS_HELP[1]))
        grid.add_row(_(LETTERS_HELP), _(LETTERING))
        return grid

    # ---- the log ----------------------------------------------------------------------

    def _log_entry(self, log: RichLog, entry: Any) -> None:
        _ = words(self)
        if entry.kind == "undo":
            taken = self.session.history.entries[entry.reverts - 1].command
            what = command_text(_, self.session.rules.engine.command_to_dict(taken))
            log.write(plain(_("Undone: %(what)s.", what=what), "italic"))
            return
        for event in entry.events:
            line = event_phrase(event)
            if line is not None:
                log.write(plain(_.say(line)))

    def log_entry(self, entry: Any) -> None:
        """Write a new move's lines (or an undo's) in the log."""
        self._log_entry(self.query_one("#log", RichLog), entry)

    @on(Redraw)
    def _redraw(self) -> None:
        self.refresh_table()

    # ---- entry ------------------------------------------------------------------------

    def _problem(self, text: str, bell: bool = True) -> None:
        self.query_one("#problem", Panel).text = text
        if text and bell:
            self.app.bell()

    def on_move_line_entered(self, message: MoveLine.Entered) -> None:
        """Apply entered lines strictly in the order they were entered. A refused line stops
        the lines after it that were on their way before the refusal was on screen: those of
        the same paste, and the keys a terminal without bracketed paste typed out for it
        (:mod:`companion.tui.sucker.line`); the sentence says so. A line typed after the
        refusal was shown stands alone, as typed slowly."""
        held = self._held
        if held is not None:  # sent before the refusal could be read: changes nothing
            self._held = (held[0], held[1], held[2], held[3] + len(message.lines))
            self._say_refused()
            return
        for i, text in enumerate(message.lines):
            reason = self._apply(text)
            if reason is None:
                continue
            self._token += 1
            self._held = (self._token, text, reason, len(message.lines) - i - 1)
            self._say_refused()
            entry = self.query_one("#entry", MoveLine)
            self.call_after_refresh(entry.catch_up, self._token)
            return
        self._problem("")

    def on_move_line_caught_up(self, message: MoveLine.CaughtUp) -> None:
        """Every key sent before the refusal was shown has been read: the refused line is back
        on the move line, selected (typing replaces it), and the next line counts again."""
        held = self._held
        if held is None or held[0] != message.token:
            return
        self._held = None
        entry = self.query_one("#entry", MoveLine)
        entry.value = held[1]
        entry.selection = Selection(0, len(held[1]))

    def _say_refused(self) -> None:
        assert self._held is not None
        _, text, reason, after = self._held
        if after:
            reason = words(self).n_(
                "%(line)r: %(reason)s The line pasted after it changed nothing; paste them "
                "again once this one is right.",
                "%(line)r: %(reason)s The %(count)s lines pasted after it changed nothing; "
                "paste them again once this one is right.",
                after, line=text.strip(), reason=reason,
            )
        self._problem(reason, bell=after == 0)

    def _apply(self, text: str) -> str | None:
        """Enter one line; the sentence saying why it changed nothing, or ``None``."""
        try:
            command = parse_entry(words(self), self.view, text)
        except EntryError as error:
            return str(error)
        if command == UNDO:
            done = attempt(self.session.undo)
        else:
            done = attempt(lambda: self.session.submit(command))
        return done.said(words(self)) if isinstance(done, NotDone) else None

    # ---- what the app's keys do -------------------------------------------------------

    def undo(self) -> None:
        done = attempt(self.session.undo)
        self._problem(done.said(words(self)) if isinstance(done, NotDone) else "")

    def toggle_help(self) -> None:
        """The keys in place of the table and the log; the move line stays where it is."""
        shown = self.query_one("#help").toggle_class("shown").has_class("shown")
        self.query_one("#main").display = not shown
        self.query_one("#log").display = not shown
        if not shown:
            self.call_after_refresh(self.fit)

    def escape(self) -> None:
        """Esc closes the help if it is open, else clears the move line."""
        if self.query_one("#help").has_class("shown"):
            self.toggle_help()
            return
        self.query_one("#entry", MoveLine).value = ""
        self._problem("")

    def scroll_log(self, pages: int) -> None:
        """PgUp/PgDn scroll the log, or the help while it is open."""
        help_box = self.query_one("#help", VerticalScroll)
        log = help_box if help_box.has_class("shown") else self.query_one("#log", RichLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def focus_entry(self) -> None:
        self.query_one("#entry", MoveLine).focus()
