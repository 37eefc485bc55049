"""The consoles name the keys Textual writes as words (space, esc, pgup, ...) in their language,
in the footer and in every key list (``App.get_key_display``); symbols and letters stay."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding

from companion.language import available, language
from companion.tui.common.language import KEY_NAMES, key_name
from companion.tui.prison.app import ConsoleApp
from tests.conftest import demo_session

NAMED = {  # what each language's keyboards call the keys the consoles bind
    "en": {"space": "space", "escape": "esc"},  # Textual's own words
    "fr": {"space": "Espace", "escape": "Échap"},
    "de": {"space": "Leertaste", "escape": "esc"},  # a name the language keeps: Textual's
    "es": {"space": "Espacio", "escape": "esc"},
}


@pytest.mark.parametrize("code", available())
def test_the_console_names_its_keys_in_its_language(tmp_path: Path, code: str) -> None:
    session = demo_session(tmp_path, "demo")
    app = ConsoleApp(session, ticking=False, lang=language(code))
    for key, name in NAMED[code].items():
        assert app.get_key_display(Binding(key, "x", "x")) == name
    assert app.get_key_display(Binding("ctrl+z", "x", "x")) == "^z"  # Textual's own form
    assert app.get_key_display(Binding("c", "x", "x")) == "c"
    session.close()


@pytest.mark.parametrize("code", [c for c in available() if c != "en"])
def test_every_named_key_is_translated(code: str) -> None:
    lang = language(code)
    assert all(lang.pgettext("key name", name) for name in KEY_NAMES.values())
    assert key_name("space", lang) != "space" and key_name("⏎", lang) == "⏎"
