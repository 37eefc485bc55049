"""Every view a phone or the board receives tells the version of the state it shows: the page
(``data-version`` on its live part), a re-fetched part and every JSON answer (``X-View-Version``),
every event (its id). The version is the log's latest row when it was made: it grows with the
log and with nothing else, so a page can drop whatever reaches it older than what it shows."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from companion.session.session import Session
from companion.web.common.context import Limiter
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.stage_helpers import call_in, send_out
from tests.web.prison.test_api import post, read_event, seat


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = demo_session(tmp_path, "versions")
    yield s
    s.close()


@pytest.fixture
async def client(session: Session) -> AsyncIterator[TestClient]:
    app = build_app(session, base="http://192.0.2.7:8765", limiter=Limiter())
    async with TestClient(TestServer(app, host="127.0.0.1")) as c:
        yield c


def latest(session: Session) -> int:
    return int(session.rows[-1].seq) if session.rows else 0


def told(response: ClientResponse) -> int:
    return int(response.headers["X-View-Version"])


async def page_version(client: TestClient, path: str) -> int:
    r = await client.get(path)
    assert r.status == 200
    found = re.search(r'<main id="live" data-version="(\d+)">', await r.text())
    assert found, path
    assert told(r) == int(found.group(1))
    return int(found.group(1))


async def everything_tells(client: TestClient, session: Session) -> list[int]:
    """The versions every page, part and JSON view tells now: each the log's latest row."""
    seen = []
    for name in ("Ada", "Wendy"):
        token = seat(session, name).token
        seen.append(await page_version(client, f"/p/{token}"))
        for path in (f"/p/{token}/part", f"/api/p/{token}"):
            r = await client.get(path)
            assert r.status == 200
            seen.append(told(r))
    seen.append(await page_version(client, "/board"))
    for path in ("/board/part", "/api/board"):
        seen.append(told(await client.get(path)))
    assert seen == [latest(session)] * len(seen)
    return seen


async def test_every_page_part_and_answer_tells_the_log_row_it_shows(
    client: TestClient, session: Session
) -> None:
    told_now = [await everything_tells(client, session)]
    answer = await post(client, session, "Ada", "choice", {"choice": "work"})
    assert answer.status == 200
    assert told(answer) == latest(session) == session.rows[-1].seq  # the row it appended
    told_now.append(await everything_tells(client, session))
    again = await post(client, session, "Ada", "choice", {"choice": "work"})
    assert told(again) == told(answer)  # nothing recorded: the same version
    changed = await post(client, session, "Ada", "choice", {"choice": "rest"})
    assert told(changed) > told(again)
    told_now.append(await everything_tells(client, session))
    session.submit({"do": "close_planning"})
    call_in(session, "Ben", 90)
    dealt = await post(client, session, "Wendy", "deal", {"prisoner": "Ben"})
    # Ben is still in: the room does not count the deal's row until his interview ends
    assert dealt.status == 200 and told(dealt) == latest(session) - 1
    send_out(session)
    assert (await post(client, session, "Wendy", "deal", {"prisoner": "Ben"})).status == 200
    searched = await post(client, session, "Wendy", "search", {"prisoner": "Cy"})
    assert searched.status == 200 and told(searched) == latest(session) > told(dealt)
    told_now.append(await everything_tells(client, session))
    firsts = [versions[0] for versions in told_now]
    assert firsts == sorted(set(firsts))  # only grows, with the log


async def next_events(response: ClientResponse, until: int) -> list[dict[str, Any]]:
    """A stream's events until one tells version ``until``."""
    events = []
    while not events or int(events[-1]["id"]) < until:
        events.append(await read_event(response))
    return events


async def test_every_event_tells_the_log_row_it_shows(
    client: TestClient, session: Session
) -> None:
    ada, ben = seat(session, "Ada"), seat(session, "Ben")
    streams = {
        "Ada": await client.get(f"/api/p/{ada.token}/events"),
        "Ben": await client.get(f"/api/p/{ben.token}/events"),
        "board": await client.get("/api/board/events"),
    }
    got: dict[str, list[dict[str, Any]]] = {}
    for name, r in streams.items():
        got[name] = [await read_event(r)]
        assert got[name][0]["event"] == "view" and int(got[name][0]["id"]) == latest(session)
    for who, choice in [("Ada", "work"), ("Cy", "rest"), ("Ada", "rest"), ("Dee", "work")]:
        await post(client, session, who, "choice", {"choice": choice})
        for name, r in streams.items():
            got[name] += await next_events(r, latest(session))
    session.submit({"do": "close_planning"})
    for name, r in streams.items():
        got[name] += await next_events(r, latest(session))
    kinds = {e["event"] for e in got["Ben"]}
    assert kinds == {"view", "patch"}  # the counts came as patches, and they tell theirs too
    rows = {row.seq for row in session.rows} | {0}
    for name, events in got.items():
        ids = [int(e["id"]) for e in events]
        assert ids == sorted(ids) and set(ids) <= rows, (name, ids)
        assert ids[-1] == latest(session)
    for r in streams.values():
        r.close()
