"""Whom an informant named, recorded from the warden's phone: the deal's boxes (the other
prisoners still in), sent with the deal as ``named``; refused in one sentence when wrong; never
on a prisoner's page, the board or their API before the game is over; in the epilogue after."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.session.prison.seats import Seat, seats_of
from companion.session.session import Session
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.stage_helpers import call_in, step_reveal

NOW = 2_000_000_000.0
ROSTER = ["Ada", "Ben <i>", "Cy", "Dee"]  # a name that must reach the page as text


@pytest.fixture
def session(tmp_path: Path):
    s = demo_session(tmp_path, "t", ROSTER, rules_overrides={"nights_to_escape": 1})
    yield s
    s.close()


@pytest.fixture
async def client(session: Session):
    app = build_app(session, base="http://192.0.2.7:8765")
    async with TestClient(TestServer(app, host="127.0.0.1")) as c:
        yield c


def seat(session: Session, name: str) -> Seat:
    return next(s for s in seats_of(session) if s.name == name)


async def deal(client: TestClient, session: Session, body: Any) -> tuple[int, Any]:
    r = await client.post(f"/api/p/{seat(session, 'Wendy').token}/deal", data=json.dumps(body))
    return r.status, await r.json()


async def everything_but_the_wardens(
    client: TestClient, session: Session, but: str = ""
) -> str:
    """Every page, part and API answer of every prisoner (but ``but``), and the board's."""
    texts = []
    for s in seats_of(session):
        if s.role == "warden" or s.name == but:
            continue
        for path in (f"/p/{s.token}", f"/p/{s.token}/part", f"/api/p/{s.token}"):
            texts.append(await (await client.get(path)).text())
    for path in ("/board", "/board/part", "/api/board"):
        texts.append(await (await client.get(path)).text())
    return "\n".join(texts)


async def test_the_warden_records_whom_the_informant_named(
    client: TestClient, session: Session
) -> None:
    for name, choice in [("Ada", "work"), ("Ben <i>", "rest"), ("Cy", "work"), ("Dee", "rest")]:
        session.submit({"do": "choose", "prisoner": name, "choice": choice})
    session.submit({"do": "close_planning"})
    call_in(session, "Cy", 90, now=NOW)
    part = await (await client.get(f"/p/{seat(session, 'Wendy').token}/part")).text()
    assert "Whom did Cy name? Tick each one before the deal; none ticked: nobody." in part
    boxes = part.count('type="checkbox" name="named"')
    assert boxes == 3  # the others still in, not Cy
    assert 'value="Ben &lt;i&gt;" data-keep="Cy"> Ben &lt;i&gt;</label>' in part
    assert 'data-value="Cy" data-confirm="Tap again: deal with Cy" data-with="named"' in part
    before = await everything_but_the_wardens(client, session)
    # wrong: a list of something else, naming the informant, a name twice, an unknown field
    status, body = await deal(client, session, {"prisoner": "Cy", "named": "Ada"})
    assert (status, body) == (400, {"error": "The field 'named' must be a list of names."})
    status, body = await deal(client, session, {"prisoner": "Cy", "named": [3]})
    assert status == 400
    status, body = await deal(client, session, {"prisoner": "Cy", "named": ["Cy"]})
    assert status == 409 and body["error"] == (
        "Cy cannot name Cy: name each other prisoner still in the game at most once."
    )
    status, body = await deal(client, session, {"prisoner": "Cy", "named": ["Ada", "Ada"]})
    assert status == 409
    status, body = await deal(client, session, {"prisoner": "Cy", "whom": ["Ada"]})
    assert status == 400
    assert session.state.day.interviews == ()
    status, body = await deal(client, session, {"prisoner": "Cy", "named": ["Ben <i>", "Ada"]})
    assert status == 200 and body["message"] == "Done: Cy received today's parole token."
    assert session.state.day.named == (("Cy", ("Ben <i>", "Ada")),)
    rows = len(session.rows)
    status, __ = await deal(client, session, {"prisoner": "Cy", "named": ["Ben <i>", "Ada"]})
    assert status == 200 and len(session.rows) == rows  # sent twice: acknowledged once
    # nothing of it anywhere but the warden's page and the console until the game is over
    after = await everything_but_the_wardens(client, session)
    for text in (before, after):
        assert "named" not in text and '"Ben <i>", "Ada"' not in text
    session.submit({"do": "search", "prisoner": "Ben <i>"})
    step_reveal(session, to_end=True, now=NOW)
    assert session.state.over  # one night's work is the escape
    # over: Cy's own part tells Cy; the board and the others learn it from the epilogue
    over = await everything_but_the_wardens(client, session, but="Cy")
    assert "took the warden" not in over and "named Ben" not in over
    night = session.room.epilogue_next(at=NOW)  # the epilogue's first step: night 1
    assert night is not None
    session.stage(night)
    board = await (await client.get("/board/part")).text()
    assert (
        "Cy took the warden&#39;s deal and named Ben &lt;i&gt; and Ada: their first parole "
        "token." in board
    )
    cy = await (await client.get(f"/p/{seat(session, 'Cy').token}/part")).text()
    assert "you took a deal and named Ben &lt;i&gt; and Ada" in cy


async def test_a_deal_without_names_named_nobody(client: TestClient, session: Session) -> None:
    session.submit({"do": "close_planning"})
    call_in(session, "Ada", 90, now=NOW)
    status, __ = await deal(client, session, {"prisoner": "Ada", "named": []})
    assert status == 200
    assert session.state.day.interviews == (("Ada", True),) and session.state.day.named == ()

