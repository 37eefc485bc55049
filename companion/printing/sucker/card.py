"""A one-page So Long Sucker rules summary, with "who moves next" drawn as a flow chart.

Printed by ``companion sucker-rules [--paper a4|letter] [--out FILE]`` with fpdf2, on
printing/common's papers, margin, fixed date and DejaVu Sans. The text follows the referee's
rules (docs/rules/so-long-sucker.md), rulings included.
"""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from companion.errors import UserError
from companion.language import N_, Language, language, pN_
from companion.printing.common.layout import FIXED_DATE, FONT_DIR, MARGIN, PAPERS
from companion.rules.sucker.views import LETTERING, color_keys

INK = (30, 30, 30)
QUESTION = (255, 243, 196)  # a decision
OUTCOME = (214, 232, 250)  # who moves next
DANGER = (250, 214, 214)  # defeat
WIN = (214, 244, 214)

# The chips a player holds of another's color: "prisoners" in the English rules, a word of its
# own in the other languages (never the prison break's prisoners).
CHIPS = "So Long Sucker's chips"
CONTEXT = {"Prisoners"}  # the headings said in that context
RULES = [
    (
        N_("Setup"),
        N_(
            "2 to 6 players (4 is the classic game), each with 7 chips of their own color, in "
            "view at all times. A chip held by anyone but its color's player is a **prisoner**. "
            "The first mover is drawn at random."
        ),
    ),
    (N_("Chip letters"), LETTERING),
    (
        N_("A move"),
        N_(
            "The player to move plays one chip they hold (their color or a prisoner) on a new "
            "pile or on top of a pile. Piles are numbered 1, 2, 3… and a number is never reused."
        ),
    ),
    (
        N_("Capture"),
        N_(
            "Two chips of the same color on top of each other capture the pile for **that "
            "color's player** (not necessarily the one who played): they kill one chip of their "
            "choice (out of the game), take the rest (own color back to supply, others as "
            "prisoners) and move next."
        ),
    ),
    (
        pN_("So Long Sucker's chips", "Prisoners"),
        N_(
            "At any time a player may kill a prisoner they hold, or give it to any live player, "
            "unconditionally. Nobody may give or kill chips of their own color."
        ),
    ),
    (
        N_("Defeat and rescue"),
        N_(
            "A player given the move with no chips awaits rescue: any holder of prisoners may give "
            "them a chip (then they must move) or refuse. When every holder has refused, or nobody "
            "holds prisoners, they are **defeated** for good; their chips stay in play as "
            "prisoners but their color no longer counts for the order of play."
        ),
    ),
    (
        N_("Winning"),
        N_(
            "The last live player wins, even one holding no chips. Coalitions are allowed; "
            "nothing binds anyone to keep a promise."
        ),
    ),
]


