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
