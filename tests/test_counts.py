"""A count's plural follows the counted number: "1 of 4 has chosen", never "1 of 4 have
chosen" (the plural of "X of N have chosen" is X's, not N's), in every language, on every face
that shows how many have chosen."""

from __future__ import annotations

import pytest

from companion.language import language
from companion.tui.dilemma.room import phase_words
from companion.tui.prison.text import banner
from companion.web.dilemma.pages import progress
from companion.web.prison.pages import render_progress

NBSP = "\u00a0"

# What each language says when 0, 1 and 2 of 4 have chosen.
OF_FOUR = {
    "en": ("0 of 4 have chosen.", "1 of 4 has chosen.", "2 of 4 have chosen."),
    "de": ("0 von 4 haben gewählt.", "1 von 4 hat gewählt.", "2 von 4 haben gewählt."),
    "fr": ("0 sur 4 a choisi.", "1 sur 4 a choisi.", "2 sur 4 ont choisi."),
    "es": ("0 de 4 han elegido.", "1 de 4 ha elegido.", "2 de 4 han elegido."),
}
PRISONERS = {
    "en": (
        "0 of 4 prisoners have chosen tonight.",
        "1 of 4 prisoners has chosen tonight.",
        "2 of 4 prisoners have chosen tonight.",
    ),
    "de": (
        "0 von 4 Häftlingen haben für heute Nacht gewählt.",
        "1 von 4 Häftlingen hat für heute Nacht gewählt.",
        "2 von 4 Häftlingen haben für heute Nacht gewählt.",
    ),
    "fr": (
        "0 prisonnier sur 4 a choisi pour cette nuit.",
        "1 prisonnier sur 4 a choisi pour cette nuit.",
        "2 prisonniers sur 4 ont choisi pour cette nuit.",
    ),
    "es": (
        "0 de 4 prisioneros han elegido para esta noche.",
        "1 de 4 prisioneros ha elegido para esta noche.",
        "2 de 4 prisioneros han elegido para esta noche.",
    ),
}
ROSTER = ["Ada", "Ben", "Cy", "Dee"]
CASES = [(code, chosen) for code in OF_FOUR for chosen in (0, 1, 2)]


def case_id(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_warm_up_phones_count_by_who_has_chosen(case: tuple[str, int]) -> None:
    code, chosen = case
    counts = {"chosen_count": chosen, "to_choose": 4, "players": ROSTER}
    assert progress(counts, language(code))["progress"] == OF_FOUR[code][chosen]  # type: ignore[arg-type]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_warm_up_console_counts_by_who_has_chosen(case: tuple[str, int]) -> None:
    code, chosen = case
    view = {"phase": "choosing", "round": 1, "rounds": 3, "chosen_count": chosen, "to_choose": 4}
    said = phase_words(language(code), view)  # type: ignore[arg-type]
    assert said.endswith(" " + OF_FOUR[code][chosen]), said


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_prison_console_counts_by_who_has_chosen(case: tuple[str, int]) -> None:
    code, chosen = case
    view = {"phase": "planning", "day": 1, "active": ROSTER, "submitted": ROSTER[:chosen]}
    keys = banner(view, lang=language(code)).do
    assert OF_FOUR[code][chosen] in keys, keys


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_prison_phones_count_by_who_has_chosen(case: tuple[str, int]) -> None:
    code, chosen = case
    view = {"active": ROSTER, "submitted_count": chosen}
    assert render_progress(view, language(code)).strip() == PRISONERS[code][chosen]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_boards_count_by_who_has_chosen_and_who_is_connected(case: tuple[str, int]) -> None:
    """The boards' templates say these messages with the counted number as the plural's
    ``num`` (the message ids name it so: ``%(num)s of %(total)s``)."""
    code, chosen = case
    lang = language(code)
    said = lang.ngettext(
        "%(num)s of %(total)s has chosen", "%(num)s of %(total)s have chosen", chosen
    ) % {"num": chosen, "total": 4}
    assert said + "." == OF_FOUR[code][chosen]
    phones = lang.ngettext(
        "%(num)s of %(total)s phones connected", "%(num)s of %(total)s phones connected", chosen
    ) % {"num": chosen, "total": 4}
    if code == "fr":
        assert phones == ("2 téléphones connectés sur 4" if chosen == 2
                          else f"{chosen} téléphone connecté sur 4")
