"""The prison console in the game master's language: read in the pseudo-locale (every message
through the catalog is accented and wrapped in ``[!! … !!]``), no English is left on its main
screens but names and keys; in German, German words show."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from companion.language import Language, language
from companion.rules.prison.views import gm, story
from companion.session.prison import seats
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.game import GameScreen
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.reveal import RevealScreen
from companion.tui.prison.seats import SeatsScreen, spaced
from companion.tui.prison.timeline import story_markdown, timeline
from tests import pseudo_locale
from tests.conftest import ROSTER
from tests.tui.support import (
    ACCUSATIONS,
    INTERVIEWS,
    OVER,
    PLANNING,
    game,
    screen_text,
    widget_text,
)
from tests.tui.terminal import notices

# Not messages: the session's and the players' names, and the keys' names on the keyboard.
NAMES = ["demo", "Wendy", *ROSTER]
KEYS = ["esc", "Esc", "space", "enter", "ctrl"]
# The pseudo-locale's lists are its locale's (en_GB): "Ada, Ben and Cy" is Babel's, no message.
LISTS = [" and "]
DYNAMIC = [*NAMES, *KEYS, *LISTS]

SEARCH = [
    *INTERVIEWS,
    {"do": "interview", "prisoner": "Ben", "deal": False},
    {"do": "interview", "prisoner": "Cy", "deal": False},
    {"do": "interview", "prisoner": "Dee", "deal": False},
]


def visible(app: ConsoleApp) -> str:
    """The screen as drawn, and the top screen's texts unwrapped."""
    return screen_text(app) + "\n" + widget_text(app)


def english(app: ConsoleApp) -> list[str]:
    text = visible(app)
    assert "[!!" in text  # the pseudo-locale is on the screen: something was translated
    return pseudo_locale.leftovers(text, DYNAMIC)


async def settle(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize(
    "commands",
    [
        pytest.param([], id="planning-none-chosen"),
        pytest.param(PLANNING, id="planning"),
        pytest.param(INTERVIEWS, id="interviews"),
        pytest.param(SEARCH, id="interviews-over"),
        pytest.param(ACCUSATIONS, id="accusations"),
        pytest.param(OVER, id="game-over"),
    ],
)
async def test_the_game_screen_in_each_phase_has_no_english(
    tmp_path: Path, qps: Language, commands: list[dict[str, Any]]
) -> None:
    app = game(tmp_path, commands, qps)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert english(app) == []
        await pilot.press("t")  # the private view: tokens and today's deals
        await settle(pilot)
        assert english(app) == []


async def test_an_interview_and_the_private_view_have_no_english(
    tmp_path: Path, qps: Language
) -> None:
    app = game(tmp_path, INTERVIEWS, qps)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("i", "enter")  # Ben, the first in the queue, comes in
        await settle(pilot)
        assert isinstance(app.screen, InterviewScreen)
        assert english(app) == []
        await pilot.press("p")  # paused
        await settle(pilot)
        assert english(app) == []


async def test_the_search_and_its_reveal_have_no_english(tmp_path: Path, qps: Language) -> None:
    app = game(tmp_path, SEARCH, qps, nights_to_escape=2)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert english(app) == []
        await pilot.press("s", "enter")  # Ada's cell: she worked, and so did Ben
        await settle(pilot)
        assert isinstance(app.screen, RevealScreen)
        steps = 0
        while isinstance(app.screen, RevealScreen):
            assert english(app) == []
            await pilot.press("space")
            await settle(pilot)
            steps += 1
        assert steps >= 4  # nothing yet, the search, the result, the night, the end
        assert isinstance(app.screen, GameScreen)
        assert english(app) == []


async def test_the_seats_screen_has_no_english(tmp_path: Path, qps: Language) -> None:
    app = game(tmp_path, PLANNING, qps)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, SeatsScreen)
        assert english(app) == []
        await pilot.press("c")  # the seat codes, shown
        await settle(pilot)
        codes = [spaced(seat.code) for seat in seats.seats_of(app.session)]
        assert pseudo_locale.leftovers(visible(app), [*DYNAMIC, *codes]) == []


def test_the_timeline_and_the_report_have_no_english(tmp_path: Path, qps: Language) -> None:
    app = game(tmp_path, OVER, qps)
    state = app.session.state
    view = gm(state)
    lines = timeline(view, story(state), [], qps)
    report = story_markdown("demo", view, story(state) or [], [], qps)
    for text in ("\n".join(lines), report):
        assert "[!!" in text
        assert pseudo_locale.leftovers(text, DYNAMIC) == []
    app.session.close()


async def test_the_console_speaks_german(tmp_path: Path) -> None:
    app = game(tmp_path, PLANNING, language("de"))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        text = visible(app)
        assert "Tag 1 · Planung" in text
        assert "Wärter, bitte verlass den Raum" in text
        assert "Häftling" in text and "gewählt" in text  # the board's header and cells
        assert "Planning" not in text and "Prisoner" not in text


async def test_the_questions_and_notices_of_the_day_have_no_english(
    tmp_path: Path, qps: Language
) -> None:
    app = game(tmp_path, PLANNING, qps)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        asked: list[str] = []

        async def answer(key: str, *keys: str) -> None:
            await pilot.press(key)
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, ConfirmScreen)
            asked.extend([screen.title_text, screen.question, screen.yes])
            await pilot.press(*keys)
            await settle(pilot)

        await answer("x", "y")  # Ben and Dee have not chosen: close planning anyway
        await pilot.press("i", "enter", "d", "enter")  # Ben's interview, recorded (nobody named)
        await settle(pilot)
        await answer("s", "n")  # Cy and Dee were not interviewed
        await answer("ctrl+z", "n")  # take back Ben's interview, which the room saw
        told = notices(app)
        assert told and len(asked) == 9
        for text in [*asked, *told]:
            assert "[!!" in text
            assert pseudo_locale.leftovers(text, DYNAMIC) == [], text


async def test_the_planning_clock_has_no_english(tmp_path: Path, qps: Language) -> None:
    app = game(tmp_path, PLANNING, qps)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("m", "3", "0", "0", "enter")  # five minutes to plan
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert "5:00" in visible(app)
        assert english(app) == []
        await pilot.press("space")  # paused
        await settle(pilot)
        assert english(app) == []
        told = notices(app)
        assert told and all(pseudo_locale.leftovers(t, DYNAMIC) == [] for t in told)
