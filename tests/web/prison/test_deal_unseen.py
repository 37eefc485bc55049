"""A deal is not seen by the room: the interview the room watches ends the same way whether the
warden's phone recorded a deal while the prisoner was out, or the game master recorded no deal
as they came back. The board's stream and JSON, and another prisoner's, are compared
event by event, id by id, for the two interviews."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from companion.web.prison.phones import NIGHT
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.stage_helpers import call_in, send_out
from tests.web.prison.test_api import post, read_event, seat

NOW = 2_000_000_000.0  # every countdown's "now", pinned: the same bytes in both games


async def events_until(stream: Any, version: int) -> list[dict[str, Any]]:
    events = [await read_event(stream)]
    while int(events[-1]["id"]) < version:
        events.append(await read_event(stream))
    return events


async def served(client: TestClient, session: Any) -> dict[str, Any]:
    """What anyone in the room may fetch now: the board's JSON, page and part, and Ada's."""
    ada = seat(session, "Ada").token
    out: dict[str, Any] = {}
    paths = {"/api/board": "/api/board", "/board": "/board", "/board/part": "/board/part",
             "/api/p/ADA": f"/api/p/{ada}", "/p/ADA/part": f"/p/{ada}/part"}
    for name, path in paths.items():
        r = await client.get(path)
        assert r.status == 200
        out[name] = (await r.text(), r.headers.get("X-View-Version"))
    return out


async def an_interview(tmp_path: Path, deal: bool) -> dict[str, Any]:
    """Ben goes in and comes back; with ``deal``, the warden's phone records a deal while he
    is out, and the game master ends the interview as he comes back; without, the game master
    records no deal as he comes back (as the console does: the record, then the end)."""
    session = demo_session(tmp_path / str(deal), "deal")
    app = build_app(session, base="http://192.0.2.7:8765")
    app[NIGHT].clock = lambda: NOW
    try:
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:
            for name, choice in (("Ada", "work"), ("Ben", "rest"), ("Cy", "work")):
                session.submit({"do": "choose", "prisoner": name, "choice": choice})
            session.submit({"do": "close_planning"})
            call_in(session, "Ben", 120, now=NOW)
            seen: dict[str, Any] = {}
            streams = {
                "board": await client.get("/api/board/events"),
                "Ada": await client.get(f"/api/p/{seat(session, 'Ada').token}/events"),
            }
            # the board counts Ada's phone when a push after her stream opened says so, which
            # may or may not be the board's first event: it is waited for, and not compared
            seen["Ada's view"] = await read_event(streams["Ada"])
            while (await read_event(streams["board"]))["data"]["view"]["phones"]["connected"] < 1:
                pass
            seen["before"] = await served(client, session)
            if deal:
                answer = await post(client, session, "Wendy", "deal", {"prisoner": "Ben"})
                assert answer.status == 200
                assert (await answer.json())["view"]["parole_tokens"]["Ben"] == 1
            seen["while out"] = await served(client, session)  # Ben is still with the warden
            if not deal:
                session.submit({"do": "interview", "prisoner": "Ben", "deal": False})
            send_out(session, now=NOW)
            seen["after"] = await served(client, session)
            last = call_in(session, "Cy", 120, now=NOW)  # the next change the room sees
            for name, stream in streams.items():
                seen[name] = await events_until(stream, last.seq)
                stream.close()
            seen["rows"] = len(session.rows)
            assert session.state.day.interviews == (("Ben", deal),)
            return seen
    finally:
        session.close()


async def test_the_room_sees_a_deal_end_as_an_interview_without_one(tmp_path: Path) -> None:
    with_deal = await an_interview(tmp_path, True)
    without = await an_interview(tmp_path, False)
    for key in ("Ada's view", "before", "while out", "after", "board", "Ada", "rows"):
        assert with_deal[key] == without[key], key
    # and the room did see the interview end, with its record
    before = json.loads(with_deal["before"]["/api/board"][0])
    assert before["stage"]["interview"]["prisoner"] == "Ben"
    assert "Ben" not in before["today"]["interviewed"]
    board = with_deal["board"]
    assert board[-1]["data"]["view"]["stage"]["interview"]["prisoner"] == "Cy"
    assert "Ben" in board[-2]["data"]["view"]["today"]["interviewed"]
