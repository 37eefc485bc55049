"""Rough edges found by playing whole games in a terminal, each pinned by a test: what the
laptop's screen may show the room, and what the banner tells the game master to do next."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette

from companion.rules.core.game import Refused
from companion.rules.prison.views import table
from companion.session.prison.create import create_prison_session
from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen, MessageScreen
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.board import NAME_WIDTH, Board
from companion.tui.prison.choice import ChoiceScreen
from companion.tui.prison.game import GameScreen
from companion.tui.prison.interview import InterviewScreen
from companion.tui.prison.picker import scenario_choices
from companion.tui.prison.reveal import RevealScreen
from companion.tui.prison.setup import SetupScreen
from tests import stage_helpers as stage
from tests.conftest import ROSTER, demo_session
from tests.tui.support import new_app, pick, screen_text, shows, type_text


def session(folder: Path, name: str = "demo") -> Session:
    return demo_session(folder, name)


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
        for name in ROSTER[1:]:
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
    stage.step_reveal(s, to_end=True)  # the room has seen it
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


async def test_no_palette_while_a_player_holds_the_laptop(tmp_path: Path) -> None:
    # The palette leads to the peek: not from the private choice prompt.
    app = ConsoleApp(session(tmp_path), ticking=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert "Peek" not in screen_text(app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("ctrl+p")  # the game master has it back
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


async def test_escape_in_the_reveal_shows_it_all_before_closing(tmp_path: Path) -> None:
    s = session(tmp_path)
    s.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    s.submit({"do": "close_planning"})
    app = ConsoleApp(s, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("s", "y")
        await pilot.pause()
        await pick(pilot, app, "Ada")
        assert isinstance(app.screen, RevealScreen) and not shows(app, "CAUGHT")
        await pilot.press("escape")  # a slip: the room still gets the whole reveal
        await pilot.pause()
        assert isinstance(app.screen, RevealScreen)
        assert shows(app, "CAUGHT: Ada was working")
        assert shows(app, "Ada was caught working and nobody else worked")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_leaving_the_set_up_asks_when_names_were_typed(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_text(pilot, "Wendy")
        await pilot.press("enter")
        await type_text(pilot, "Ada")
        await pilot.press("enter", "escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and shows(app, "Leave the set-up?")
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.is_running
        assert app.screen.prisoners == ["Ada"]
        await pilot.press("escape", "y")
        await pilot.pause()
    assert app.return_code == 0 and not (tmp_path / "game.sqlite").exists()


async def test_an_empty_set_up_leaves_at_once(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert not app.is_running


def test_scenarios_offered_in_natural_order_with_their_size() -> None:
    choices = dict(scenario_choices())
    names = list(choices)
    assert "dilemma" not in names  # the warm-up's file is not a prison-break scenario
    assert names.index("balanced-4") < names.index("balanced-5") < names.index("balanced-10")
    assert choices["classic"] == "classic  4 prisoners, 6 nights · shipped"


async def test_undo_takes_back_only_what_it_asked_about(tmp_path: Path) -> None:
    # The question names Ada's choice; if a phone's move lands while it is up, "y" must not
    # take back that other move instead.
    s = session(tmp_path)
    s.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    app = ConsoleApp(s, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert shows(app, "Take back Ada's secret choice?")
        s.submit({"do": "choose", "prisoner": "Ben", "choice": "rest"})  # Ben's phone
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert table(s.state)["submitted_count"] == 2  # nothing was undone
        assert shows(app, "Nothing was undone")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert shows(app, "Take back Ben's secret choice?")
        await pilot.press("y")
        await pilot.pause()
        assert table(s.state)["submitted"] == ["Ada"]


async def test_a_peek_closes_itself_after_the_private_time(tmp_path: Path) -> None:
    s = session(tmp_path)
    s.submit({"do": "choose", "prisoner": "Ben", "choice": "work"})
    app = ConsoleApp(s, ticking=False, private_seconds=20)
    async with app.run_test(size=(120, 36)) as pilot:
        app.peek()
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        peek = app.screen
        assert isinstance(peek, MessageScreen) and shows(app, "Ben: work")
        assert shows(app, "it closes itself in 20 s")
        assert peek.hide_timer is not None  # armed for the private time
        peek.hide_timer.stop()
        peek.action_close()  # what the timer does when it fires
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and not shows(app, "Ben: work")


async def test_a_long_name_leaves_today_on_an_80_column_board(tmp_path: Path) -> None:
    long = "Alexandra-Catherine-Montgomery-Smythe"
    s = create_prison_session(tmp_path, "demo", "classic", "Wendy", [long, "Ben", "Cy", "Dee"])
    s.submit({"do": "choose", "prisoner": "Ben", "choice": "work"})
    app = ConsoleApp(s, ticking=False)
    async with app.run_test(size=(80, 24)):
        board = app.screen.query_one(Board)
        rows = [line for line in screen_text(app).splitlines() if line.startswith(" Ben ")]
        assert rows and "chosen" in rows[0]
        first = [str(cell) for cell in board.get_row(long)]  # rows keep the full name as key
        assert first[0] == long[: NAME_WIDTH - 1] + "…" and first[3] == "waiting"
        line = next(ln for ln in screen_text(app).splitlines() if first[0] in ln)
        assert "waiting" in line.split("│")[0]


async def test_the_next_countdown_offers_no_deal_once_it_is_made_and_tells_no_count(
    tmp_path: Path,
) -> None:
    # Ben's interview after Ada's: the deal's key is offered only while a deal is left (never
    # offered and then refused), and no count of the day's deals is said.
    screens = {}
    for deal in (True, False):
        folder = tmp_path / str(deal)
        folder.mkdir()
        s = session(folder)
        s.submit({"do": "close_planning"})
        s.submit({"do": "interview", "prisoner": "Ada", "deal": deal})
        app = ConsoleApp(s, ticking=False)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press("i")
            await pick(pilot, app, "Ben")
            assert isinstance(app.screen, InterviewScreen)
            screens[deal] = screen_text(app)
            assert shows(app, "the warden makes at most 1 deal a day")
            await pilot.press("d")
            await pilot.pause()
            # no deal left: d does nothing (no refusal); else it asks whom Ben named
            assert isinstance(app.screen, InterviewScreen) == deal
            assert not shows(app, "No deal is possible")
    assert "d deal" not in screens[True] and "d deal" in screens[False]
    assert "d Deal" not in screens[True] and "d Deal" in screens[False]
    for text in screens.values():
        assert "Deals today" not in text and "limit" not in text
