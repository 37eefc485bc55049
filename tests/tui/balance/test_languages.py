"""The Balance screen in every language: under the pseudo-locale, no English is left on it,
wide and narrow, while it measures, settles the close call and concludes (settled, tied, or the
curve alone), with the real tables' line; in German it reads German.

What may stay English is what is not a message: numbers and percentages, the command named
(``companion balance``, also the title of the app that runs the screen alone), key names."""

from __future__ import annotations

import html
import re
from typing import Any

from textual.widgets import Static

from companion.language import Language, language
from companion.tui.balance.app import BalanceApp, BalanceScreen
from tests import pseudo_locale
from tests.tui.balance.test_screen import fixed_source

# The command named in the conclusions, the footer's name of the Escape key, the chart
# legend's marker of the real tables.
NOT_MESSAGES = ["companion balance", "esc ", "XX "]


def real_tables(prisoners: int, tokens: int) -> list[dict[str, Any]]:
    """Two settings the real tables played (the notebook's shape)."""
    return [
        {"nights_to_escape": n, "games": 4,
         "escape": {"count": 2, "rate": 0.5, "low": 0.15, "high": 0.85}}
        for n in (prisoners + 1, prisoners + 2)
    ]


def screen_text(app: BalanceApp) -> str:
    svg = app.export_screenshot()
    lines: dict[float, list[str]] = {}
    for y, text in re.findall(r'<text [^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        lines.setdefault(float(y), []).append(html.unescape(text).replace("\xa0", " "))
    return "\n".join("".join(parts) for _, parts in sorted(lines.items()))


def accented(words: str) -> str:
    """``words`` as the pseudo-locale writes them (without its brackets and padding)."""
    return pseudo_locale.pseudo(words).removeprefix("[!! ").split(" ~")[0]


def english(text: str) -> list[str]:
    return pseudo_locale.leftovers(text, NOT_MESSAGES)


async def measured(pilot: Any) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def status(screen: BalanceScreen) -> str:
    return str(screen.query_one("#balance-status", Static).render())


async def test_no_english_is_left_on_the_balance_screen(qps: Language) -> None:
    app = BalanceApp(fixed_source, lang=qps, prisoners=6, tokens=3, tables=real_tables)
    seen: list[str] = []
    # Wide enough for the chart to keep its long pseudo title, labels and legend; then as the
    # game master sees it, and narrow (the table's short headings).
    async with app.run_test(size=(240, 50)) as pilot:
        await measured(pilot)
        screen = app.screen
        assert isinstance(screen, BalanceScreen)
        assert screen.verdict is not None and screen.table_points
        seen.append(screen_text(app))  # the settled answer, the chart, the real tables
        for size in ((120, 36), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            seen.append(screen_text(app))
        await pilot.press("right")  # the keys settling
        seen.append(status(screen))
        screen.action_measure()  # then measuring (said before the first point comes)
        seen.append(status(screen))
        await measured(pilot)
        # Each step of a measure, said as it comes: a new setting, the close call settled.
        first, *_ = screen.points
        screen.add_point(screen.prisoners, screen.tokens, {**first, "nights_to_escape": 99})
        seen.append(status(screen))
        screen.add_point(screen.prisoners, screen.tokens, {**first, "games": 4000})
        seen.append(status(screen))
        assert screen.verdict is not None
        screen.verdict["verdict"]["settled"] = False  # a tie
        seen.append(screen.conclusion())
        screen.verdict = None  # the curve alone
        seen.append(screen.conclusion())
        for key in ("up", "down", "comma", "full_stop"):  # the footer's other settings
            await pilot.press(key)
        await measured(pilot)
        seen.append(screen_text(app))
    shown = "\n".join(seen)
    # Every kind of line was seen, each in pseudo text.
    for said in ("Real tables", "Waiting for the keys", "Measuring", "Measured",
                 "Settling the close call", "A tie within the noise", "For numbers to play by",
                 "surely closer than", "nights to escape", "escape rate", "real tables",
                 "The team's escapes", "games", "escape", "days"):
        assert accented(said) in shown, said
    assert english(shown) == []


async def test_the_balance_screen_reads_german() -> None:
    app = BalanceApp(fixed_source, lang=language("de"), prisoners=6, tokens=3)
    async with app.run_test(size=(120, 36)) as pilot:
        await measured(pilot)
        shown = screen_text(app)
        settings = "6 Häftlinge · 3 Bewährungsmarken zum Sieg · Ziel: Ausbruch in 50% der Spiele"
        assert settings in shown
        assert "Nächte bis zum Ausbruch" in shown
        assert status(app.screen).startswith("Am nächsten an 50%: ")
