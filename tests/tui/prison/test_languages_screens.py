"""The prison console's other screens in the game master's language: the picker, the set-up
(with its refusals), the printout, help and history screens, and the common dialogs, read in
the pseudo-locale (every message accented and wrapped in ``[!! … !!]``), so that any English
word left on them is a message that did not go through the catalog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList, Static

from companion.language import Language, language
from companion.session.create import game_label
from companion.session.paths import session_path
from companion.tui.common.dialogs import ConfirmScreen, MessageScreen, PickScreen, TextScreen
from companion.tui.common.faults import Faults
from companion.tui.common.presence import PhoneSeen, phone_words
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.help import HelpScreen
from companion.tui.prison.history import HistoryScreen
from companion.tui.prison.picker import PickerScreen
from companion.tui.prison.printout import PrintScreen
from companion.tui.prison.setup import SetupScreen
from tests import pseudo_locale
from tests.conftest import ROSTER, demo_session
from tests.tui.support import OVER, PLANNING, game, screen_text, shelf, type_text

SIZE = (120, 36)
WARDEN = "Wendy"
# Not messages: the names of keys as the footer and the dialogs' key lines show them.
KEY_NAMES = ["Enter", "Esc", "esc", "enter"]
NAMES = [WARDEN, *ROSTER]



def shown(app: ConsoleApp) -> str:
    """What the top screen shows: the terminal as drawn (the footer too), then every text of
    its widgets whole (wrapped or scrolled out of sight): statics, inputs and option lists."""
    screen = app.screen
    parts = [screen_text(app)]
    for static in screen.query(Static):
        parts.append(str(static.render()))
    for field in screen.query(Input):
        parts += [field.placeholder, field.value]
    for listing in screen.query(OptionList):
        parts += [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
    return "\n".join(parts)


def dialog_shown(app: ConsoleApp) -> str:
    """The texts of the open dialog alone (not the screen it covers)."""
    screen = app.screen
    parts = [str(static.render()) for static in screen.query(Static)]
    for listing in screen.query(OptionList):
        parts += [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
    return "\n".join(parts)


def english_in(text: str, dynamic: list[str]) -> list[str]:
    return pseudo_locale.leftovers(text, [*dynamic, *KEY_NAMES, *NAMES])


async def test_the_picker_and_its_new_session_dialogs_speak_the_console_language(
    qps: Language, tmp_path: Path
) -> None:
    folder = tmp_path / "sessions"
    demo_session(folder, "demo").close()
    app = ConsoleApp(shelf=shelf(folder), ticking=False, lang=qps)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        text = shown(app)
        assert "[!!" in text
        # The game's few words come from the composition root (game_of), not from the picker.
        label = game_label(session_path(folder, "demo"))
        assert english_in(text, [str(folder), "demo", label]) == []

        await pilot.press("n")  # a new session: its name first
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        assert english_in(dialog_shown(app), [str(folder), "sqlite"]) == []
        await type_text(pilot, "demo")
        await pilot.press("enter")  # a name the folder already has: refused
        await pilot.pause()
        refusal = str(app.screen.query_one("#problem", Static).render())
        assert refusal.startswith("[!!") and "demo" in refusal
        assert english_in(refusal, ["demo"]) == []

        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "friday")
        await pilot.press("enter")  # then the scenario
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        scenarios = [key for key, _ in app.screen.options]
        assert english_in(dialog_shown(app), scenarios) == []


async def test_the_set_up_its_refusals_and_its_dialogs_speak_the_console_language(
    qps: Language, tmp_path: Path
) -> None:
    app = ConsoleApp(shelf=shelf(tmp_path), new=("friday", "classic"), ticking=False, lang=qps)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        dynamic = ["friday", "classic"]
        # Nothing typed yet: the warden's name is missing.
        assert "[!!" in str(app.screen.query_one("#problem", Static).render())
        assert english_in(shown(app), dynamic) == []

        await type_text(pilot, WARDEN)
        await pilot.press("enter")
        for name in ["Ada", "Ben", "Ben"]:  # the second Ben is refused
            await type_text(pilot, name)
            await pilot.press("enter")
        await pilot.pause()
        problem = str(app.screen.query_one("#problem", Static).render())
        assert "Ben" in problem and problem.startswith("[!!")
        assert english_in(shown(app), dynamic) == []

        await pilot.press("ctrl+s")  # two prisoners for a game of four: refused
        await pilot.pause()
        problem = str(app.screen.query_one("#problem", Static).render())
        assert problem.startswith("[!!") and "companion scenarios" not in problem
        assert english_in(shown(app), dynamic) == []

        await pilot.press("f2")  # renaming says how
        await pilot.pause()
        assert english_in(shown(app), dynamic) == []
        await pilot.press("escape")

        await pilot.press("f4")  # the scenarios
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        scenarios = [key for key, _ in app.screen.options]
        assert english_in(dialog_shown(app), scenarios) == []
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("escape")  # names typed: leaving asks first
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert english_in(dialog_shown(app), []) == []


async def test_the_printout_screen_speaks_the_console_language(
    qps: Language, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = game(Path("sessions"), PLANNING, qps)
    url = "http://192.168.1.20:8765"
    app.session.set("served_url", url)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PrintScreen)
        out = app.screen.query_one("#print-out", Input).value
        assert english_in(shown(app), [url, out]) == []
        await pilot.press("ctrl+s")  # this console has no printer: it says so
        await pilot.pause()
        status = str(app.screen.query_one("#print-status", Static).render())
        assert status.startswith("[!!")
        assert english_in(shown(app), [url, out]) == []


async def test_the_help_screen_speaks_the_console_language(
    qps: Language, tmp_path: Path
) -> None:
    app = game(tmp_path, PLANNING, qps)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = shown(app)
        assert "[!!" in text and WARDEN in text
        assert english_in(text, []) == []


@pytest.mark.parametrize(
    "commands",
    [
        pytest.param(PLANNING, id="so-far"),
        pytest.param(OVER, id="full-story"),
    ],
)
async def test_the_history_screen_speaks_the_console_language(
    qps: Language, tmp_path: Path, commands: list[dict[str, Any]]
) -> None:
    app = game(tmp_path, commands, qps, max_days=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        if commands is OVER:
            await pilot.press("f")
            await pilot.pause()
            assert app.screen.full
        text = shown(app)
        assert "[!!" in text
        assert english_in(text, []) == []


async def test_the_common_dialogs_speak_the_console_language(
    qps: Language, tmp_path: Path
) -> None:
    app = game(tmp_path, PLANNING, qps)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(ConfirmScreen(qps("Leave"), qps("Leave the set-up?")))
        await pilot.pause()
        keys = str(app.screen.query(Static).last().render())
        assert keys.startswith("y [!!") and "n [!!" in keys  # Yes, No, go back
        assert english_in(dialog_shown(app), []) == []
        await pilot.press("n")
        for dialog in (
            PickScreen(qps("Which scenario?"), [("a", "Ada"), ("b", "Ben")]),
            TextScreen(qps("A new session"), ""),
            MessageScreen(qps("Report exported"), "", hide_after=20),
        ):
            app.push_screen(dialog)
            await pilot.pause()
            assert english_in(dialog_shown(app), []) == [], type(dialog).__name__
            await pilot.press("escape")
            await pilot.pause()


def test_the_fault_message_and_the_phones_words_follow_the_language_given(
    qps: Language, tmp_path: Path
) -> None:
    told: list[str] = []
    faults = Faults(told.append, lambda: None, qps)
    faults.log = tmp_path / "demo.console-errors.log"
    faults.report(RuntimeError("disk full"))
    assert len(told) == 1 and told[0].startswith("[!!")
    assert english_in(told[0], ["disk full", str(faults.log)]) == []
    english = Faults(told.append, lambda: None)
    english.report(RuntimeError("disk full"))
    assert told[1] == "That went wrong: disk full. The game is safe in the session log."

    for seen in (PhoneSeen(True, 0.0), PhoneSeen(False, 0.0)):
        assert phone_words(seen, qps).startswith("[!!")
    assert phone_words(PhoneSeen(True, 0.0)) == "connected"
    assert phone_words(None, qps) == "-"


@pytest.mark.parametrize(
    ("code", "empty_warden", "leave"),
    [
        ("de", "Der Name des Wärters ist leer", "Die Einrichtung verlassen?"),
        ("fr", "Le nom du gardien est vide", "Quitter la mise en place\u00a0?"),
        ("es", "El nombre del carcelero está vacío", "¿Salir de la preparación?"),
    ],
)
async def test_the_set_up_reads_in_the_shipped_languages(
    tmp_path: Path, code: str, empty_warden: str, leave: str
) -> None:
    app = ConsoleApp(
        shelf=shelf(tmp_path), new=("friday", "classic"), ticking=False, lang=language(code)
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert str(app.screen.query_one("#problem", Static).render()).startswith(empty_warden)
        await type_text(pilot, "Ada")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert leave in dialog_shown(app)
