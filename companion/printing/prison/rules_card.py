"""The rules card: who wins and how a day runs, on one page, with the scenario's numbers."""

from __future__ import annotations

from companion.language import Language, language
from companion.printing.common.layout import MARGIN, Sheets
from companion.rules.prison.scenario import PrisonRules

SIZE = 11.5  # pt, the body text
LABEL = 37.0  # mm, the column of phase names


def searched_cells(count: int, lang: Language | None = None) -> str:
    """What the warden searches each day, in words: "one prisoner's cell", "the cells of 2
    different prisoners"."""
    _ = lang or language()
    if count == 1:
        return _("one prisoner's cell")
    return _("the cells of %(count)s different prisoners", count=count)


def nights(_: Language, count: int) -> str:
    return _.n_("%(count)s night", "%(count)s nights", count)


def parole_tokens(_: Language, count: int) -> str:
    return _.n_("%(count)s parole token", "%(count)s parole tokens", count)


def deals(_: Language, count: int) -> str:
    return _.n_("%(count)s deal", "%(count)s deals", count)


def shivs(_: Language, count: int) -> str:
    return _.n_("%(count)s shiv", "%(count)s shivs", count)


def win_lines(rules: PrisonRules, lang: Language | None = None) -> list[str]:
    _ = lang or language()
    lines = [
        _(
            "The prisoners escape together after %(nights)s of work. Everyone still in the "
            "game then wins.",
            nights=nights(_, rules.nights_to_escape),
        ),
        _(
            "A prisoner who holds %(tokens)s is paroled: the game ends at once, and that "
            "prisoner and the warden win.",
            tokens=parole_tokens(_, rules.parole_tokens_to_win),
        ),
        _("The warden wins when no prisoner is left in the game (all caught or shived)."),
    ]
    if rules.max_days is not None:
        lines.append(
            _(
                "Time limit: when day %(day)s ends with no escape or parole, the warden wins.",
                day=rules.max_days,
            )
        )
    return lines


def day_lines(rules: PrisonRules, lang: Language | None = None) -> list[tuple[str, str]]:
    _ = lang or language()
    accusations = _.n_("%(count)s accusation", "%(count)s accusations", rules.accusations_per_day)
    return [
        (
            _("Planning"),
            _(
                "The warden leaves the room. The prisoners talk, then each one secretly chooses "
                "work or rest on their phone (and may change it until planning closes). "
                "No choice means rest."
            ),
        ),
        (
            _("Interviews"),
            _(
                "Each prisoner sees the warden once, alone. A prisoner who gives information "
                "gets one parole token. The warden makes at most %(deals)s a day.",
                deals=deals(_, rules.parole_tokens_per_day),
            ),
        ),
        (
            _("Search"),
            _(
                "The warden searches %(cells)s. A searched prisoner who chose work is caught "
                "and out of the game.",
                cells=searched_cells(rules.searches_per_day, _),
            ),
        ),
        (
            _("Reveal"),
            _(
                "Every prisoner who worked and was not caught adds one night. Who worked is now "
                "public: their work tokens go on the table."
            ),
        ),
        (
            _("Accusations"),
            _(
                "A prisoner with a shiv may accuse another of collaborating (%(accusations)s a "
                "day each). If the accused ever took a parole token, they are shived and out; "
                "if not, the accuser hands them one shiv.",
                accusations=accusations,
            ),
        ),
        (
            _("End of day"),
            _("The game master ends the day, and the next day starts with planning."),
        ),
    ]


def start_lines(rules: PrisonRules, lang: Language | None = None) -> list[str]:
    _ = lang or language()
    return [
        _(
            "Every prisoner starts with %(shivs)s and no parole tokens. Parole tokens are kept "
            "secret and never given back.",
            shivs=shivs(_, rules.shivs_per_prisoner),
        ),
        _(
            "A prisoner who is out (caught or shived) no longer chooses, is not interviewed or "
            "searched, and cannot accuse or be accused. A shived prisoner's shivs leave with "
            "them."
        ),
    ]


def add_rules_card(
    pdf: Sheets, rules: PrisonRules, scenario: str, prisoners: int, lang: Language | None = None
) -> None:
    _ = lang or language()
    pdf.add_page()
    width = pdf.paper.inner_width
    x = MARGIN
    pdf.write_at(x, MARGIN, width, _("The Prisoner's Dilemma: rules card"), 20, bold=True)
    group = _.n_("%(count)s prisoner", "%(count)s prisoners", prisoners)
    pdf.write_at(
        x, MARGIN + 10, width,
        _("Scenario %(scenario)s, %(prisoners)s, one warden.", scenario=scenario,
          prisoners=group),
        SIZE,
    )
    y = _section(pdf, MARGIN + 19, _("Who wins"))
    for line in win_lines(rules, _):
        y = _bullet(pdf, y, line)
    y = _section(pdf, y + 4, _("Each day"))
    # a longer language widens the column of phase names (up to half as much again)
    widest = max(_width(pdf, f"{n}. {p}") for n, (p, _t) in enumerate(day_lines(rules, _), 1))
    label = min(LABEL * 1.5, max(LABEL, widest + 2))
    for number, (phase, text) in enumerate(day_lines(rules, _), start=1):
        pdf.write_at(x, y, label, f"{number}. {phase}", SIZE, bold=True)
        y = pdf.paragraph(x + label, y, width - label, text, SIZE) + 2
    y = _section(pdf, y + 4, _("Tokens and shivs"))
    for line in start_lines(rules, _):
        y = _bullet(pdf, y, line)
    numbers = _(
        "This scenario: %(nights)s to escape · %(tokens)s to win · %(deals)s a day · "
        "%(searches)s a day · %(shivs)s each",
        nights=nights(_, rules.nights_to_escape),
        tokens=parole_tokens(_, rules.parole_tokens_to_win),
        deals=deals(_, rules.parole_tokens_per_day),
        searches=_.n_("%(count)s search", "%(count)s searches", rules.searches_per_day),
        shivs=shivs(_, rules.shivs_per_prisoner),
    )
    y = _section(pdf, y + 4, _("The numbers"))
    pdf.paragraph(x, y, width, numbers, SIZE)


def _width(pdf: Sheets, text: str) -> float:
    """How wide a phase's name prints in bold at the body size (mm)."""
    pdf.set_font("dejavu", "B", SIZE)
    return pdf.text_width(text)


def _section(pdf: Sheets, y: float, title: str) -> float:
    pdf.write_at(MARGIN, y, pdf.paper.inner_width, title, 14, bold=True)
    pdf.set_line_width(0.3)
    pdf.line(MARGIN, y + 7.2, MARGIN + pdf.paper.inner_width, y + 7.2)
    return y + 9.5


def _bullet(pdf: Sheets, y: float, text: str) -> float:
    pdf.write_at(MARGIN, y, 5, "•", SIZE)
    return pdf.paragraph(MARGIN + 5, y, pdf.paper.inner_width - 5, text, SIZE) + 2
