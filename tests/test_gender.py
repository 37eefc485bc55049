"""What a message says of a player reads right whatever the player's gender.

A player's gender is not known, so a message that speaks of a named player (a placeholder that
holds a player's name or names) or to a player as "you" never uses a gendered predicate: French
« %(name)s est pris », Spanish "fue atrapado", a gendered noun for the one named. Each
language's list of such forms is data, in ``[gender]`` of its ``glossary.toml`` (with the few
messages whose match is not said of a player, by msgid). Who reads a message (a player or the
game master) is found as tests/test_glossary.py finds it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from companion.language import language
from companion.printing.prison import cards
from companion.rules.prison import news, phrases
from companion.tui.prison import board
from tests.test_glossary import (
    LANGS,
    PLAYERS,
    catalog,
    english,
    glossary,
    msgid,
    readers,
    translations,
)

# The placeholders that hold a player's name or names, in the code's messages.
PLAYER_PLACEHOLDER = re.compile(
    r"%\((name|names|accused|accuser|warden|prisoner|caught|worked)\)s"
)
YOU = re.compile(r"\byou(r|rs|rself)?\b|\byou're\b", re.IGNORECASE)


def gender_problems(code: str, messages: Catalog | None = None) -> list[str]:
    rules = glossary(code)["gender"]
    forms = [re.compile(form, re.IGNORECASE) for form in rules["forms"]]
    exceptions = set(rules.get("except", []))
    voice = glossary(code)["voice"]
    found = []
    for message in messages if messages is not None else catalog(code):
        if not message.id or msgid(message) in exceptions:
            continue
        text_en = english(message)
        of_a_player = PLAYER_PLACEHOLDER.search(text_en)
        to_a_player = YOU.search(text_en) and PLAYERS in readers(message, voice)
        if not (of_a_player or to_a_player):
            continue
        for text in translations(message):
            for form in forms:
                if hit := form.search(text):
                    found.append(
                        f"{code}: {msgid(message)!r} speaks of a player but says {hit.group(0)!r}, "
                        f"which tells a gender the game does not know: {text!r}"
                    )
    return found


@pytest.mark.parametrize("code", LANGS)
def test_what_is_said_of_a_player_has_no_gender(code: str) -> None:
    assert gender_problems(code) == []


def said_of_a_prisoner(code: str) -> dict[str, str]:
    """Each word the faces say alone of one prisoner, as each face says it in ``code``: a
    status (the history, the report, the board's footer and results, a phone's own line), the
    console board's Status and Today columns (with their own short words), an accusation's
    result and a search's headline."""
    lang = language(code)
    said = {}
    for table, words in (
        ("status", phrases.STATUS_WORDS),
        ("result", phrases.RESULT_WORDS),
        ("phone status", news.STATUS_NEWS),
    ):
        for key, word in words.items():
            said[f"{table} {key!r}"] = lang.say(word)
    for key in ("caught", "safe"):
        said[f"search headline {key!r}"] = lang.say(news.REVEAL_HEADS[key])
    for key in phrases.STATUS_WORDS:
        said[f"console board status {key!r}"] = board.status_word(key, lang)
    for key in [*board.TODAY_WORDS, "escaped", "paroled"]:
        said[f"console board today {key!r}"] = board.today_word(key, lang)
    for key, role in cards.ROLE_TITLES.items():  # printed under the player's name
        said[f"card role {key!r}"] = lang.pgettext("card role", role)
    return said


def word_problems(code: str, said: dict[str, str]) -> list[str]:
    rules = glossary(code)["gender"]
    forms = [re.compile(form, re.IGNORECASE) for form in rules["forms"] + rules.get("words", [])]
    return [
        f"{code}: the {where} says {hit.group(0)!r} of a prisoner, which tells a gender the "
        f"game does not know: {text!r}"
        for where, text in said.items()
        for form in forms
        if (hit := form.search(text))
    ]


