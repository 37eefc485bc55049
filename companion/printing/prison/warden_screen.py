"""The warden's screen: a landscape page folded in three to stand on the warden's table.

Facing the warden: what the warden does each day, what decides the game (the parole tokens
that parole a prisoner, in large print), and a table to tick the parole tokens given to each
prisoner.
"""

from __future__ import annotations

from companion.language import Language, language
from companion.printing.common.layout import FONT, MARGIN, Sheets
from companion.printing.prison.rules_card import deals, nights, parole_tokens, searched_cells
from companion.rules.prison.scenario import PrisonRules


def day_steps(rules: PrisonRules, lang: Language | None = None) -> list[tuple[str, str]]:
    _ = lang or language()
    return [
        (_("Planning"), _("Wait outside while the prisoners plan and choose work or rest.")),
        (
            _("Interviews"),
            _(
                "Call each prisoner in once, alone. Offer a deal: information for a parole "
                "token, at most %(deals)s a day.",
                deals=deals(_, rules.parole_tokens_per_day),
            ),
        ),
        (
            _("Search"),
            _(
                "Search %(cells)s. Whoever chose work there is caught. The first search ends "
                "the interviews.",
                cells=searched_cells(rules.searches_per_day, _),
            ),
        ),
        (_("Reveal"), _("Watch: the nights of work are counted and who worked is shown.")),
        (
            _("Accusations"),
            _("Watch: prisoners with shivs may accuse each other of dealing with you."),
        ),
    ]


def headline(rules: PrisonRules, lang: Language | None = None) -> tuple[str, str]:
    """The number that decides the game, printed large, and what it means."""
    _ = lang or language()
    tokens = rules.parole_tokens_to_win
    what = _.ngettext("parole token parole a prisoner", "parole tokens parole a prisoner", tokens)
    return str(tokens), what


def limit_lines(rules: PrisonRules, lang: Language | None = None) -> list[str]:
    _ = lang or language()
    lines = [
        _(
            "A prisoner who holds %(tokens)s is paroled: the game ends at once and you win "
            "with them.",
            tokens=parole_tokens(_, rules.parole_tokens_to_win),
        ),
        _(
            "You may give at most %(tokens)s a day, one for each deal.",
            tokens=parole_tokens(_, rules.parole_tokens_per_day),
        ),
        _("You also win when no prisoner is left in the game."),
        _(
            "The prisoners win when they complete %(nights)s of work.",
            nights=nights(_, rules.nights_to_escape),
        ),
    ]
    if rules.max_days is not None:
        lines.append(_("You win when day %(day)s ends with no escape.", day=rules.max_days))
    return lines


def add_warden_screen(
    pdf: Sheets, rules: PrisonRules, prisoners: list[str], lang: Language | None = None
) -> None:
    """``prisoners``: names for the tally (blank lines are printed for empty names)."""
    _ = lang or language()
    pdf.add_page(orientation="L")
    width = (pdf.w - 2 * MARGIN) / 3
    top, bottom = MARGIN, pdf.h - MARGIN - 6
    for i in (1, 2):
        x = MARGIN + i * width
        pdf.fold_line(x, top, x, bottom)
    pad = 5.0
    inner = width - 2 * pad
    # Panel 1: the day.
    x = MARGIN + pad
    pdf.write_at(x, top, inner, _("Warden: your day"), 14, bold=True)
    y = top + 9
    for number, (phase, text) in enumerate(day_steps(rules, _), start=1):
        pdf.write_at(x, y, inner, f"{number}. {phase}", 12, bold=True)
        y = pdf.paragraph(x, y + 6, inner, text, 11) + 4
    # Panel 2: what decides the game.
    x = MARGIN + width + pad
    pdf.write_at(x, top, inner, _("How you win"), 14, bold=True)
    pdf.box(x, top + 10, inner, 38, width=1.0)
    big, meaning = headline(rules, _)
    pdf.write_at(x, top + 12, inner, big, 48, bold=True, align="C")
    pdf.set_font(FONT, "B", 12)
    if pdf.text_width(meaning) <= inner:
        pdf.write_at(x, top + 38, inner, meaning, 12, bold=True, align="C")
    else:  # a longer language: two lines in the box rather than smaller print
        pdf.set_xy(x + 2, top + 33.5)
        pdf.multi_cell(inner - 4, 12 * 0.3528 * 1.2, meaning, align="C")
    y = top + 54
    for line in limit_lines(rules, _):
        y = pdf.paragraph(x, y, inner, line, 11) + 3
    # Panel 3: the tally of tokens given, going on to more pages for a large group.
    x = MARGIN + 2 * width + pad
    left = _tally(pdf, rules, prisoners, x, top, inner, bottom, _("Parole tokens given"), _)
    pdf.scissors_note(
        _("Fold along the dotted lines so the page stands in front of the warden.")
    )
    while left:
        pdf.add_page(orientation="L")
        for panel in range(3):
            x = MARGIN + panel * width + pad
            left = _tally(pdf, rules, left, x, top, inner, bottom, _("Parole tokens (more)"), _)
            if not left:
                break


