"""The So Long Sucker referee in every language: under the pseudo-locale, no English is left on
the screen through a whole game (moves, a capture and its kill, a prisoner played, a rescue, a
refused rescue, defeats, the end, an undo, the help, a mistyped move); in German it reads German.

What may stay English is what is not a message: the players' names and their colors (typed at
set-up, and typed again in moves), the move entry's keywords (``next bo``, ``kill g``…, the same
in every language), the game's name and the session's."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path
from typing import Any

from rich.console import Console

from companion.language import Language, language
from companion.rules.sucker.views import table
from companion.session.session import Session
from companion.tui.sucker.app import SuckerApp
from companion.tui.sucker.chips import PlayersPanel
from companion.tui.sucker.piles import piles_panel
from tests import pseudo_locale
from tests.tui.sucker.test_referee import SETUP, text_of, typed

NAMES = ["Ann", "Bo", "Cat"]
COLORS = ["red", "blue", "green"]
# The entry's keywords and examples, typed the same in every language (SYNTAX's left column,
# the move line's placeholder), and the mistyped move of the test.
TYPED = ["next", "kill", "killp", "give", "refuse", "undo", "ann", "bo", "cat", "zzz"]
# Lists ("Ann, Bo or Cat") take their joining words from Babel's locale data, not the catalog:
# the pseudo-locale lists the English way.
LIST_WORDS = [" or ", " and "]
NOT_MESSAGES = [*NAMES, *COLORS, *TYPED, *LIST_WORDS, "So Long Sucker", "table"]

# The game of test_referee: a capture, Ann's red played by Bo as a prisoner, a rescue, a refused
# rescue whose defeat cascades to the end.
GAME = ["r n", "next bo", "b 1", "g n", "bo", "b 1", "kill b", "b 2", "r 2", "g n", "next bo",
        "r 2", "kill r", "r 3", "b 3", "g n", "bo", "give b", "b n", "next cat", "refuse",
        "refuse ann"]


def screen_text(app: SuckerApp) -> str:
    """The screen as a user reads it: the screenshot's text, line by line."""
    svg = app.export_screenshot()
    lines: dict[float, list[str]] = {}
    for y, text in re.findall(r'<text [^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        lines.setdefault(float(y), []).append(html.unescape(text).replace("\xa0", " "))
    return "\n".join("".join(parts) for _, parts in sorted(lines.items()))


def rendered(renderable: Any, width: int) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def english(text: str) -> list[str]:
    return pseudo_locale.leftovers(text, NOT_MESSAGES)


def narrow_views(app: SuckerApp, lang: Language) -> str:
    """The players' table at its narrowest (marks explained in the caption) and widest (each
    player's status in words), and the piles cut to a few rows (the note on the hidden chips):
    layouts the 120×36 screen may not show with the pseudo-locale's long words."""
    screen = app.referee
    view = table(screen.session.state)
    players = PlayersPanel(lang, view, screen._players(view).rows)
    return (rendered(players, 44) + rendered(players, 240)
            + rendered(piles_panel(lang, view, 20, 4), 20))


async def test_no_english_is_left_on_the_referee_through_a_whole_game(
    tmp_path: Path, qps: Language
) -> None:
    session = Session.create(tmp_path / "table.sqlite", "so-long-sucker", SETUP)
    app = SuckerApp(session, lang=qps)
    seen: list[str] = []
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        seen.append(screen_text(app))
        await typed(pilot, "zzz")  # a mistyped move: the entry's sentence
        assert "zzz" in text_of(app, "#problem")
        seen.append(screen_text(app))
        await pilot.press("f1")  # the help
        await pilot.pause()
        assert app.query_one("#help").has_class("shown")
        seen.append(screen_text(app))
        await pilot.press("escape", "escape")
        await pilot.pause()
        for move in GAME:
            await typed(pilot, move)
            assert text_of(app, "#problem") == "", move
            seen.append(screen_text(app))
            seen.append(narrow_views(app, qps))
        assert session.state.winner == "Ann" and session.state.defeated == ("Cat", "Bo")
        await typed(pilot, "undo")  # the log says what was taken back
        seen.append(screen_text(app))
    session.close()
    shown = "\n".join(seen)
    # Every kind of line was seen: the pseudo text, a defeat's place, the winner, the piles cut,
    # the killed chips, an undo.
    for words in ("[!!", "ďéƒéáţéď (1)", "ŴÍÑÑÉŔ", "+Ñ: Ñ", "ďéáď", "Úñďóñé"):
        assert words in shown, words
    assert english(shown) == []


async def test_the_referee_reads_german(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "table.sqlite", "so-long-sucker", SETUP)
    app = SuckerApp(session, lang=language("de"))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert text_of(app, "#says") == "Ann muss einen Chip spielen."
        for move in ("r n", "next bo"):
            await typed(pilot, move)
        shown = screen_text(app)
        assert "Ann hat red auf einen neuen Stapel 1 gespielt." in shown
        assert "Stapel (oberster Chip zuerst)" in shown
        assert text_of(app, "#says") == "Bo muss einen Chip spielen."
        await typed(pilot, "zzz")
        assert text_of(app, "#problem") == (
            "'zzz' ist hier keine Farbe; tippen Sie eine von r (red), b (blue), g (green)."
        )
    session.close()
