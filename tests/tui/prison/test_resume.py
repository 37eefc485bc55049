"""``companion resume NAME`` and the session picker open every session in its own game's
console: the prison break's, the dilemma warm-up's or the So Long Sucker referee's.

Each app really runs (headless, driven by an auto pilot that reads the screen and quits)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import OptionList

from companion.cli import wiring as start
from companion.cli.main import main
from companion.session.create import game_label
from companion.session.dilemma.create import open_or_create_dilemma
from companion.session.paths import session_path
from companion.session.session import Session
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.picker import PickerScreen
from companion.tui.sucker.app import SuckerApp
from tests.conftest import demo_session
from tests.tui.support import screen_text

SUCKER_SETUP = {
    "players": [
        {"name": "Ann", "color": "red"},
        {"name": "Bo", "color": "blue"},
        {"name": "Cat", "color": "green"},
    ],
    "chips_per_player": 3,
    "first": "Ann",
}


def three_sessions(folder: Path) -> None:
    demo_session(folder, "friday").close()
    warm = open_or_create_dilemma(folder, "warmup", "dilemma", 2)
    warm.submit({"do": "join", "pid": "p0", "name": "Zoë"})
    warm.close()
    Session.create(session_path(folder, "chips"), "so-long-sucker", SUCKER_SETUP).close()


Seen = list[tuple[str, str, str]]


def drive(monkeypatch: pytest.MonkeyPatch, cls: type[App[Any]], seen: Seen, *keys: str) -> None:
    """Make ``cls.run`` run headless: note the app, its session and its screen, then press
    ``keys`` (which must quit it)."""
    original = cls.run

    def run(self: Any, **_: Any) -> Any:
        async def auto(pilot: Any) -> None:
            await pilot.pause()
            session = getattr(self, "_session", None) or getattr(self, "session", None)
            name = session.name if session is not None else "-"
            seen.append((type(self).__name__, name, screen_text(self)))
            await pilot.press(*keys)

        return original(self, headless=True, size=(100, 30), auto_pilot=auto)

    monkeypatch.setattr(cls, "run", run)


@pytest.fixture
def apps(monkeypatch: pytest.MonkeyPatch) -> Seen:
    seen: Seen = []
    monkeypatch.setattr(start, "check_terminal", lambda: None)
    drive(monkeypatch, ConsoleApp, seen, "q", "y")  # mid-game: q asks first
    drive(monkeypatch, DilemmaApp, seen, "q")
    drive(monkeypatch, SuckerApp, seen, "ctrl+q")
    return seen


@pytest.mark.parametrize(
    ("name", "app", "phrase"),
    [
        ("friday", "ConsoleApp", "friday · Day 1 · Planning"),
        ("warmup", "DilemmaApp", "Zoë"),
        ("chips", "SuckerApp", "Ann must play a chip."),
    ],
)
def test_resume_opens_each_game_in_its_console(
    tmp_path: Path, apps: Seen, name: str, app: str, phrase: str
) -> None:
    three_sessions(tmp_path)
    code = main(["--data-dir", str(tmp_path), "resume", name, "--no-phones"])
    assert code == 0
    assert [(a, n) for a, n, _ in apps] == [(app, name)]
    assert phrase in apps[0][2]


def test_the_sessions_list_says_which_game(tmp_path: Path, capsys: Any) -> None:
    three_sessions(tmp_path)
    (tmp_path / "junk.sqlite").write_text("not a session")
    assert main(["--data-dir", str(tmp_path), "sessions"]) == 0
    lines = {line.split()[0]: " ".join(line.split()[1:]) for line in
             capsys.readouterr().out.splitlines()[1:]}
    assert lines == {
        "friday": "prison break",
        "warmup": "dilemma warm-up",
        "chips": "So Long Sucker",
        "junk": "cannot be read",
    }
    assert game_label(tmp_path / "junk.sqlite") == "cannot be read"


@pytest.mark.parametrize(
    ("name", "app", "phrase"),
    [
        ("friday", "ConsoleApp", "friday · Day 1 · Planning"),
        ("warmup", "DilemmaApp", "Zoë"),
        ("chips", "SuckerApp", "Ann must play a chip."),
    ],
)
def test_the_picker_shows_each_game_and_opens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, app: str, phrase: str
) -> None:
    three_sessions(tmp_path)
    seen: Seen = []
    monkeypatch.setattr(start, "check_terminal", lambda: None)
    drive(monkeypatch, DilemmaApp, seen, "q")
    drive(monkeypatch, SuckerApp, seen, "ctrl+q")
    original = ConsoleApp.run

    def picker_run(self: ConsoleApp, **_: Any) -> Any:
        async def auto(pilot: Any) -> None:
            await pilot.pause()
            if not isinstance(self.screen, PickerScreen):  # the console, after the picker
                seen.append(("ConsoleApp", self.session.name, screen_text(self)))
                await pilot.press("q", "y")  # mid-game: q asks first
                return
            text = screen_text(self)
            seen.append(("PickerScreen", "-", text))
            ids = [o.id for o in self.screen.query_one(OptionList).options]
            await pilot.press(*["down"] * ids.index(name), "enter")
            await pilot.pause()
            if self.is_running and not isinstance(self.screen, PickerScreen):
                seen.append(("ConsoleApp", self.session.name, screen_text(self)))
                await pilot.press("q", "y")  # mid-game: q asks first

        return original(self, headless=True, size=(100, 30), auto_pilot=auto)

    monkeypatch.setattr(ConsoleApp, "run", picker_run)
    assert main(["--data-dir", str(tmp_path), "start", "--no-phones"]) == 0
    picker = seen[0][2]
    assert "Resume friday  (prison break)" in picker
    assert "Resume warmup  (dilemma warm-up)" in picker
    assert "Resume chips  (So Long Sucker)" in picker
    assert [(a, n) for a, n, _ in seen[1:]] == [(app, name)]
    assert phrase in seen[1][2]
