"""Help: the rules in short, with this session's numbers, and every key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from companion.language import N_, Language, language
from companion.rules.prison.views import table
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.prison.context import Context

KEYS = N_("""\
Keys on the game screen (the footer offers the ones that fit the phase)
  C  planning: a prisoner's choice, on a private full screen
  X  close planning (asks when someone has not chosen: they rest)
  M  planning time limit (empty: none); at zero you are asked to close
  Space  pause or resume the running clock (planning, an interview)
  +  extend the running clock (planning 1 min, an interview 30 s)
  I  interview: call a prisoner in; countdown, P pause, + extend,
     D deal, N no deal, Esc send them out (nothing recorded)
  S  search a cell; the board waits: each Space shows the room the
     next step (the search, caught or safe, who worked, the nights
     bar), Esc shows it all. A search from the warden's phone opens it
  A  accusation: the accuser, then the accused; the result at once
  E  end the day
  T  private view: parole tokens, today's deals (turns itself off)
  H  history (after the game: F the full story, R the report)
  W  seats: links, QR codes (K or Enter), seat codes (C),
     reissue a seat (N), network test: do phones reach this laptop (I)
  P  print the cards and sheets (PDF, A4 or Letter)
  L  the links' address: pin the printed one, pick another, reprint
  B  balance: how often the prisoners escape, by nights to escape
  G  the game master's phone: its link as a QR code (R: a new link)
  Ctrl+Z  undo the last move (asks; again to go further back)
  Ctrl+P  palette: peek at sealed choices, interview length, ...
  ?  this help      Q  quit (every move is already saved)
  A narrow footer leaves out G, H, W, P, L, B, +, M and T; they still work.
""")

RULES = N_("""\
The prison break, in short
  One warden (%(warden)s) against the prisoners. Every day:
  1. Planning: the warden leaves; each prisoner secretly chooses
     work or rest (no choice means rest).
  2. Interviews: each prisoner sees the warden alone; a deal trades
     information for a parole token (%(deals)s a day at most).
  3. Search: the warden searches %(cells)s; a prisoner caught
     working is out.
  4. Reveal: every other worker completes a night for the group.
  5. Accusations: a prisoner with a shiv may accuse another
     (%(accusations)s a day). If the accused ever took a deal, they are
     shived and out; otherwise the shiv passes to the accused.
  6. End of day.
  The prisoners escape together after %(nights)s of work.
  A prisoner holding %(tokens)s is paroled and wins
  with the warden. The warden wins when no prisoner is left.
  %(limit)s
""")


def rules_text(rules: Mapping[str, Any], warden: str, lang: Language | None = None) -> str:
    """The rules in short with this session's numbers, in ``lang`` (English by default)."""
    _ = lang or language()
    days = rules["max_days"]
    deals = int(rules["parole_tokens_per_day"])
    cells = int(rules["searches_per_day"])
    accusations = int(rules["accusations_per_day"])
    nights = int(rules["nights_to_escape"])
    tokens = int(rules["parole_tokens_to_win"])
    limit = (
        _("The game ends after day %(day)s (time up: the warden wins).", day=days)
        if days
        else _("There is no time limit.")
    )
    return _(
        RULES,
        warden=warden,
        deals=_.n_("%(count)s deal", "%(count)s deals", deals),
        cells=_.n_("%(count)s cell", "%(count)s cells", cells),
        accusations=_.n_("%(count)s accusation", "%(count)s accusations", accusations),
        nights=_.n_("%(count)s night", "%(count)s nights", nights),
        tokens=_.n_("%(count)s parole token", "%(count)s parole tokens", tokens),
        limit=limit,
    )


class HelpScreen(Screen[None]):
    BINDINGS = [Binding("escape,question_mark,f1,q", "close", "Back")]

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.ctx = ctx

    def compose(self) -> ComposeResult:
        _ = words(self)
        view = table(self.ctx.session.state)
        with VerticalScroll(id="help-scroll"):
            yield Static(rules_text(view["rules"], view["warden"], _), markup=False)
            yield Static(_(KEYS), markup=False)
        yield Keys()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
