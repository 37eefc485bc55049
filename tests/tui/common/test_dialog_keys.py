"""The consoles' dialogs name their keys in the console's language (Entrée, Échap, Intro...)
and take the language's yes key (o for oui, j for ja, s for sí) as well as y."""

from __future__ import annotations

import pytest
from textual.app import App

from companion.language import Language, language
from companion.tui.common.dialogs import ConfirmScreen, TextScreen
from companion.tui.common.language import enter_key, esc_key, yes_key

KEYS = {  # the console's language: (Enter, Esc, yes)
    "en": ("Enter", "Esc", "y"),
    "de": ("Eingabe", "Esc", "j"),
    "es": ("Intro", "Esc", "s"),
    "fr": ("Entrée", "Échap", "o"),
}


class Console(App[None]):
    def __init__(self, lang: Language) -> None:
        super().__init__()
        self.lang = lang
        self.answers: list[bool | None] = []


def shown(app: App[None]) -> str:
    return " ".join(str(w.render()) for w in app.screen.query("Static"))


@pytest.mark.parametrize("code", sorted(KEYS))
def test_the_keys_are_named_in_the_consoles_language(code: str) -> None:
    lang = language(code)
    assert (enter_key(lang), esc_key(lang), yes_key(lang)) == KEYS[code]


@pytest.mark.parametrize("code", sorted(KEYS))
async def test_a_question_names_and_takes_the_languages_yes_key(code: str) -> None:
    enter, esc, yes = KEYS[code]
    for key in dict.fromkeys([yes, "y", "n"]):
        app = Console(language(code))
        async with app.run_test() as pilot:
            app.push_screen(ConfirmScreen("?", "Go on?"), app.answers.append)
            await pilot.pause()
            assert f"{yes} " in shown(app) and "n " in shown(app)
            await pilot.press(key)
            await pilot.pause()
            assert app.answers == [key != "n"], (code, key)


@pytest.mark.parametrize("code", sorted(KEYS))
async def test_a_line_to_type_names_enter_and_esc_in_the_language(code: str) -> None:
    enter, esc, _yes = KEYS[code]
    app = Console(language(code))
    async with app.run_test() as pilot:
        app.push_screen(TextScreen("Name", "Type it"))
        await pilot.pause()
        text = shown(app)
        assert f"{enter} " in text and f"{esc} " in text
        if code != "en":
            assert "Enter " not in text
