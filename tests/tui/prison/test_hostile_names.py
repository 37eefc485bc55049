"""Names are data on the prison console: a prisoner named ``Ben [/]`` (or any markup), typed on
the set-up screen or given in ``--prisoners``, is shown as typed on the board, the Seats
screen, the private choice, the history and the search's reveal, and never stops the console."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given

from companion.session.prison.create import create_prison_session
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.seats import SeatsScreen
from tests.tui.hostile import HOSTILE, SIZES, names
from tests.tui.support import key_in, new_app, pick, shown_soon


async def settle(pilot: Any) -> None:
    for _ in range(3):
        await pilot.pause(0.05)


async def assert_shown(pilot: Any, app: ConsoleApp, *shown: str) -> None:
    await shown_soon(pilot, app, *shown)


def distinct(*shown: str) -> bool:
    return len({n.casefold() for n in shown}) == len(shown)


@HOSTILE
@given(name=names(), size=SIZES)
async def test_a_hostile_prisoner_goes_through_every_face_of_the_game(
    name: str, size: tuple[int, int]
) -> None:
    if not distinct("Wendy", "Ada", name, "Cy", "Dee"):
        return
    with tempfile.TemporaryDirectory() as folder:
        # as ``companion demo --prisoners`` makes it
        session = create_prison_session(
            Path(folder), "demo", "classic", "Wendy", ["Ada", name, "Cy", "Dee"]
        )
        app = ConsoleApp(session, ticking=False)
        async with app.run_test(size=size, notifications=True) as pilot:
            await settle(pilot)
            await assert_shown(pilot, app, name)  # the board
            await pilot.press("w")
            await settle(pilot)
            assert isinstance(app.screen, SeatsScreen)
            await assert_shown(pilot, app, name)
            await pilot.press("escape")
            await settle(pilot)
            await pilot.press("c")
            await pick(pilot, app, name)
            await assert_shown(pilot, app, name)  # "NAME, this is your secret choice for tonight."
            await pilot.press("w")
            await settle(pilot)
            await assert_shown(pilot, app, name)  # "NAME's choice is recorded and sealed."
            for other in ("Ada", "Cy", "Dee"):
                session.submit({"do": "choose", "prisoner": other, "choice": "rest"})
            session.submit({"do": "close_planning"})
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            await assert_shown(pilot, app, name)  # the history
            await pilot.press("escape")
            await settle(pilot)
            await pilot.press("s", "y")
            await pick(pilot, app, name)  # "NAME's cell"
            for _ in range(4):
                await assert_shown(pilot, app, name)  # the reveal, step by step
                await pilot.press("space")
                await settle(pilot)
            assert app.is_running
        session.close()


@HOSTILE
@given(warden=names(), prisoner=names(), size=SIZES)
async def test_hostile_names_typed_on_the_set_up_screen(
    warden: str, prisoner: str, size: tuple[int, int]
) -> None:
    roster = [prisoner, "Ada", "Cy", "Dee"]
    if not distinct(warden, *roster):
        return
    with tempfile.TemporaryDirectory() as folder:
        app = new_app(Path(folder))
        async with app.run_test(size=size, notifications=True) as pilot:
            await settle(pilot)
            await key_in(pilot, warden)
            await pilot.press("enter")
            for typed in roster:
                await key_in(pilot, typed)
                await settle(pilot)
                await pilot.press("enter")
                await settle(pilot)
            # the list and "Ready: WARDEN and 4 prisoners"
            await assert_shown(pilot, app, warden, prisoner)
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert app.session.state.roster[0] == prisoner
            await assert_shown(pilot, app, prisoner)  # the board
            app.session.close()
