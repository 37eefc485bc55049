"""A burst of choices from many phones at once, against the real phone server on 127.0.0.1:
the pushes to the streams are coalesced (:class:`companion.web.common.fanout.Fanout`), yet
every stream ends holding the latest view (a prisoner's page: its last whole part with the
patches since applied is the part of the latest state), and no phone is told "Saved" before its
choice is in the session file (read by a connection of its own, as another process would)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp

from companion.rules.prison.views import prisoner, table, warden
from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import seats_of
from companion.web.prison.pages import render_seat_part
from companion.web.prison.phones import COUNTS, seat_view
from companion.web.prison.server import start_phone_server
from tests.stage_helpers import room_state
from tests.web.prison.pages_held import Held
from tests.web.prison.test_phones import game_of, latest, next_event, open_stream

PRISONERS = [f"P{i:02d}" for i in range(1, 25)]
ROUNDS = 4


def commit_times(path: Path) -> set[str]:
    """The commit times of the choices in the session file."""
    rows = sqlite3.connect(path).execute("SELECT at FROM log WHERE kind = 'command'").fetchall()
    return {at for (at,) in rows}


def last_choice_in_file(path: Path, name: str) -> str | None:
    """The last choice ``name``'s phone made, as committed to the session file."""
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT body FROM log WHERE kind = 'command' ORDER BY seq").fetchall()
    choice = None
    for (body,) in rows:
        row = json.loads(body)
        command = row["command"]
        if command["do"] == "choose" and row["by"] == f"phone:{name}":
            choice = command["choice"]
    return choice


async def test_a_burst_of_choices_ends_with_every_stream_holding_the_latest_view(
    tmp_path: Path,
) -> None:
    session = create_prison_session(
        tmp_path, "burst", "classic", "Wendy", PRISONERS,
        rules_overrides={"min_prisoners": 4, "max_prisoners": len(PRISONERS)},
    )
    path = session.store.path
    server = await start_phone_server(session, "127.0.0.1", 0)
    seats = seats_of(session)
    last: dict[str, Held] = {}
    early: list[str] = []

    async def follow(key: str, r: aiohttp.ClientResponse) -> None:
        held = last[key] = Held()
        while True:
            event = await next_event(r, timeout=30)
            held.take(event["event"], event["data"], event.get("id"))

    async def phone(http: aiohttp.ClientSession, name: str, token: str) -> None:
        for n in range(ROUNDS):
            choice = "work" if (n + len(name)) % 2 else "rest"
            async with http.post(
                f"{server.base_url}/api/p/{token}/choice", json={"choice": choice}
            ) as r:
                assert r.status == 200
                body = await r.json()
            assert body["message"].startswith("Saved")
            if last_choice_in_file(path, name) != choice:
                early.append(name)  # told "Saved" before the commit

    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http:
            streams = {s.name: f"{server.base_url}/api/p/{s.token}/events" for s in seats}
            streams["board"] = f"{server.base_url}/api/board/events"
            readers = [
                asyncio.create_task(follow(key, await open_stream(http, url)))
                for key, url in streams.items()
            ]
            await asyncio.gather(
                *(phone(http, s.name, s.token) for s in seats if s.role == "prisoner")
            )
            final = latest(session)
            for _ in range(200):  # the last wake is due within the pace; allow a slow machine
                if len(last) == len(streams) and all(h.id == final for h in last.values()):
                    break
                await asyncio.sleep(0.05)
            for task in readers:
                task.cancel()
    finally:
        await server.stop()
        session.close()

    assert early == []
    room = room_state(session)
    assert all(held.id == final for held in last.values())
    for s in seats:
        held = last[s.name]
        assert held.view is not None
        if s.role == "warden":
            assert game_of(held.view) == warden(room)
            continue
        # a patch changes the counts' line of the page, not the view it came with
        expected: dict[str, Any] = dict(prisoner(room, s.name))
        assert {k: v for k, v in game_of(held.view).items() if k not in COUNTS} == {
            k: v for k, v in expected.items() if k not in COUNTS
        }, s.name
        assert held.html == render_seat_part(seat_view(session, s), s), s.name
    assert last["board"].view is not None and game_of(last["board"].view) == table(room)
    assert room.day.choices == {
        name: "work" if (ROUNDS - 1 + len(name)) % 2 else "rest" for name in PRISONERS
    }


async def test_choices_that_reach_the_loop_together_share_one_commit(tmp_path: Path) -> None:
    """Choices whose requests reach the server's loop in one turn are committed together
    (one transaction, one fsync, answered after it: the test above checks each answer against
    the file), and every one acknowledged is in the session file."""
    session = create_prison_session(
        tmp_path, "together", "classic", "Wendy", PRISONERS,
        rules_overrides={"min_prisoners": 4, "max_prisoners": len(PRISONERS)},
    )
    path = session.store.path
    server = await start_phone_server(session, "127.0.0.1", 0)
    prisoners = [s for s in seats_of(session) if s.role == "prisoner"]
    try:
        connections = [
            await asyncio.open_connection("127.0.0.1", server.port) for _ in prisoners
        ]
        await asyncio.sleep(0.2)  # every connection accepted, nothing sent yet
        for (_, writer), seat in zip(connections, prisoners, strict=True):  # in one go
            body = json.dumps({"choice": "rest"}).encode()
            writer.write(
                f"POST /api/p/{seat.token}/choice HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                f"Connection: close\r\n\r\n".encode() + body
            )
        answers = [await reader.read() for reader, _ in connections]
        for _, writer in connections:
            writer.close()
    finally:
        await server.stop()
        session.close()
    for answer, seat in zip(answers, prisoners, strict=True):
        head, _, text = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), (seat.name, head)
        assert b"Saved" in text
        assert last_choice_in_file(path, seat.name) == "rest", seat.name
    commits = commit_times(path)  # the rows of one transaction share its commit's time
    assert 1 <= len(commits) < len(prisoners), commits