@pytest.mark.parametrize("code", LANGS)
def test_a_word_said_of_a_prisoner_has_no_gender(code: str) -> None:
    """A prisoner's status, today's progress on the board, an accusation's result, a search's
    headline and the role a card prints under a name are said of one player whose gender the
    game does not know."""
    said = said_of_a_prisoner(code)
    assert said["status 'caught'"] != "caught" or code == "en"  # said in the language
    assert word_problems(code, said) == []


@pytest.mark.parametrize("code", LANGS)
def test_the_gender_exceptions_are_messages_of_the_catalog(code: str) -> None:
    ids = {msgid(m) for m in catalog(code) if m.id}
    assert [m for m in glossary(code)["gender"].get("except", []) if m not in ids] == []


def test_the_gendered_forms_catch_what_they_are_for(tmp_path: Path) -> None:
    """Each language's list finds the wordings it is for (so an empty list above means
    something), and leaves the neutral rewordings alone."""
    def hits(code: str, text: str) -> bool:
        return any(re.search(f, text, re.IGNORECASE) for f in glossary(code)["gender"]["forms"])

    assert hits("fr", "%(name)s est pris et hors jeu.")
    assert hits("fr", "le gardien t’a pris sur le fait")
    assert hits("fr", "%(name)s (l’accusé) est suriné")
    assert hits("fr", "tu as accusé %(name)s, qui a été suriné")
    assert not hits("fr", "%(name)s s’est fait prendre et est hors jeu.")
    assert not hits("fr", "%(name)s a porté une accusation contre toi et t’a passé son surin")
    assert hits("es", "%(name)s fue atrapado trabajando")
    assert hits("es", "Estás apuñalada")
    assert hits("es", "%(name)s no puede acusarse a sí mismo")
    assert not hits("es", "Atraparon a %(name)s trabajando")
    assert not hits("es", "%(name)s recibió el pincho y está fuera del juego.")
    assert hits("de", "%(name)s (der Beschuldigte) ist erwischt")
    assert hits("fr", "Entendus\u00a0: %(names)s") and hits("fr", "Gagnants\u00a0: %(names)s")
    assert not hits("fr", "Entretien\u00a0: %(names)s")
    assert not hits("fr", "Victoire\u00a0: %(names)s")
    assert hits("es", "Interrogados: %(names)s") and hits("es", "Ganadores: %(names)s")
    assert not hits("es", "Ya pasó: %(names)s") and not hits("es", "Victoria de %(names)s")
    assert hits("de", "%(outcome)s. Gewinner: %(winners)s.")
    assert not hits("de", "%(outcome)s. Sieg für %(winners)s.")
    assert not hits("de", "%(name)s (beschuldigt) ist erwischt")
    # a word said alone of a prisoner: the masculine participles, not the nouns and invariants
    for code, gendered, neutral in (
        ("fr", ["pris", "PRIS", "suriné", "libéré sur parole", "évadé", "entendu", "suivant"],
         ["capture", "CAPTURE", "coup de surin", "libération conditionnelle", "évasion",
          "a fini", "à suivre", "rien trouvé", "RIEN TROUVÉ", "en file", "surin passé"]),
        ("es", ["atrapado", "ATRAPADO", "apuñalado", "fugado", "interrogado", "liberada",
                "Carcelero", "Prisionera"],
         ["captura", "CAPTURA", "puñalada", "fuga", "en libertad condicional", "ya pasó",
          "a salvo", "siguiente", "pasó el pincho", "Carcelero/a", "Prisionero/a"]),
        ("de", ["der Abgestochene"], ["abgestochen", "ERWISCHT", "auf Bewährung frei", "dran"]),
    ):
        said = {f"word {n}": w for n, w in enumerate(gendered)}
        assert len(word_problems(code, said)) == len(gendered), code
        assert word_problems(code, {f"word {n}": w for n, w in enumerate(neutral)}) == [], code
    po = tmp_path / "one.po"
    po.write_text('msgid "%(name)s is shived and out of the game."\n'
                  'msgstr "%(name)s est suriné et hors jeu."\n', encoding="utf-8")
    with po.open("rb") as file:
        assert gender_problems("fr", read_po(file)) != []
