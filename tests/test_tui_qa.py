"""Rough edges found by playing whole games in a terminal, each pinned by a test: what the
laptop's screen may show the room, and what the banner tells the game master to do next."""

from __future__ import annotations

from pathlib import Path

from companion.commands.sessions import create_prison_session
from companion.rules.game import Refused
from companion.rules.prison_views import table
from companion.session.session import Session
from companion.tui.app import ConsoleApp
from companion.tui.screens.game import GameScreen
from tests.test_tui_support import screen_text, shows

PLAYERS = ["Ada", "Ben", "Cy", "Dee"]


def session(folder: Path, name: str = "demo") -> Session:
    return create_prison_session(folder, name, "classic", "Wendy", PLAYERS)


async def game_screen(app: ConsoleApp, size: tuple[int, int]) -> list[str]:
    """The game screen as drawn, for each of: nothing more, then with the private view on."""
    shown = []
    async with app.run_test(size=size) as pilot:
        assert isinstance(app.screen, GameScreen)
        shown.append(screen_text(app))
        await pilot.press("t")
        await pilot.pause()
        shown.append(screen_text(app))
    return shown


async def test_a_deal_and_no_deal_look_the_same_to_the_room(tmp_path: Path) -> None:
    # The room sees who goes in to the warden; a count of today's deals on the laptop would
    # tell it who took one. Ada's deal and Ada's "no deal" must leave the same screen behind.
    screens = {}
    for deal in (True, False):
        folder = tmp_path / str(deal)
        folder.mkdir()
        s = session(folder)  # the same name in two folders: the same top bar
        s.submit({"do": "close_planning"})
        s.submit({"do": "interview", "prisoner": "Ada", "deal": deal})
        app = ConsoleApp(s, ticking=False)
        screens[deal] = await game_screen(app, (120, 36))
    public = {deal: shown[0] for deal, shown in screens.items()}
    assert public[True] == public[False]
    assert "Deals: at most 1 a day" in public[True]
    # the private view (T) is where the game master finds today's count
    assert "Deals today: 1 of 1" in screens[True][1]
    assert "Deals today: 0 of 1" in screens[False][1]


async def test_interviews_banner_once_everyone_was_seen(tmp_path: Path) -> None:
    s = session(tmp_path)
    s.submit({"do": "close_planning"})
    app = ConsoleApp(s, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        assert shows(app, "“Warden, please come back. Ada, please come in.”")
        s.submit({"do": "interview", "prisoner": "Ada", "deal": False})
        app.refresh_screens()
        await pilot.pause()
        # the warden is already back: only the next prisoner is called
        assert shows(app, "“Ben, please come in.”") and not shows(app, "please come back")
        for name in PLAYERS[1:]:
            s.submit({"do": "interview", "prisoner": name, "deal": False})
        app.refresh_screens()
        await pilot.pause()
        assert shows(app, "the interviews are over: search a cell")
        # I would do nothing now: the banner offers only the search
        assert shows(app, "S: search a cell.") and not shows(app, "I: interview")


async def test_accusations_banner_when_nobody_can_accuse(tmp_path: Path) -> None:
    s = session(tmp_path)
    s.submit({"do": "close_planning"})
    s.submit({"do": "search", "prisoner": "Ada"})
    app = ConsoleApp(s, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        assert shows(app, "Anyone with a shiv may accuse someone.")
        # shivs pass (nobody took a deal) until everyone has made today's accusation
        for accuser, accused in (("Ben", "Cy"), ("Dee", "Cy"), ("Cy", "Ada"), ("Ada", "Ben")):
            result = s.submit({"do": "accuse", "accuser": accuser, "accused": accused})
            assert not isinstance(result, Refused), result
        app.refresh_screens()
        await pilot.pause()
        assert table(s.state)["may_accuse"] == []
        assert not shows(app, "Anyone with a shiv may accuse")
        assert shows(app, "Nobody can accuse any more. E: end the day.")
