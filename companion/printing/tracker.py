"""The night tracker: one box per night of work the prisoners need, and a row of days."""

from __future__ import annotations

from companion.printing.layout import MARGIN, Sheets
from companion.rules.scenario import PrisonRules

MAX_BOX = 26.0  # mm
MIN_BOX = 14.0


def day_boxes(rules: PrisonRules) -> int:
    """How many days to print: the time limit if there is one, else room to spare."""
    if rules.max_days is not None:
        return rules.max_days
    return max(12, rules.nights_to_escape + 6)


def add_night_tracker(pdf: Sheets, rules: PrisonRules, title: str) -> None:
    pdf.add_page()
    width = pdf.paper.inner_width
    pdf.write_at(MARGIN, MARGIN, width, title, 14, bold=True)
    y = MARGIN + 10
    nights = rules.nights_to_escape
    y = pdf.paragraph(
        MARGIN,
        y,
        width,
        f"Nights of work: the prisoners escape when all {nights} boxes are covered. After each "
        "reveal, put a marker on one more box for every prisoner who worked and was not caught.",
        10,
    )
    y = _strip(pdf, y + 4, nights, "ESCAPE", "Night")
    limit = rules.max_days
    text = (
        f"Days: cross out each day as it ends. When day {limit} ends without an escape, "
        "the warden wins."
        if limit is not None
        else "Days: cross out each day as it ends (there is no time limit in this scenario)."
    )
    y = pdf.paragraph(MARGIN, y + 8, width, text, 10)
    _strip(pdf, y + 4, day_boxes(rules), "LAST DAY" if limit is not None else "", "Day")
    pdf.scissors_note("Cut the strips out along the dashed lines, or keep the page whole.")


def _strip(pdf: Sheets, y: float, count: int, last: str, word: str) -> float:
    """A row (or rows) of numbered boxes; returns the y below them."""
    width = pdf.paper.inner_width - 6  # room for the cut line around the strip
    bottom = pdf.paper.height - MARGIN - 8
    per_row = max(1, min(count, int(width // MIN_BOX)))
    box = min(MAX_BOX, width / per_row)
    rows = -(-count // per_row)
    while rows > 1 and y + rows * box > bottom and box > 8:
        per_row += 1
        box = width / per_row
        rows = -(-count // per_row)
    left = MARGIN + (pdf.paper.inner_width - per_row * box) / 2
    top = y
    for i in range(count):
        x = left + (i % per_row) * box
        by = top + (i // per_row) * box
        pdf.box(x, by, box, box, width=0.5 if i < count - 1 or not last else 1.2)
        label_size = max(5.0, min(8.0, box / 3.2))
        pdf.write_at(x + 1, by + 1, box - 2, word, label_size)
        pdf.write_at(x, by + box / 2 - 3, box, str(i + 1), min(18.0, box * 0.7), bold=True,
                     align="C")
        if i == count - 1 and last:
            pdf.write_at(x + 1, by + box - label_size * 0.45 - 2, box - 2, last, label_size,
                         bold=True, align="C")
    height = rows * box
    pdf.cut_box(left - 2, top - 2, per_row * box + 4, height + 4)
    return top + height + 2
