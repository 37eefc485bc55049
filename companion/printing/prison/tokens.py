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


def token_counts(rules: PrisonRules, prisoners: int) -> list[TokenKind]:
    parole = prisoners * (rules.parole_tokens_to_win - 1) + 1
    shivs = prisoners * rules.shivs_per_prisoner
    return [
        TokenKind("work", "WORK", prisoners, "one per prisoner"),
        TokenKind(
            "parole",
            "PAROLE",
            parole,
            f"{prisoners} prisoners × ({rules.parole_tokens_to_win} to win − 1) + 1",
        ),
        TokenKind(
            "shiv",
            "SHIV",
            shivs,
            f"{prisoners} prisoners × {rules.shivs_per_prisoner} each",
        ),
    ]


def add_token_sheets(pdf: Sheets, rules: PrisonRules, prisoners: int, title: str) -> None:
    paper = pdf.paper
    cols = int(paper.inner_width // CELL)
    left = MARGIN + (paper.inner_width - cols * CELL) / 2
    bottom = paper.height - MARGIN - 7
    y = _new_page(pdf, title)
    for kind in token_counts(rules, prisoners):
        if kind.count == 0:
            continue
        number = 1
        if y + HEADING + CELL > bottom:
            y = _new_page(pdf, title)
        y = _heading(pdf, kind, y)
        while number <= kind.count:
            if y + CELL > bottom:
                y = _new_page(pdf, title)
                y = _heading(pdf, kind, y, more=True)
            row = min(cols, kind.count - number + 1)
            for col in range(row):
                x = left + col * CELL
                pdf.cut_box(x, y, CELL, CELL)
                _token(pdf, kind, number + col, x, y)
            number += row
            y += CELL
        y += 4


def _new_page(pdf: Sheets, title: str) -> float:
    pdf.add_page()
    pdf.write_at(MARGIN, MARGIN, pdf.paper.inner_width, title, 14, bold=True)
    pdf.scissors_note("Cut along the dashed lines. The numbers tell you when a token is missing.")
    return MARGIN + 9


def _heading(pdf: Sheets, kind: TokenKind, y: float, *, more: bool = False) -> float:
    label = f"{kind.word.title()} tokens" if kind.key != "shiv" else "Shivs"
    text = f"{label}{' (continued)' if more else ''}: {kind.count} ({kind.why})"
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
