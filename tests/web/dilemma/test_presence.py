"""The dilemma server's presence and the board as a projector screen: a player counts as
connected while their event stream is open, the board counts the phones, its code shrinks once
play starts and it carries what its sound cue listens for."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient

from companion.session.presence import SeatPresence
from companion.session.session import Session
from tests.web.dilemma.test_server import choose, join


async def read_event(response: ClientResponse) -> dict[str, Any]:
    """The next server-sent event of a stream, its data decoded (comments skipped)."""
    fields: dict[str, Any] = {}
    while True:
        raw = await asyncio.wait_for(response.content.readline(), 10)
        line = raw.decode().rstrip("\n")
        if not line and fields.get("event") == "beat":  # the heartbeat, as a comment was
            fields = {}
        elif not line and "event" in fields:
            return fields
        if line and not line.startswith((":", "retry:")):
            key, _, value = line.partition(": ")
            fields[key] = json.loads(value) if key == "data" else value


def pid(session: Session, name: str) -> str:
    return next(p.pid for p in session.state.players if p.name == name)


def phones_line(page: str) -> str:
    found = re.search(r'<p id="phones"[^>]*>([^<]*)</p>', page)
    assert found, page
    return found.group(1)


async def until(check: Any) -> None:
    for _ in range(100):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


async def test_an_open_stream_is_a_connected_phone_and_the_board_counts_them(
    client: TestClient, session: Session
) -> None:
    signals: list[SeatPresence] = []
    session.subscribe(lambda s, change: signals.append(change.signal) if change.signal else None)
    ann, bob = await join(client, "Ann"), await join(client, "Bob")
    await client.get(f"/d/{ann}")  # a page load is not presence
    assert phones_line(await (await client.get("/board")).text()) == "0 of 2 phones connected"
    board = await client.get("/api/board/events")
    assert "0 of 2 phones connected" in (await read_event(board))["data"]["html"]

    stream = await client.get(f"/api/d/{ann}/events")
    await read_event(stream)
    assert [(s.seat, s.connected) for s in signals] == [(pid(session, "Ann"), True)]
    # The board's stream is sent again when a phone comes, though the log did not grow.
    assert "1 of 2 phones connected" in (await read_event(board))["data"]["html"]
    assert phones_line(await (await client.get("/board")).text()) == "1 of 2 phones connected"
    assert (await (await client.get("/api/board")).json())["phones"] == {"connected": 1, "of": 2}

    stream.close()
    session.note("anything")  # wakes the stream; its write fails and it ends
    await until(lambda: len(signals) == 2)
    assert [(s.seat, s.connected) for s in signals][-1] == (pid(session, "Ann"), False)
    assert phones_line(await (await client.get("/board")).text()) == "0 of 2 phones connected"
    board.close()
    assert bob


async def test_a_player_who_left_is_not_counted(client: TestClient, session: Session) -> None:
    ann = await join(client, "Ann")
    await join(client, "Bob")
    stream = await client.get(f"/api/d/{ann}/events")
    await read_event(stream)
    assert phones_line(await (await client.get("/board")).text()) == "1 of 2 phones connected"
    session.submit({"do": "remove", "pid": pid(session, "Ann")})
    assert phones_line(await (await client.get("/board")).text()) == "0 of 1 phone connected"
    stream.close()


async def test_the_code_is_large_while_joining_and_shrinks_once_play_starts(
    client: TestClient, session: Session
) -> None:
    tokens = [await join(client, name) for name in ["Ann", "Bob"]]
    lobby = await (await client.get("/board")).text()
    assert 'class="join-panel" id="join-panel"' in lobby and "qr-small" not in lobby
    assert 'class="stage phase-lobby" data-revealed="0"' in lobby
    assert 'http://192.0.2.7:8765</span><wbr><span class="nowrap">/join-room' in lobby
    session.submit({"do": "start_round", "seed": 1})
    playing = await (await client.get("/board")).text()
    assert 'class="join-panel qr-small"' in playing
    assert 'id="leaderboard"' not in playing  # nothing to rank before a reveal
    for token in tokens:
        await choose(client, token, "silent")
    revealed = await (await client.get("/board")).text()
    assert 'class="stage phase-revealed" data-revealed="1"' in revealed
    assert 'class="join-panel qr-small"' in revealed and 'id="leaderboard"' in revealed
    session.submit({"do": "start_round", "seed": 2})
    for token in tokens:
        await choose(client, token, "betray")
    over = await (await client.get("/board")).text()
    assert 'data-revealed="2"' in over and "join-panel" not in over  # nobody joins any more


async def test_the_board_keeps_ten_leaders_beside_a_round_and_twenty_at_the_end(
    client: TestClient, session: Session
) -> None:
    tokens = [await join(client, f"Player {i:02}") for i in range(24)]
    session.submit({"do": "start_round", "seed": 1})
    for token in tokens:
        await choose(client, token, "silent")
    page = await (await client.get("/board")).text()
    side = page[page.index('id="leaderboard"') :]
    assert side.count("<li") == 10 and "and 14 more." in side
    session.submit({"do": "start_round", "seed": 2})
    for token in tokens:
        await choose(client, token, "silent")
    final = await (await client.get("/board")).text()
    board = final[final.index('id="leaderboard"') : final.index('id="cooperation"')]
    assert board.count("<li") == 20 and "and 4 more." in board


async def test_the_board_loads_its_sound_script_and_its_mute_control(client: TestClient) -> None:
    page = await (await client.get("/board")).text()
    assert '<script src="/static/board.js"></script>' in page
    assert 'id="sound"' in page and "(m)" in page
    script = await client.get("/static/board.js")
    assert script.status == 200 and "AudioContext" in await script.text()
    assert "localStorage" in await script.text()
    style = await client.get("/static/board.css")
    assert style.status == 200 and "vw" in await style.text()
