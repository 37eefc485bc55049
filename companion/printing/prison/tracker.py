"""The night tracker: one box per night of work the prisoners need, and a row of days."""

from __future__ import annotations

from companion.language import Language, language
from companion.printing.common.layout import MARGIN, Sheets
from companion.rules.prison.scenario import PrisonRules

MAX_BOX = 26.0  # mm
MIN_BOX = 14.0


def day_boxes(rules: PrisonRules) -> int:
    """How many days to print: the time limit if there is one, else room to spare."""
    if rules.max_days is not None:
        return rules.max_days
    return max(12, rules.nights_to_escape + 6)


def add_night_tracker(
    pdf: Sheets, rules: PrisonRules, title: str, lang: Language | None = None
) -> None:
    _ = lang or language()
    width = pdf.paper.inner_width
    y = _page(pdf, title, _)
    nights = rules.nights_to_escape
    y = pdf.paragraph(
        MARGIN,
        y,
        width,
        _(
            "Nights of work: the prisoners escape when all %(nights)s boxes are covered. After "
            "each reveal, put a marker on one more box for every prisoner who worked and was "
            "not caught.",
            nights=nights,
        ),
        10,
    )
    y = _strip(pdf, y + 4, nights, _("ESCAPE"), _("Night"), title, _)
    limit = rules.max_days
    text = (
        _(
            "Days: cross out each day as it ends. When day %(day)s ends without an escape, "
            "the warden wins.",
            day=limit,
        )
        if limit is not None
        else _("Days: cross out each day as it ends (there is no time limit in this scenario).")
    )
    if y + 8 + 10 + MIN_BOX > _bottom(pdf):
        y = _page(pdf, _("%(title)s (continued)", title=title), _)
    y = pdf.paragraph(MARGIN, y + 8, width, text, 10)
    last = _("LAST DAY") if limit is not None else ""
    _strip(pdf, y + 4, day_boxes(rules), last, _("Day"), title, _)


def _page(pdf: Sheets, title: str, _: Language) -> float:
    pdf.add_page()
    pdf.write_at(MARGIN, MARGIN, pdf.paper.inner_width, title, 14, bold=True)
    pdf.scissors_note(_("Cut the strips out along the dashed lines, or keep the page whole."))
    return MARGIN + 10


def _bottom(pdf: Sheets) -> float:
    return pdf.paper.height - MARGIN - 8


def _strip(
    pdf: Sheets, y: float, count: int, last: str, word: str, title: str, _: Language
) -> float:
    """Rows of numbered boxes, going on to new pages as needed; returns the y below them."""
    width = pdf.paper.inner_width - 6  # room for the cut line around the strip
    per_row = max(1, min(count, int(width // MIN_BOX)))
    box = min(MAX_BOX, width / per_row)
    left = MARGIN + (pdf.paper.inner_width - per_row * box) / 2
    label = max(5.0, min(8.0, box / 3.2))
    first = 0
    while first < count:
        rows = max(0, int((_bottom(pdf) - y - 2) // box))
        if rows == 0:
            y = _page(pdf, _("%(title)s (continued)", title=title), _) + 4
            continue
        end = min(count, first + rows * per_row)
        for i in range(first, end):
            x = left + (i % per_row) * box
            by = y + ((i - first) // per_row) * box
            final = i == count - 1 and bool(last)
            pdf.box(x, by, box, box, width=1.2 if final else 0.5)
            pdf.write_at(x + 1, by + 1, box - 2, word, label)
            pdf.write_at(x, by + box / 2 - 3, box, str(i + 1), min(18.0, box * 0.7), bold=True,
                         align="C")
            if final:
                pdf.write_at(x + 1, by + box - label * 0.45 - 2, box - 2, last, label,
                             bold=True, align="C")
        used = -(-(end - first) // per_row)
        columns = per_row if used > 1 else end - first
        pdf.cut_box(left - 2, y - 2, columns * box + 4, used * box + 4)
        y += used * box + 2
        first = end
    return y
