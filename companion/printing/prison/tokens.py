"""Token sheets: work tokens, parole tokens and shivs to cut out, each numbered.

How many of each the table needs (spec, "The day" and "Scenario parameters"):
- work tokens: one per prisoner (placed on the table at the reveal);
- parole tokens: enough that every prisoner can hold one fewer than parole needs and one more
  can be given: ``prisoners × (parole_tokens_to_win − 1) + 1``;
- shivs: ``prisoners × shivs_per_prisoner`` (shivs pass between prisoners, none are made).
Each kind has its own shape, so they stay apart in black and white: work tokens are squares,
parole tokens circles, shivs diamonds.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.language import N_, Language, language
from companion.printing.common.layout import MARGIN, Sheets
from companion.rules.prison.scenario import PrisonRules

CELL = 31.0  # mm, one token
HEADING = 9.0


@dataclass(frozen=True)
class TokenKind:
    key: str
    word: str
    count: int
    why: str


def token_counts(
    rules: PrisonRules, prisoners: int, lang: Language | None = None
) -> list[TokenKind]:
    _ = lang or language()
    parole = prisoners * (rules.parole_tokens_to_win - 1) + 1
    shivs = prisoners * rules.shivs_per_prisoner
    group = _.n_("%(count)s prisoner", "%(count)s prisoners", prisoners)
    return [
        TokenKind("work", _("WORK"), prisoners, _("one per prisoner")),
        TokenKind(
            "parole",
            _("PAROLE"),
            parole,
            _("%(prisoners)s × (%(to_win)s to win − 1) + 1", prisoners=group,
              to_win=rules.parole_tokens_to_win),
        ),
        TokenKind(
            "shiv",
            _("SHIV"),
            shivs,
            _("%(prisoners)s × %(each)s each", prisoners=group, each=rules.shivs_per_prisoner),
        ),
    ]


def add_token_sheets(
    pdf: Sheets, rules: PrisonRules, prisoners: int, title: str, lang: Language | None = None
) -> None:
    _ = lang or language()
    paper = pdf.paper
    cols = int(paper.inner_width // CELL)
    left = MARGIN + (paper.inner_width - cols * CELL) / 2
    bottom = paper.height - MARGIN - 7
    y = _new_page(pdf, title, _)
    for kind in token_counts(rules, prisoners, _):
        if kind.count == 0:
            continue
        number = 1
        if y + HEADING + CELL > bottom:
            y = _new_page(pdf, title, _)
        y = _heading(pdf, kind, y, _)
        while number <= kind.count:
            if y + CELL > bottom:
                y = _new_page(pdf, title, _)
                y = _heading(pdf, kind, y, _, more=True)
            row = min(cols, kind.count - number + 1)
            for col in range(row):
                x = left + col * CELL
                pdf.cut_box(x, y, CELL, CELL)
                _token(pdf, kind, number + col, x, y)
            number += row
            y += CELL
        y += 4


def _new_page(pdf: Sheets, title: str, _: Language) -> float:
    pdf.add_page()
    pdf.write_at(MARGIN, MARGIN, pdf.paper.inner_width, title, 14, bold=True)
    pdf.scissors_note(
        _("Cut along the dashed lines. The numbers tell you when a token is missing.")
    )
    return MARGIN + 9


HEADINGS = {"work": N_("Work tokens"), "parole": N_("Parole tokens"), "shiv": N_("Shivs")}


def _heading(pdf: Sheets, kind: TokenKind, y: float, _: Language, *, more: bool = False) -> float:
    label = _(HEADINGS[kind.key])
    if more:
        label = _("%(heading)s (continued)", heading=label)
    text = _("%(heading)s: %(count)s (%(why)s)", heading=label, count=kind.count, why=kind.why)
    pdf.write_at(MARGIN, y + 2, pdf.paper.inner_width, text, 9, bold=True)
    return y + HEADING


def _token(pdf: Sheets, kind: TokenKind, number: int, x: float, y: float) -> None:
    pdf.set_line_width(0.5)
    inset = 3.0
    size = CELL - 2 * inset
    cx, cy = x + CELL / 2, y + CELL / 2
    if kind.key == "work":
        pdf.rect(x + inset + 1, y + inset + 1, size - 2, size - 2)
    elif kind.key == "parole":
        pdf.ellipse(x + inset, y + inset, size, size)
    else:
        half = size / 2
        pdf.polygon([(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy)])
    word_size = 9 if kind.key != "shiv" else 8
    pdf.write_at(x, cy - 4.5, CELL, kind.word, word_size, bold=True, align="C")
    pdf.write_at(x, cy + 0.5, CELL, f"#{number}", 9, align="C")
