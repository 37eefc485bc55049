"""The warm-up console's phone column, fed by the real phone server's event streams, and its
undo, which asks first when the room has already seen what it would take back."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from textual.widgets import DataTable

from companion.rules.dilemma.phrases import pair
from companion.rules.dilemma.seen import seen_by_the_room
from companion.session.dilemma.seats import new_seat
from companion.session.presence import SeatPresence
from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.common.presence import PhoneSeen, phone_words
from companion.tui.dilemma.app import DilemmaApp
from tests.dilemma_helpers import ok, scenario, tournament
from tests.tui.dilemma.test_console import app_for, room_shown, roster, text, wait_for
from tests.tui.terminal import notices
from tests.web.dilemma.test_presence import read_event

NAMES = ["Ada", "Ben", "Cleo", "Dev"]


@pytest.fixture
def seated(tmp_path: Path):
    """A tournament whose players joined as phones do: each has a link (name -> token)."""
    s = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    tokens = {}
    for name in NAMES:
        pid, token = new_seat(s)
        s.submit({"do": "join", "pid": pid, "name": name}, by="phone:join")
        tokens[name] = token
    yield s, tokens
    s.close()


def said(app: DilemmaApp) -> list[str]:
    return notices(app)


async def test_the_phone_column_follows_the_open_event_streams(
    seated: tuple[Session, dict[str, str]], tmp_path: Path
) -> None:
    from companion.web.dilemma.server import start_dilemma_server

    session, tokens = seated
    signals: list[SeatPresence] = []
    session.subscribe(lambda s, change: signals.append(change.signal) if change.signal else None)
    server = await start_dilemma_server(session, "127.0.0.1", 0)  # the phones, in this loop
    app = DilemmaApp(session, links=(server.join_url, server.board_url))
    async with app.run_test(size=(120, 36)) as pilot:
        await room_shown(pilot)
        base = app.join_url.removesuffix("/join-room") if app.join_url else ""
        assert {name: row[-1] for name, row in roster(app).items()} == dict.fromkeys(NAMES, "-")
        async with aiohttp.ClientSession() as http:
            await http.get(f"{base}/d/{tokens['Ben']}")  # a page load alone is no presence
            stream = await http.get(f"{base}/api/d/{tokens['Ben']}/events")
            await read_event(stream)
            await wait_for(pilot, app, "connected")
            phones = {name: row[-1] for name, row in roster(app).items()}
            assert phones == {"Ada": "-", "Ben": "connected", "Cleo": "-", "Dev": "-"}
            board = await (await http.get(f"{base}/board")).text()
            assert "1 of 4 phones connected" in board

            stream.close()
            session.note("anything")  # wakes the stream: its write fails and it ends
            await wait_for(pilot, app, "away since")
            gone = signals[-1]
            assert (gone.connected, roster(app)["Ben"][-1]) == (
                False,
                phone_words(PhoneSeen(False, gone.since)),
            )
            assert re.fullmatch(r"away since \d\d:\d\d", roster(app)["Ben"][-1])
            board = await (await http.get(f"{base}/board")).text()
            assert "0 of 4 phones connected" in board
        await pilot.press("q")
    await server.stop()


async def test_a_narrow_roster_still_shows_each_phone(
    seated: tuple[Session, dict[str, str]], tmp_path: Path
) -> None:
    session, _ = seated
    for name in ("Maximilian Oberhauser", "Gwendolyn Marchetti"):
        session.submit({"do": "join", "pid": new_seat(session)[0], "name": name})
    app = app_for(session, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await room_shown(pilot)
        await pilot.press("n")  # a round: the roster is at its narrowest beside the side panel
        await wait_for(pilot, app, "Round 1 of 2")
        pids = [p.pid for p in session.state.players]
        session.signal(SeatPresence(pids[0], True, 1.0e9))
        session.signal(SeatPresence(pids[1], False, 1.0e9))
        await wait_for(pilot, app, "connected")
        rows = roster(app)
        assert rows["Ada"][-1] == "connected"
        assert rows["Ben"][-1] == phone_words(PhoneSeen(False, 1.0e9)).replace(" since", "")
        table = app.screen.query_one("#roster", DataTable)
        widths = sum(column.get_render_width(table) for column in table.columns.values())
        assert widths <= table.size.width, "the roster runs off the screen"
        await pilot.press("q")


async def reveal_round_one(pilot: Any, app: DilemmaApp, session: Session) -> None:
    await pilot.press("n")
    await wait_for(pilot, app, "Round 1 of 2")
    current = session.state.current
    assert current is not None
    for i, pid in enumerate(current.paired()):
        session.submit({"do": "choose", "pid": pid, "choice": "betray" if i == 0 else "silent"})
    await wait_for(pilot, app, "Round 1 of 2 is revealed")


async def test_undoing_a_reveal_names_what_the_room_saw_and_asks_first(
    seated: tuple[Session, dict[str, str]], tmp_path: Path
) -> None:
    session, _ = seated
    app = app_for(session, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await room_shown(pilot)
        await reveal_round_one(pilot, app, session)
        (a, b), (c, d) = session.state.current.pairs  # type: ignore[union-attr]
        name = session.state.name
        rows = len(session.rows)

        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        asked = " ".join(text(app).split())
        assert "Undo round 1's reveal?" in asked
        assert (
            f"The room has already seen round 1's choices ({name(a)} betrayed {name(b)}, "
            f"{name(c)} and {name(d)} stayed silent); undo anyway?"
        ) in asked
        # the last choice made the reveal: it goes with it, and the dialog says so
        target = session.history.undo_target()
        last = session.state.name(target.events[0].pid)  # type: ignore[union-attr]
        assert (
            f"The choice that completed the round is taken back with it: {last} chooses again."
        ) in asked
        await pilot.press("n")  # cancelled: nothing changes
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert len(session.rows) == rows and session.state.phase == "revealed"
        assert "Nothing was undone." in said(app)

        await pilot.press("u", "y")
        await wait_for(pilot, app, "Round 1 of 2: 3 of 4 have chosen")
        assert session.state.phase == "choosing" and session.rows[-1].kind == "undo"
        assert "Undone: round 1's reveal is taken back (the log keeps it)." in said(app)
        assert f"{last} chooses again." in said(app)
        assert [session.state.name(p) for p in session.state.waiting()] == [last]

        # the round's start was never a secret: undone at once, as before
        session.submit({"do": "close_round"})
        session.submit({"do": "start_round", "seed": 5})
        await wait_for(pilot, app, "Round 2 of 2")
        await pilot.press("u")
        await wait_for(pilot, app, "Round 1 of 2 is revealed")
        assert not isinstance(app.screen, ConfirmScreen)
        assert "Undone: the last change is taken back (the log keeps it)." in said(app)
        await pilot.press("q")


async def test_an_undo_asked_about_is_not_done_when_another_move_came_meanwhile(
    seated: tuple[Session, dict[str, str]], tmp_path: Path
) -> None:
    session, _ = seated
    app = app_for(session, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await room_shown(pilot)
        await reveal_round_one(pilot, app, session)
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        session.submit({"do": "finish"})  # from elsewhere, while the question is open
        await pilot.press("y")
        await pilot.pause()
        assert session.state.phase == "over" and session.rows[-1].kind == "command"
        await pilot.press("q")


def test_the_words_for_what_the_room_saw() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"])
    ok(h, {"do": "start_round", "seed": 3})
    current = h.state.current
    assert current is not None and len(current.pairs) == 5
    plans = [("betray", "silent"), ("silent", "silent"), ("betray", "betray")]
    plans += [("silent", "betray")] * 2
    for (a, b), (choice_a, choice_b) in zip(current.pairs, plans, strict=True):
        ok(h, {"do": "choose", "pid": a, "choice": choice_a})
        ok(h, {"do": "choose", "pid": b, "choice": choice_b})
    assert h.state.phase == "revealed"  # the last choice revealed the round
    (x, y), (z, w), (u, v) = [[h.state.name(p) for p in pair] for pair in current.pairs[:3]]
    seen = seen_by_the_room(h.state, h.entries[-1].events)
    assert seen is not None and seen.reopens == 1 and str(seen.title) == "round 1's reveal"
    assert seen.chooser == h.state.name(current.pairs[-1][1])  # the last choice goes with it
    assert str(seen.words) == (
        f"round 1's choices ({x} betrayed {y}, {z} and {w} stayed silent, "
        f"{u} and {v} betrayed each other, and 2 more pairs)"
    )
    (a, b) = current.pairs[3]
    outcome = h.state.rounds[-1].outcomes[3]
    assert str(pair(h.state, outcome)) == f"{h.state.name(b)} betrayed {h.state.name(a)}"

    ok(h, {"do": "rename", "pid": "p0", "name": "Anna"})
    assert seen_by_the_room(h.state, h.entries[-1].events) is None  # nothing shown to undo
    ok(h, {"do": "start_round", "seed": 4})
    ok(h, {"do": "choose", "pid": "p1", "choice": "silent"})
    ok(h, {"do": "close_round"})  # closed by the game master: no choice goes with it
    closed = seen_by_the_room(h.state, h.entries[-1].events)
    assert closed is not None and closed.reopens == 2 and closed.chooser is None
    ok(h, {"do": "finish"})
    ended = seen_by_the_room(h.state, h.entries[-1].events)
    assert ended is not None and str(ended.words) == "the final results" and ended.reopens is None
