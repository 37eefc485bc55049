"""Every view a warm-up phone or the board receives tells the version of the state it shows:
the page (``data-version`` on its live part), a re-fetched part and every JSON answer
(``X-View-Version``), every event, the count patches too (its id). The version is the log's
latest row when it was made: it grows with the log and with nothing else."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient

from companion.session.session import Session
from tests.web.dilemma.test_presence import read_event
from tests.web.dilemma.test_server import choose, join


def latest(session: Session) -> int:
    return int(session.rows[-1].seq) if session.rows else 0


def told(response: ClientResponse) -> int:
    return int(response.headers["X-View-Version"])


async def everything_tells(client: TestClient, session: Session, token: str) -> int:
    """The version every page, part and JSON view tells now: the log's latest row."""
    seen = []
    for page in (f"/d/{token}", "/board"):
        r = await client.get(page)
        found = re.search(r'<main id="live" data-version="(\d+)">', await r.text())
        assert found, page
        seen += [int(found.group(1)), told(r)]
    for path in (f"/d/{token}/part", f"/api/d/{token}", "/board/part", "/api/board"):
        r = await client.get(path)
        assert r.status == 200, path
        seen.append(told(r))
    assert seen == [latest(session)] * len(seen)
    return seen[0]


async def test_every_page_part_and_answer_tells_the_log_row_it_shows(
    client: TestClient, session: Session
) -> None:
    tokens = {name: await join(client, name) for name in ["Ann", "Bob", "Cy", "Dee"]}
    versions = [await everything_tells(client, session, tokens["Ann"])]
    session.submit({"do": "start_round", "seed": 5})
    versions.append(await everything_tells(client, session, tokens["Ann"]))
    for choice in ("silent", "betray"):
        r = await client.post(f"/api/d/{tokens['Ann']}/choice", json={"choice": choice})
        assert r.status == 200 and told(r) == latest(session)  # the row it appended
        versions.append(await everything_tells(client, session, tokens["Bob"]))
    assert versions == sorted(set(versions))  # only grows, with the log


async def next_events(response: ClientResponse, until: int) -> list[dict[str, Any]]:
    """A stream's events until one tells version ``until``."""
    events = []
    while not events or int(events[-1]["id"]) < until:
        events.append(await read_event(response))
    return events


async def test_every_event_and_patch_tells_the_log_row_it_shows(
    client: TestClient, session: Session
) -> None:
    tokens = {name: await join(client, name) for name in ["Ann", "Bob", "Cy", "Dee"]}
    session.submit({"do": "start_round", "seed": 5})
    await asyncio.sleep(0.3)  # the round's pages have gone out (to no stream yet)
    streams = {
        "Ann": await client.get(f"/api/d/{tokens['Ann']}/events"),
        "Bob": await client.get(f"/api/d/{tokens['Bob']}/events"),
        "board": await client.get("/api/board/events"),
    }
    got: dict[str, list[dict[str, Any]]] = {}
    for name, r in streams.items():
        got[name] = [await read_event(r)]
        assert got[name][0]["event"] == "view" and int(got[name][0]["id"]) == latest(session)
    for who, choice in [("Ann", "silent"), ("Cy", "betray"), ("Ann", "betray")]:
        await choose(client, tokens[who], choice)
        for name, r in streams.items():
            got[name] += await next_events(r, latest(session))
    assert {e["event"] for e in got["Bob"]} == {"view", "patch"}  # the counts as patches
    rows = {row.seq for row in session.rows}
    for name, events in got.items():
        ids = [int(e["id"]) for e in events]
        assert ids == sorted(ids) and set(ids) <= rows, (name, ids)
        assert ids[-1] == latest(session)
    for r in streams.values():
        r.close()