MIN_ROW = 6.5  # mm
MAX_BOXES = 8  # more tokens to win than this: one box to write the count in
NAME_PT = 11.0  # a name's size in the tally, at most
MIN_NAME_PT = 9.0  # a name that would be smaller on one line goes on two


def name_lines(pdf: Sheets, name: str, w: float) -> list[str]:
    """A name on one line, or on two (split at the space nearest its middle, else in the
    middle) when one line would print it smaller than ``MIN_NAME_PT``."""
    pdf.set_font(FONT, "", MIN_NAME_PT)
    if pdf.text_width(name) <= w or len(name) < 2:
        return [name]
    middle = len(name) / 2
    spaces = [i for i, c in enumerate(name) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - middle)) if spaces else round(middle)
    first, second = name[:cut].rstrip(), name[cut:].lstrip()
    return [first, second] if first and second else [name]


def _tally(
    pdf: Sheets, rules: PrisonRules, prisoners: list[str], x: float, top: float, w: float,
    bottom: float, title: str, _: Language,
) -> list[str]:
    """A row per prisoner to tick the tokens given (two rows' height for a long name);
    returns the names that did not fit."""
    pdf.write_at(x, top, w, title, 14, bold=True)
    to_win = rules.parole_tokens_to_win
    how = (
        _("Tick a box for every token you give. The last box of a row is parole.")
        if to_win <= MAX_BOXES
        else _("Write how many tokens each prisoner holds: %(to_win)s is parole.", to_win=to_win)
    )
    y = pdf.paragraph(x, top + 9, w, how, 11) + 4
    boxes = to_win if to_win <= MAX_BOXES else 1
    box_w = 8.0 if to_win <= MAX_BOXES else 24.0
    name_w = w - boxes * box_w - 2
    split = [name_lines(pdf, name, name_w) if name else [name] for name in prisoners]
    lines_wanted = sum(len(parts) for parts in split)
    row = max(MIN_ROW, min(12.0, (bottom - y) / max(1, lines_wanted)))
    box = min(row - 2.5, 8.0)
    if to_win <= MAX_BOXES:  # the boxes as drawn; the name takes what they leave
        box_w = box
        name_w = w - boxes * box_w - 2
    placed = 0
    for name, parts in zip(prisoners, split, strict=True):
        height = row * len(parts)
        if placed and y + height > bottom + 0.01:
            break
        placed += 1
        if name:
            size = min(NAME_PT, row * 1.2)
            line_h = size * 0.3528 * 1.25
            ly = y + (height - line_h * len(parts)) / 2
            for part in parts:
                pdf.write_at(x, ly, name_w, part, size)
                ly += line_h
        else:
            pdf.set_line_width(0.2)
            pdf.line(x, y + row - 1, x + name_w - 1, y + row - 1)
        by = y + (height - box) / 2
        for b in range(boxes):
            bx = x + name_w + 2 + b * box_w
            pdf.box(bx, by, box_w, box, width=1.0 if b == boxes - 1 else 0.3)
        if to_win > MAX_BOXES:
            pdf.write_at(x + name_w + 2, by + box / 2 - 1.8, box_w - 1, f"/ {to_win}", 7,
                         align="R")
        y += height
    return prisoners[placed:]