class Card:
    """The card being drawn: an fpdf2 page and the helpers that lay it out."""

    def __init__(self, paper: str, scale: float = 1.0, lang: Language | None = None) -> None:
        self.scale = scale
        self._ = _ = lang or language()
        if paper not in PAPERS:
            raise UserError(f"{paper!r} is not a paper size this prints on; use a4 or letter.")
        self.width, self.height = PAPERS[paper].width, PAPERS[paper].height
        pdf = FPDF(unit="mm", format=(self.width, self.height))
        pdf.set_creation_date(FIXED_DATE)
        pdf.set_title(_("So Long Sucker: rules at a glance"))
        pdf.set_author("companion")
        pdf.set_auto_page_break(False)
        pdf.add_font("dejavu", "", str(FONT_DIR / "DejaVuSans.ttf"))
        pdf.add_font("dejavu", "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
        pdf.set_margins(MARGIN, MARGIN, MARGIN)
        pdf.add_page()
        pdf.set_text_color(*INK)
        pdf.set_draw_color(*INK)
        self.pdf = pdf

    # ---- drawing helpers ----------------------------------------------------------------

    def lines(self, text: str, width: float, size: float, markdown: bool = True) -> int:
        self.pdf.set_font("dejavu", "", size)
        got = self.pdf.multi_cell(
            width, size * 0.45, text, dry_run=True, output="LINES", markdown=markdown
        )
        assert isinstance(got, list)
        return len(got)

    def box(
        self, x: float, y: float, w: float, text: str, fill: tuple[int, int, int],
        size: float = 7.5,
    ) -> float:
        """A rounded box with centred text; returns its height."""
        size *= self.scale
        pad = 1.6
        lh = size * 0.45
        h = self.lines(text, w - 2 * pad, size) * lh + 2 * pad
        self.pdf.set_fill_color(*fill)
        self.pdf.set_line_width(0.3)
        self.pdf.rect(x, y, w, h, style="DF", round_corners=True, corner_radius=2)
        self.pdf.set_xy(x + pad, y + pad)
        self.pdf.set_font("dejavu", "", size)
        self.pdf.multi_cell(w - 2 * pad, lh, text, align="C", markdown=True)
        if self.pdf.get_y() > y + h + 0.5:
            raise AssertionError(f"text overflows its box: {text[:30]!r}")
        return h

    def arrow(self, x1: float, y1: float, x2: float, y2: float, label: str = "") -> None:
        pdf = self.pdf
        pdf.set_line_width(0.35)
        pdf.line(x1, y1, x2, y2)
        dx, dy = x2 - x1, y2 - y1
        length = max((dx * dx + dy * dy) ** 0.5, 0.01)
        ux, uy = dx / length, dy / length
        size = 1.8
        left = (x2 - ux * size - uy * size * 0.6, y2 - uy * size + ux * size * 0.6)
        right = (x2 - ux * size + uy * size * 0.6, y2 - uy * size - ux * size * 0.6)
        pdf.set_fill_color(*INK)
        pdf.polygon([(x2, y2), left, right], style="F")
        if label:
            pdf.set_font("dejavu", "B", 7)
            pdf.set_xy((x1 + x2) / 2 + 1, (y1 + y2) / 2 - 1.8)
            pdf.cell(10, 3.6, label)

    def chip(self, x: float, y: float, letter: str, fill: tuple[int, int, int]) -> None:
        pdf = self.pdf
        pdf.set_fill_color(*fill)
        pdf.set_line_width(0.3)
        pdf.ellipse(x, y, 9, 5, style="DF")
        pdf.set_font("dejavu", "B", 7.5)
        pdf.set_xy(x, y + 0.6)
        pdf.cell(9, 3.8, letter, align="C")

    # ---- the page -----------------------------------------------------------------------

    def title(self) -> float:
        pdf = self.pdf
        pdf.set_xy(MARGIN, MARGIN)
        pdf.set_font("dejavu", "B", 18)
        pdf.cell(0, 8, self._("So Long Sucker: rules at a glance"))
        pdf.set_xy(MARGIN, MARGIN + 8.5)
        pdf.set_font("dejavu", "", 8.5)
        pdf.multi_cell(
            0, 4.2,
            self._(
                "The chip game of coalitions and betrayal by Hausner, Nash, Shapley and Shubik "
                "(1950). Referee it live with: companion sucker NAME"
            ),
            align="L",
        )
        return pdf.get_y() + 3

    def rules(self, top: float) -> float:
        pdf = self.pdf
        gap = 6.0
        col = (self.width - 2 * MARGIN - gap) / 2
        half = (len(RULES) + 1) // 2
        bottom = top
        for c, chunk in enumerate((RULES[:half], RULES[half:])):
            x = MARGIN + c * (col + gap)
            y = top
            for heading, text in chunk:
                pdf.set_xy(x, y)
                pdf.set_font("dejavu", "B", 10 * self.scale)
                said = self._.pgettext(CHIPS, heading) if heading in CONTEXT else self._(heading)
                pdf.cell(col, 5, said)
                y += 5.2 * self.scale
                pdf.set_xy(x, y)
                size = 8.3 * self.scale
                pdf.set_font("dejavu", "", size)
                pdf.multi_cell(col, size * 0.46, self._(text), markdown=True, align="L")
                y = pdf.get_y() + 2.2
            bottom = max(bottom, y)
        return bottom

    def flow(self, top: float) -> float:
        """Who moves next, as a flow chart; returns the bottom."""
        pdf = self.pdf
        _ = self._
        inner = self.width - 2 * MARGIN
        mid = MARGIN + inner / 2
        pdf.set_xy(MARGIN, top)
        pdf.set_font("dejavu", "B", 12)
        pdf.cell(0, 6, _("Who moves next?"))
        y = top + 8
        w = 66.0
        h = self.box(mid - w / 2, y, w, _("A chip is played on a pile."), OUTCOME)
        self.arrow(mid, y + h, mid, y + h + 5)
        y += h + 5
        h = self.box(mid - w / 2, y, w, _("Is it the **same color** as the chip directly under "
                     "it?"), QUESTION)
        split = y + h / 2
        lx, rx = MARGIN + 2, MARGIN + inner - 2 - 84
        bw = 84.0
        y += h + 7
        # left: a capture
        self.pdf.set_line_width(0.35)
        self.pdf.line(mid - w / 2, split, lx + bw / 2, split)
        self.arrow(lx + bw / 2, split, lx + bw / 2, y, _("yes"))
        h1 = self.box(lx, y, bw, _("**Capture.** Is that color's player defeated?"), QUESTION)
        # right: no capture
        self.pdf.line(mid + w / 2, split, rx + bw / 2, split)
        self.arrow(rx + bw / 2, split, rx + bw / 2, y, _("no"))
        h2 = self.box(rx, y, bw, _("Is **every live player's color** in that pile?"), QUESTION)
        y2 = y + max(h1, h2) + 7
        sub = (bw - 4) / 2
        outcomes = [
            (lx, y + h1, _("no"), _("That color's player kills one chip of the pile, takes "
             "the rest and **moves next**."), OUTCOME),
            (lx + sub + 4, y + h1, _("yes"), _("The whole pile is killed; the move "
             "**rebounds** to whoever played the chip."), OUTCOME),
            (rx, y + h2, _("yes"), _("The live player whose **topmost chip lies deepest** in "
             "the pile moves next."), OUTCOME),
            (rx + sub + 4, y + h2, _("no"), _("The mover **names** a live player whose color "
             "is not in the pile (themselves too, after playing a prisoner). Only one? It is "
             "them."), OUTCOME),
        ]
        bottom = y2
        for x, start, label, text, fill in outcomes:
            self.arrow(x + sub / 2, start, x + sub / 2, y2, label)
            bottom = max(bottom, y2 + self.box(x, y2, sub, text, fill, size=7))
        y3 = bottom + 7
        for x, *_rest in outcomes:
            pdf.set_line_width(0.35)
            pdf.line(x + sub / 2, bottom, x + sub / 2, bottom + 3)
        pdf.line(lx + sub / 2, bottom + 3, rx + sub + 4 + sub / 2, bottom + 3)
        self.arrow(mid, bottom + 3, mid, y3)
        w3 = 110.0
        h = self.box(mid - w3 / 2, y3, w3, _("Does the player given the move **hold no chips**?"),
                     QUESTION)
        yes_y = y3 + h / 2
        pdf.set_line_width(0.35)
        pdf.line(mid + w3 / 2, yes_y, MARGIN + inner - 2 - 26, yes_y)
        pdf.set_font("dejavu", "B", 7)
        pdf.set_xy(mid - w3 / 2 - 16, yes_y - 1.8)
        pdf.cell(14, 3.6, _("no: they play"), align="R")
        y4 = y3 + h + 7
        w4 = inner - 4
        self.arrow(MARGIN + inner - 2 - 26, yes_y, MARGIN + inner - 2 - 26, y4, _("yes"))
        h = self.box(
            MARGIN + 2, y4, w4,
            _(
                "**Rescue round.** Each holder of prisoners may give them a chip (then they "
                "must move) or refuse. Once every holder has refused, or if nobody holds "
                "prisoners: **defeated**. The move returns to the player who gave it to them "
                "(the last other player who did); if that player holds no chips, the same "
                "happens to them: **defeat can cascade**. A defeated giver is skipped back "
                "along the givers; if none is left, the move goes to the next live player in "
                "seating order."
            ),
            DANGER,
        )
        y5 = y4 + h + 5
        self.arrow(mid, y4 + h, mid, y5)
        h = self.box(mid - w3 / 2, y5, w3, _("**One live player left: they win.**"), WIN)
        return y5 + h

    def example(self, top: float) -> float:
        """A pile drawn as chips: who moves when every color is in it."""
        pdf = self.pdf
        x = MARGIN
        pdf.set_xy(x, top)
        pdf.set_font("dejavu", "B", 9)
        pdf.cell(0, 4.5, self._("Example: every color is in the pile, so the deepest one moves"))
        _ = self._
        # The example's colors as a game names them, lettered as the referee's screen letters
        # them and the referee types them (views.color_keys), in every language.
        names = ["red", "blue", "green", "yellow"]
        keys = color_keys(names)
        fills = [(230, 90, 90), (110, 150, 230), (120, 200, 120), (240, 220, 90)]
        chips = [(keys[name], fill) for name, fill in zip(names, fills, strict=True)]
        chips.append(chips[0])
        y = top + 6
        for i, (letter, fill) in enumerate(chips):
            self.chip(x + i * 11, y, letter, fill)
        pdf.set_font("dejavu", "", 7.5)
        pdf.set_xy(x + 5 * 11 + 2, y)
        pdf.multi_cell(
            self.width - 2 * MARGIN - 60, 3.4,
            self._(
                "bottom → top. Red's topmost chip is now on top; Blue's lies deepest, so Blue "
                "moves next. A second blue on top would instead capture the pile for Blue."
            ),
        )
        return y + 8

    def footer(self) -> None:
        pdf = self.pdf
        pdf.set_xy(MARGIN, self.height - MARGIN - 4)
        pdf.set_font("dejavu", "", 7)
        pdf.cell(
            0, 4,
            self._(
                "Players may confer only openly at the table; no secret or prior agreements. "
                "Printed by companion (companion sucker-rules)."
            ),
        )


def rules_card_pdf(paper: str = "a4", lang: Language | None = None) -> bytes:
    """The card, in ``lang`` (English by default), in the largest type that fits the page."""
    for scale in (1.15, 1.1, 1.05, 1.0, 0.95, 0.9, 0.85, 0.8):
        card = Card(paper, scale, lang)
        y = card.title()
        y = card.rules(y + 1)
        y = card.example(y)
        bottom = card.flow(y + 3)
        if bottom <= card.height - MARGIN - 6:
            break
    else:
        raise AssertionError(f"the rules card overflows the page ({bottom:.0f} mm)")
    card.footer()
    return bytes(card.pdf.output())


def write_rules_card(path: Path, paper: str = "a4", lang: Language | None = None) -> Path:
    data = rules_card_pdf(paper, lang)
    try:
        path.write_bytes(data)
    except OSError as error:
        raise UserError(f"{path} cannot be written: {error.strerror}.") from None
    return path
