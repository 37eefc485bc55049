"""The epilogue through the phone server: nothing of it on any page or in the API before the
game is over (stray epilogue acts included) nor after an undo back to life; then each step on
the board at the room's version, and each player's own part on their phone."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from companion.rules.prison.stage import ShowEpilogue
from companion.session.prison.seats import seats_of
from companion.web.prison.phones import NIGHT
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.stage_helpers import step_reveal
from tests.web.prison.pages_held import Held

ROSTER = ["Ada", "Ben <b>", "Cy", "Dee"]
BEN = "Ben <b>"
NOW = 2_000_000_000.0
BASE = "http://192.0.2.7:8765"
# Words only the epilogue says, on the board or on a phone.
EPILOGUE_WORDS = ("What really happened", 'id="epilogue"', "Night 1", "you took a deal")


@pytest.fixture
async def room(tmp_path: Path):
    session = demo_session(tmp_path, "epi", ROSTER, rules_overrides={"nights_to_escape": 5})
    app = build_app(session, base=BASE)
    app[NIGHT].clock = lambda: NOW
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        yield client, session
    session.close()


async def served(client: TestClient, session: Any) -> dict[str, tuple[Any, str, str]]:
    """Every seat's and the board's API answer, page and live part."""
    out: dict[str, tuple[Any, str, str]] = {}
    for s in seats_of(session):
        api = await (await client.get(f"/api/p/{s.token}")).json()
        page = await (await client.get(f"/p/{s.token}")).text()
        part = await (await client.get(f"/p/{s.token}/part")).text()
        out[s.name] = (api, page, part)
    api = await (await client.get("/api/board")).json()
    page = await (await client.get("/board")).text()
    part = await (await client.get("/board/part")).text()
    out[""] = (api, page, part)
    return out


async def nothing_of_it(client: TestClient, session: Any) -> None:
    for who, (api, page, part) in (await served(client, session)).items():
        if who:
            assert api["me"]["epilogue"] is None, who
        else:
            assert api["epilogue"] is None
        assert api["stage"]["epilogue"] == 0
        for text in (page, part):
            assert not [w for w in EPILOGUE_WORDS if w in text], who


async def board_event(stream: ClientResponse, version: int) -> Held:
    """The board's stream, read until the event of ``version``."""
    held = Held()
    fields: dict[str, str] = {}
    while True:
        line = (await asyncio.wait_for(stream.content.readline(), 10)).decode().rstrip("\n")
        if line.startswith((":", "retry:")):
            continue
        if line:
            key, _, value = line.partition(": ")
            fields[key] = value
            continue
        if "event" in fields and fields["event"] != "beat":  # not the heartbeat
            held.take(fields["event"], json.loads(fields["data"]), fields.get("id"))
            if int(fields["id"]) >= version:
                return held
        fields = {}


async def test_nothing_before_the_end_then_each_step_and_each_own_part(room: Any) -> None:
    client, session = room
    gm = session.submit
    await nothing_of_it(client, session)
    # Day 1: Ada rests, the others work; Ben takes a deal; Ada's cell is searched: safe.
    for name, choice in [("Ada", "rest"), (BEN, "work"), ("Cy", "work"), ("Dee", "work")]:
        gm({"do": "choose", "prisoner": name, "choice": choice})
    session.stage(ShowEpilogue(NOW, 2))  # a stray act, long before the end: nothing shows
    await nothing_of_it(client, session)
    gm({"do": "close_planning"})
    gm({"do": "interview", "prisoner": BEN, "deal": True})
    await nothing_of_it(client, session)
    gm({"do": "search", "prisoner": "Ada"})
    while step_reveal(session, now=NOW) is not None:
        await nothing_of_it(client, session)
    gm({"do": "accuse", "accuser": "Dee", "accused": BEN})  # Ben had a token: shived
    gm({"do": "end_day"})
    await nothing_of_it(client, session)
    # Day 2: everyone left works; the search finds Ada working; 3 + 2 nights: the escape.
    for name in ["Ada", "Cy", "Dee"]:
        gm({"do": "choose", "prisoner": name, "choice": "work"})
    gm({"do": "close_planning"})
    gm({"do": "search", "prisoner": "Ada"})
    assert session.state.outcome == "escape"
    await nothing_of_it(client, session)  # over, but the room has not seen the search yet
    while session.room.held is not None and session.room.held.shown < 3:
        step_reveal(session, now=NOW)  # the search, CAUGHT, the night: not yet the end
        await nothing_of_it(client, session)
    step_reveal(session, now=NOW)
    assert session.room.game.over  # the end is shown: each phone has its own part now, and
    (api, page, part) = (await served(client, session))[""]  # the board has not begun it
    assert api["epilogue"] == {"shown": 0, "steps": 3, "held": True, "nights": [], "end": None}
    assert not [w for w in EPILOGUE_WORDS if w in page or w in part]

    board = await client.get("/api/board/events")
    total = session.room.epilogue_next(to_end=True, at=NOW).shown
    heads = ["Night 1", "Night 2", "The prisoners escaped"]
    for shown in range(1, total + 1):
        act = session.room.epilogue_next(at=NOW)
        row = session.stage(act)
        held = await board_event(board, row.seq)  # the board's stream, at this version
        assert held.id == str(row.seq) and held.view is not None
        assert held.view["epilogue"]["shown"] == shown
        part = await (await client.get("/board/part")).text()
        assert held.html == part
        assert f'data-step="{shown}"' in part
        assert f"What really happened: {shown} of {total}" in part
        assert f'<p class="headline">{heads[shown - 1]}</p>' in part
    assert "Ben &lt;b&gt; took the warden&#39;s deal: their first parole token." in part or (
        "Parole tokens at the end: Ben &lt;b&gt; 1." in part
    )
    board.close()
    # Each phone: its own part, and nobody else's.
    pages = await served(client, session)
    _, _, ben = pages[BEN]
    assert "Night 1: you worked, you took a deal and Dee accused you and you were shived." in (
        ben.replace("&lt;", "<").replace("&gt;", ">")
    )
    assert "Night 2" not in ben  # shived on day 1: no night 2 of their own
    _, _, ada = pages["Ada"]
    assert "Night 1: you rested and the warden searched your cell and found nothing." in ada
    assert "Night 2: you worked and the warden caught you working." in ada
    assert "you took a deal" not in ada
    _, _, wendy = pages["Wendy"]
    assert "Night 1: you made a deal with Ben &lt;b&gt; and you searched Ada&#39;s cell and " in (
        wendy
    )
    # An undo back to life hides it all again.
    session.undo()
    assert not session.room.game.over
    await nothing_of_it(client, session)
