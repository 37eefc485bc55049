"""Names are data on the warm-up console: a player who joins as ``[/]`` (or any markup) is shown
as typed in the roster, the dialogs and every notice, and never stops the console."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from textual.widgets import DataTable

from companion.session.dilemma.seats import new_seat
from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen, PickScreen, TextScreen
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.dilemma.choice import ChoiceScreen
from tests.dilemma_helpers import scenario
from tests.tui.hostile import HOSTILE, SIZES, names
from tests.tui.support import key_in, shown_soon


def warm_up(folder: Path, *players: str) -> Session:
    s = Session.create(folder / "warm.sqlite", "dilemma", {"rules": scenario(rounds=3)})
    for name in players:
        s.submit({"do": "join", "pid": new_seat(s)[0], "name": name}, by="phone:join")
    return s


async def settle(pilot: Any) -> None:
    for _ in range(3):
        await pilot.pause(0.05)


async def assert_shown(pilot: Any, app: DilemmaApp, *shown: str) -> None:
    await shown_soon(pilot, app, *shown)


async def on_row(pilot: Any, app: DilemmaApp, session: Session, name: str) -> None:
    """The roster's cursor on ``name``'s row."""
    pid = next(p.pid for p in session.state.players if p.name == name)
    table = app.screen.query_one("#roster", DataTable)
    table.move_cursor(row=table.get_row_index(pid))
    await pilot.pause()


@HOSTILE
@given(joiner=names(), added=names(), renamed=names(), size=SIZES)
async def test_a_hostile_name_goes_through_every_face_of_the_warm_up(
    joiner: str, added: str, renamed: str, size: tuple[int, int]
) -> None:
    keys = {n.casefold() for n in ("Ada", "Ben", joiner, added, renamed)}
    if len(keys) < 5:
        return  # the rules refuse a name twice; each name here is someone else
    with tempfile.TemporaryDirectory() as folder:
        session = warm_up(Path(folder), "Ada", "Ben")
        app = DilemmaApp(session, seed=lambda: 7)
        async with app.run_test(size=size, notifications=True) as pilot:
            await settle(pilot)
            # a phone joins while the console runs (as the phone server, in the same loop)
            session.submit(
                {"do": "join", "pid": new_seat(session)[0], "name": joiner}, by="phone:join"
            )
            await pilot.pause(0.3)
            await assert_shown(pilot, app, joiner)
            # the game master adds a player without a phone
            await pilot.press("a")
            await key_in(pilot, added)
            await pilot.press("enter")
            await settle(pilot)
            await assert_shown(pilot, app, added)  # the roster, and the notice that they joined
            await pilot.press("n")
            await settle(pilot)
            await assert_shown(pilot, app, joiner, added)  # the roster's Facing column too
            # a choice entered in private, picked by name
            await on_row(pilot, app, session, joiner)
            await pilot.press("h")
            await settle(pilot)
            assert isinstance(app.screen, PickScreen)
            await assert_shown(pilot, app, joiner)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, ChoiceScreen)
            await assert_shown(pilot, app, joiner)
            await pilot.press("b")
            await settle(pilot)
            await assert_shown(pilot, app, joiner)  # "…'s choice is recorded and sealed."
            await pilot.press("c", "y")
            await settle(pilot)
            # rename, remove, bring back: each dialog and notice says the name
            await on_row(pilot, app, session, joiner)
            await pilot.press("e")
            await settle(pilot)
            assert isinstance(app.screen, TextScreen)
            await assert_shown(pilot, app, joiner)
            await pilot.press("ctrl+u")
            await key_in(pilot, renamed)
            await pilot.press("enter")
            await settle(pilot)
            assert any(p.name == renamed for p in session.state.players)
            await assert_shown(pilot, app, renamed)
            await on_row(pilot, app, session, renamed)
            await pilot.press("x")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)
            await assert_shown(pilot, app, renamed)
            await pilot.press("y")
            await settle(pilot)
            await assert_shown(pilot, app, renamed)
            await pilot.press("b")
            await settle(pilot)
            await assert_shown(pilot, app, renamed)
            # the undo's question names the pairs the room saw
            await pilot.press("u")
            await settle(pilot)
            assert app.is_running
        session.close()
