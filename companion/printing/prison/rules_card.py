"""The rules card: who wins and how a day runs, on one page, with the scenario's numbers."""

from __future__ import annotations

from companion.printing.common.layout import MARGIN, Sheets
from companion.rules.core.words import plural
from companion.rules.prison.scenario import PrisonRules

SIZE = 11.5  # pt, the body text
LABEL = 37.0  # mm, the column of phase names


def searched_cells(count: int) -> str:
    """What the warden searches each day, in words: "one prisoner's cell", "the cells of 2
    different prisoners"."""
    if count == 1:
        return "one prisoner's cell"
    return f"the cells of {count} different prisoners"


def win_lines(rules: PrisonRules) -> list[str]:
    lines = [
        f"The prisoners escape together after {plural(rules.nights_to_escape, 'night')} of "
        "work. Everyone still in the game then wins.",
        f"A prisoner who holds {plural(rules.parole_tokens_to_win, 'parole token')} is paroled: "
        "the game ends at once, and that prisoner and the warden win.",
        "The warden wins when no prisoner is left in the game (all caught or shived).",
    ]
    if rules.max_days is not None:
        lines.append(
            f"Time limit: when day {rules.max_days} ends with no escape or parole, the warden wins."
        )
    return lines


def day_lines(rules: PrisonRules) -> list[tuple[str, str]]:
    deals = plural(rules.parole_tokens_per_day, "deal")
    accusations = plural(rules.accusations_per_day, "accusation")
    return [
        (
            "Planning",
            "The warden leaves the room. The prisoners talk, then each one secretly chooses "
            "work or rest on their phone (and may change it until planning closes). "
            "No choice means rest.",
        ),
        (
            "Interviews",
            "Each prisoner sees the warden once, alone. A prisoner who gives information gets "
            f"one parole token. The warden makes at most {deals} a day.",
        ),
        (
            "Search",
            f"The warden searches {searched_cells(rules.searches_per_day)}. A searched "
            "prisoner who chose work is caught and out of the game.",
        ),
        (
            "Reveal",
            "Every prisoner who worked and was not caught adds one night. Who worked is now "
            "public: their work tokens go on the table.",
        ),
        (
            "Accusations",
            f"A prisoner with a shiv may accuse another of collaborating ({accusations} a day "
            "each). If the accused ever took a parole token, they are shived and out; if not, "
            "the accuser hands them one shiv.",
        ),
        ("End of day", "The game master ends the day, and the next day starts with planning."),
    ]


def start_lines(rules: PrisonRules) -> list[str]:
    return [
        f"Every prisoner starts with {plural(rules.shivs_per_prisoner, 'shiv')} and no parole "
        "tokens. Parole tokens are kept secret and never given back.",
        "A prisoner who is out (caught or shived) no longer chooses, is not interviewed or "
        "searched, and cannot accuse or be accused. A shived prisoner's shivs leave with them.",
    ]


def add_rules_card(pdf: Sheets, rules: PrisonRules, scenario: str, prisoners: str) -> None:
    pdf.add_page()
    width = pdf.paper.inner_width
    x = MARGIN
    pdf.write_at(x, MARGIN, width, "The Prisoner's Dilemma: rules card", 20, bold=True)
    pdf.write_at(x, MARGIN + 10, width, f"Scenario {scenario}, {prisoners}, one warden.", SIZE)
    y = _section(pdf, MARGIN + 19, "Who wins")
    for line in win_lines(rules):
        y = _bullet(pdf, y, line)
    y = _section(pdf, y + 4, "Each day")
    for number, (phase, text) in enumerate(day_lines(rules), start=1):
        pdf.write_at(x, y, LABEL, f"{number}. {phase}", SIZE, bold=True)
        y = pdf.paragraph(x + LABEL, y, width - LABEL, text, SIZE) + 2
    y = _section(pdf, y + 4, "Tokens and shivs")
    for line in start_lines(rules):
        y = _bullet(pdf, y, line)
    numbers = (
        f"This scenario: {plural(rules.nights_to_escape, 'night')} to escape · "
        f"{plural(rules.parole_tokens_to_win, 'parole token')} to win · "
        f"{plural(rules.parole_tokens_per_day, 'deal')} a day · "
        f"{plural(rules.searches_per_day, 'search', 'searches')} a day · "
        f"{plural(rules.shivs_per_prisoner, 'shiv')} each"
    )
    y = _section(pdf, y + 4, "The numbers")
    pdf.paragraph(x, y, width, numbers, SIZE)


def _section(pdf: Sheets, y: float, title: str) -> float:
    pdf.write_at(MARGIN, y, pdf.paper.inner_width, title, 14, bold=True)
    pdf.set_line_width(0.3)
    pdf.line(MARGIN, y + 7.2, MARGIN + pdf.paper.inner_width, y + 7.2)
    return y + 9.5


def _bullet(pdf: Sheets, y: float, text: str) -> float:
    pdf.write_at(MARGIN, y, 5, "•", SIZE)
    return pdf.paragraph(MARGIN + 5, y, pdf.paper.inner_width - 5, text, SIZE) + 2
