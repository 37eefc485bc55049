"""The console's language: --lang, else the laptop's locale variables, else English."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from companion.tui.common.language import console_language, locale_tags


def test_locale_variables_strongest_first() -> None:
    environ = {"LANG": "fr_FR.UTF-8", "LC_ALL": "C", "LANGUAGE": "es:de"}
    assert locale_tags(environ) == ["es", "de", "fr_FR"]


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_AT@euro"}, "de"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "ja_JP.UTF-8", "LANGUAGE": "ja:fr"}, "fr"),
        ({}, "en"),
    ],
)
def test_console_follows_the_locale(environ: dict[str, str], code: str) -> None:
    assert console_language(None, environ).code == code


def test_lang_wins_over_the_locale() -> None:
    assert console_language("es", {"LANG": "de_DE.UTF-8"}).code == "es"


def test_unknown_lang_is_one_sentence() -> None:
    with pytest.raises(UserError, match="is not a language companion speaks"):
        console_language("xx", {})


async def test_textuals_own_palette_commands_are_in_the_catalogs() -> None:
    """Every command Textual itself puts in the palette (of this Textual version) has its
    title and help translated: a new one in a Textual upgrade fails here, not on the night."""
    from textual.app import App

    from companion.tui.common.language import translated_commands
    from tests import pseudo_locale

    qps = pseudo_locale.install()
    try:
        app: App[None] = App()
        async with app.run_test():
            commands = list(app.get_system_commands(app.screen))
            said = list(translated_commands(commands, qps))
        assert commands
        for before, after in zip(commands, said, strict=True):
            assert after.title.startswith("[!! ") and after.help.startswith("[!! "), before
            assert after.callback is before.callback
    finally:
        pseudo_locale.remove()


def test_the_palette_commands_in_german() -> None:
    from textual.app import SystemCommand

    from companion.language import language
    from companion.tui.common.language import translated_commands

    quit_command = SystemCommand("Quit", "Quit the application as soon as possible", print)
    (said,) = translated_commands([quit_command], language("de"))
    assert said.title == "Beenden" and said.help == "Das Programm sofort beenden"
