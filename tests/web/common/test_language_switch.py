"""The phones' language switch is one template, ``companion/web/common/templates/_languages.html``,
which every game's phone pages include: no game keeps its own copy, and the prison break's and
the warm-up's pages show the same switch."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.language import language
from companion.rules.dilemma.views import board
from companion.session.session import Session
from companion.web.dilemma import pages as dilemma_pages
from companion.web.prison import pages as prison_pages
from tests.dilemma_helpers import scenario

SWITCH = re.compile(r'<nav class="languages".*?</nav>', re.S)


def test_no_game_keeps_its_own_copy_of_the_switch() -> None:
    assert files("companion.web.common").joinpath("templates/_languages.html").is_file()
    for game in GAMES:
        if "web" in game.faces:
            own = files(f"companion.web.{game.package}").joinpath("templates/_languages.html")
            assert not own.is_file(), game.name


@pytest.mark.parametrize("code", ["en", "de", "fr"])
def test_the_prison_and_the_warm_up_show_the_same_switch(code: str, tmp_path: Path) -> None:
    lang = language(code)
    session = Session.create(tmp_path / "d.sqlite", "dilemma", {"rules": scenario()})
    try:
        warm_up = dilemma_pages.render_join(board(session.state), lang)
    finally:
        session.close()
    prison = prison_pages.render_join(lang=lang)
    [ours] = SWITCH.findall(prison)
    assert SWITCH.findall(warm_up) == [ours]
    assert f'<strong lang="{code}">' in ours and ours.count("<a href=\"?lang=") == 3
    assert f'aria-label="{lang("Language")}"' in ours
