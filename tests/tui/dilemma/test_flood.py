"""Clearing a flood from the warm-up console: the roster shows where each player joined from,
X groups the players by device address and by how recently they joined, one confirmation
removes a group in one step and u brings them all back in one step; d closes and opens the
doors. Through Textual's pilot, at 120x36 and at 80x24."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from companion.session.dilemma.seats import LIFTED_KEY, new_seat
from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen, PickScreen
from companion.tui.dilemma.app import DilemmaApp
from tests.dilemma_helpers import scenario
from tests.night_helpers import until
from tests.tui.dilemma.test_console import app_for, room_shown, roster, text
from tests.tui.terminal import notices

FLOOD = "127.1.0.9"
REAL = {"Ada": "127.1.0.10", "Ben": "127.1.0.11", "[b]Cy[/b]": "127.1.0.12"}
BOTS = 120
SIZES = [(120, 36), (80, 24)]


@pytest.fixture
def flooded(tmp_path: Path):
    """Three real players who joined an hour ago, then a script's 120 joins from one address."""
    s = Session.create(tmp_path / "flood.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    now = time.time()
    for name, address in REAL.items():
        pid, _ = new_seat(s, address, now=now - 3600)
        s.submit({"do": "join", "pid": pid, "name": name}, by="phone:join")
    for i in range(BOTS):
        pid, _ = new_seat(s, FLOOD, now=now - 30 + i / 10)
        s.submit({"do": "join", "pid": pid, "name": f"Bot {i:03}"}, by="phone:join")
    yield s
    s.close()


def said(app: DilemmaApp) -> list[str]:
    return notices(app)


def present(session: Session) -> list[str]:
    return [p.name for p in session.state.players if p.present]


@pytest.mark.parametrize("size", SIZES, ids=["120x36", "80x24"])
async def test_a_flood_is_cleared_in_one_step_and_undone_in_one(
    flooded: Session, tmp_path: Path, size: tuple[int, int]
) -> None:
    session = flooded
    app = app_for(session, tmp_path)
    async with app.run_test(size=size) as pilot:
        await room_shown(pilot)
        # Under the roster, where the player under the cursor joined from (the game
        # master's alone; no phone or board shows it: tests/web/dilemma/test_flood.py).
        assert f"Ada joined from {REAL['Ada']} at " in text(app)
        await pilot.press("down", "down")
        await pilot.pause()
        assert f"[b]Cy[/b] joined from {REAL['[b]Cy[/b]']} at " in text(app)  # as typed
        await pilot.press("down")
        await pilot.pause()
        assert f"Bot 000 joined from {FLOOD} at " in text(app)
        await pilot.press("X")
        await pilot.pause()
        pick = app.screen
        assert isinstance(pick, PickScreen)
        first = pick.options[0][1]
        assert first.startswith(f"From {FLOOD}: {BOTS} players, joined ") and "Bot 000" in first
        assert not any("127.1.0.10" in label for _, label in pick.options)  # one player alone
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.title_text == f"Remove {BOTS} players?"
        rows_before = len(session.rows)
        await pilot.press("y")
        await pilot.pause()
        assert present(session) == list(REAL)
        assert len(session.rows) == rows_before + 1  # one command in the log
        assert session.rows[-1].body["command"]["do"] == "remove_many"
        assert f"Removed {BOTS} players who joined from {FLOOD}; u to undo." in said(app)
        await pilot.press("u")
        await pilot.pause()
        assert len(present(session)) == BOTS + len(REAL)  # all back in one step
        assert session.rows[-1].kind == "undo" and len(session.rows) == rows_before + 2
        assert not isinstance(app.screen, ConfirmScreen)
        await pilot.press("q")


async def test_the_roster_has_a_column_of_addresses_when_there_is_room(
    flooded: Session, tmp_path: Path
) -> None:
    app = app_for(flooded, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await room_shown(pilot)
        await pilot.press("s")  # the QR code hidden: room for the column
        await pilot.pause()
        rows = roster(app)
        assert rows["Ada"][-2] == REAL["Ada"] and rows["Bot 000"][-2] == FLOOD
        assert "Joined from" in text(app)
        await pilot.press("q")


async def test_the_players_who_joined_just_now_are_picked_with_the_keyboard(
    flooded: Session, tmp_path: Path
) -> None:
    session = flooded
    app = app_for(session, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await room_shown(pilot)
        await pilot.press("X")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        labels = [label for _, label in app.screen.options]
        assert labels[1] == f"Joined in the last 1 min: {BOTS} players (Bot 000, Bot 001, Bot 002…)"
        assert len(labels) == 3  # the 5 and 15 minutes hold the same players: offered once
        assert labels[2].startswith("Lift the limit of joins per device")
        await pilot.press("down", "enter")
        await pilot.pause()
        await pilot.press("n")  # not now: nothing changes
        await pilot.pause()
        assert len(present(session)) == BOTS + len(REAL)
        await pilot.press("X", "down", "enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert present(session) == list(REAL)
        assert f"Removed {BOTS} players who joined in the last 1 min; u to undo." in said(app)
        await pilot.press("q")


@pytest.mark.parametrize("size", SIZES, ids=["120x36", "80x24"])
async def test_d_closes_and_opens_the_doors(
    flooded: Session, tmp_path: Path, size: tuple[int, int]
) -> None:
    session = flooded
    app = app_for(session, tmp_path)
    async with app.run_test(size=size) as pilot:
        await room_shown(pilot)
        if size == (120, 36):
            assert "Close doors" in text(app)  # the footer's key
        await pilot.press("d")
        await pilot.pause()
        assert session.state.doors_closed is True
        assert "The doors are closed: nobody can join (d opens them)." in text(app)
        if size == (120, 36):
            assert "Open doors" in text(app)
        await pilot.press("d")
        await pilot.pause()
        assert session.state.doors_closed is False
        assert "The doors are closed" not in text(app)
        await pilot.press("q")


async def test_no_flood_to_clear_says_so(tmp_path: Path) -> None:
    s = Session.create(tmp_path / "quiet.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    try:
        s.submit({"do": "join", "pid": "p0", "name": "Ada"})  # added at the console: no address
        app = app_for(s, tmp_path)
        async with app.run_test(size=(120, 36)) as pilot:
            await room_shown(pilot)
            assert "Joined from" not in text(app)
            await pilot.press("X")
            await pilot.pause()
            assert not isinstance(app.screen, PickScreen)
            assert any("No flood to clear" in message for message in said(app))
            await pilot.press("q")
    finally:
        s.close()


async def test_a_burst_from_many_addresses_is_told_as_it_happens_and_cleared_alone(
    tmp_path: Path,
) -> None:
    """60 addresses × 4 names in 1.2 s (a script), with two real players joining in the
    middle of it from their own phones: the console says so as it happens, and X offers the
    burst's 240 seats alone; the five real players stay."""
    session = Session.create(tmp_path / "burst.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    now = time.time()
    for name, address in REAL.items():
        pid, _ = new_seat(session, address, now=now - 3600)
        session.submit({"do": "join", "pid": pid, "name": name}, by="phone:join")
    app = app_for(session, tmp_path)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await room_shown(pilot)
            for i in range(240):
                if i in (80, 160):  # a real phone, alone on its address, mid-burst
                    who = "Dee" if i == 80 else "Eve"
                    pid, _ = new_seat(session, f"127.3.0.{i // 80}", now=now + i * 0.005)
                    session.submit({"do": "join", "pid": pid, "name": who}, by="phone:join")
                pid, _ = new_seat(session, f"127.2.{i % 60}.1", now=now + i * 0.005)
                session.submit({"do": "join", "pid": pid, "name": f"Bot {i:03}"}, by="phone:join")
            # the console looks at the joins a moment after them (later on a loaded machine)
            await until(lambda: any(m.startswith("A burst of joins") for m in said(app)),
                        pilot=pilot)
            told = [m for m in said(app) if m.startswith("A burst of joins")]
            assert told and all(  # told as it came in (how far it had come: the follower's)
                re.fullmatch(
                    r"A burst of joins: \d+ players from \d+ devices in [\d.]+ s\. X removes "
                    r"the burst's players in one step \(u brings them back\)\.",
                    message,
                )
                for message in told
            ), told
            await pilot.press("X")
            await pilot.pause()
            pick = app.screen
            assert isinstance(pick, PickScreen)
            assert pick.options[0][1].startswith("A burst at ")
            assert "240 players from 60 devices in 1.2 s (Bot 000, Bot 001, Bot 002…)" in (
                pick.options[0][1]
            )
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert app.screen.title_text == "Remove 240 players?"
            await pilot.press("y")
            await pilot.pause()
            assert present(session) == [*REAL, "Dee", "Eve"]
            assert "Removed the burst's 240 players; u to undo." in said(app)
            await pilot.press("q")
    finally:
        session.close()


async def test_the_limit_per_device_is_lifted_and_set_again_from_the_console(
    flooded: Session, tmp_path: Path
) -> None:
    app = app_for(flooded, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await room_shown(pilot)
        for lifted in ("lifted", None):
            await pilot.press("X")
            await pilot.pause()
            assert isinstance(app.screen, PickScreen)
            await pilot.press("end", "enter")  # the last option: the limit
            await pilot.pause()
            assert flooded.settings.get(LIFTED_KEY) == lifted
        assert any("No limit of joins per device" in m for m in said(app))
        assert "Joins are limited per device again." in said(app)
        await pilot.press("q")
