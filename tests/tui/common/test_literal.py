"""The literal helpers: a player's string is letters on a console, never markup nor raw
terminal controls; and every console's app shows its notices as plain text."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tui.balance.app import BalanceApp
from companion.tui.common.console import GameConsole
from companion.tui.common.literal import fill, plain, visible
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.prison.app import ConsoleApp
from companion.tui.sucker.app import SuckerApp
from tests.tui.hostile import MARKUP


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.sampled_from(MARKUP), st.text()))
def test_any_string_is_shown_letter_for_letter(name: str) -> None:
    shown = visible(name)
    unsafe = {"Cc", "Cf", "Cs", "Zl", "Zp"}  # controls, bidi and invisibles, lone surrogates
    assert all(unicodedata.category(c) not in unsafe or c == "\u200d" for c in shown)
    if name.isprintable():
        assert shown == name
    assert plain(name).plain == visible(name, lines=True)
    filled = fill("[b]%(name)s[/b] is here, 100%%", name=name)
    assert filled.plain == f"{shown} is here, 100%"


def test_controls_and_bidi_are_shown_as_escapes() -> None:
    assert visible("Eve\u202e\x1b[31m\x9b") == "Eve\\u202e\\x1b[31m\\x9b"
    assert visible("a\nb") == "a\\x0ab"
    assert visible("a\nb", lines=True) == "a\nb"
    assert visible("👨\u200d👩") == "👨\u200d👩"  # the emoji joiner is kept


def test_a_value_takes_the_style_around_its_placeholder() -> None:
    filled = fill("[b]%(key)s[/b] save", key="[/]")
    assert filled.plain == "[/] save"
    assert [(s.start, s.end, str(s.style)) for s in filled.spans] == [(0, 3, "bold")]


def test_every_console_shows_its_notices_as_plain_text() -> None:
    for app in (DilemmaApp, ConsoleApp, SuckerApp):
        assert app.notify is GameConsole.notify, app  # none words its notices its own way
    assert not issubclass(BalanceApp, GameConsole)  # a screen of numbers: no names


async def test_a_notice_shows_a_name_as_typed() -> None:
    app = GameConsole()  # the base alone: no session, only the notice is tried
    async with app.run_test() as pilot:
        app.notify("[b]Eve[/b] \x1b[31m left", title="[@click=app.quit]x[/]")
        await pilot.pause()
        shown = app._notifications
        notice = next(iter(shown))
        assert (notice.message, notice.title, notice.markup) == (
            "[b]Eve[/b] \\x1b[31m left", "[@click=app.quit]x[/]", False
        )
        assert app.is_running
