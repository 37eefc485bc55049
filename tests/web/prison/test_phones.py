"""Phones that come and go: asleep, off the Wi-Fi, reloading, two phones on one seat, a seat
reissued under an open page; and no stream left behind by phones that vanished.

Everything runs against the real phone server on 127.0.0.1 (``start_phone_server``) with real
TCP connections, in the test's own loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from companion.rules.prison.views import prisoner, table, warden
from companion.session.prison.seats import Seat, reissue, seats_of
from companion.session.session import Session
from companion.web.common import fanout
from companion.web.common.server import PhoneServer
from companion.web.prison.server import start_phone_server
from tests.conftest import ROSTER, demo_session
from tests.web.prison.pages_held import Held


def game_of(view: dict[str, Any]) -> dict[str, Any]:
    """A served view without the room's stage, phones count and the board's epilogue: the
    rules' view."""
    return {k: v for k, v in view.items() if k not in ("stage", "phones", "epilogue", "taken_back")}


@pytest.fixture
def session(tmp_path: Path):
    s = demo_session(tmp_path, "night")
    yield s
    s.close()


@pytest.fixture
async def server(session: Session) -> AsyncIterator[PhoneServer]:
    running = await start_phone_server(session, "127.0.0.1", 0)
    yield running
    await running.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as client:
        yield client


def seat(session: Session, name: str) -> Seat:
    return next(s for s in seats_of(session) if s.name == name)


async def next_event(r: aiohttp.ClientResponse, timeout: float = 5.0) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    while True:
        line = (await asyncio.wait_for(r.content.readline(), timeout)).decode().rstrip("\n")
        if not line:
            if fields.get("event") == "beat":  # the heartbeat, as a comment was before
                fields = {}
            elif "event" in fields:
                return fields
            continue
        if line.startswith((":", "retry:")):
            continue
        key, _, value = line.partition(": ")
        fields[key] = json.loads(value) if key == "data" else value


async def open_stream(
    http: aiohttp.ClientSession, url: str, last: str | None = None
) -> aiohttp.ClientResponse:
    headers = {"Last-Event-ID": last} if last is not None else {}
    r = await http.get(url, headers=headers)
    assert r.status == 200
    return r


def latest(session: Session) -> str:
    return str(session.rows[-1].seq) if session.rows else "0"


async def test_a_phone_back_from_sleep_sees_the_current_state_at_once(
    session: Session, server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    ada = seat(session, "Ada")
    events = f"{server.base_url}/api/p/{ada.token}/events"
    r = await open_stream(http, events)
    first = await next_event(r)
    r.close()  # asleep: the Wi-Fi is gone
    for name, choice in [("Ada", "work"), ("Ben", "rest"), ("Cy", "work"), ("Dee", "rest")]:
        session.submit({"do": "choose", "prisoner": name, "choice": choice})
    session.submit({"do": "close_planning"})
    session.submit({"do": "interview", "prisoner": "Ada", "deal": True})
    # Awake: the browser reconnects with the last id it saw and gets today at once.
    back = await open_stream(http, events, first["id"])
    page = Held()
    while page.id != latest(session):  # within the hub's pace (a wake may be due still)
        now = await next_event(back, timeout=2)
        page.take(now["event"], now["data"], now["id"])
    assert page.view is not None and game_of(page.view) == prisoner(session.state, "Ada")
    assert page.view["phase"] == "interviews"
    assert page.view["me"]["parole_tokens"] == 1
    # Nothing more until something happens; then that, once.
    with pytest.raises(TimeoutError):
        await next_event(back, timeout=0.3)
    session.submit({"do": "interview", "prisoner": "Ben", "deal": False})
    assert (await next_event(back))["id"] == latest(session)
    back.close()
    # A reload mid-phase: the page and the JSON show the same truth.
    page = await (await http.get(f"{server.base_url}/p/{ada.token}")).text()
    assert "Interviews" in page
    view = await (await http.get(f"{server.base_url}/api/p/{ada.token}")).json()
    assert game_of(view) == prisoner(session.state, "Ada")


@pytest.mark.parametrize("garbage", ["abc", "-5", "99999999", "", "1.5", "\u0661\u0662"])
async def test_any_last_event_id_gets_the_current_view(
    session: Session, server: PhoneServer, http: aiohttp.ClientSession, garbage: str
) -> None:
    session.submit({"do": "choose", "prisoner": "Ben", "choice": "work"})
    wendy = seat(session, "Wendy")
    r = await open_stream(http, f"{server.base_url}/api/p/{wendy.token}/events", garbage)
    event = await next_event(r, timeout=2)
    assert event["id"] == latest(session)
    assert game_of(event["data"]["view"]) == warden(session.state)
    r.close()


async def test_two_phones_on_one_seat_both_see_the_truth(
    session: Session, server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    cy = seat(session, "Cy")
    base = f"{server.base_url}/api/p/{cy.token}"
    async with aiohttp.ClientSession() as other:  # a second phone: its own connections
        one = await open_stream(http, f"{base}/events")
        two = await open_stream(other, f"{base}/events")
        await next_event(one)
        await next_event(two)
        r = await http.post(f"{base}/choice", json={"choice": "work"})
        assert r.status == 200
        seen = [await next_event(one), await next_event(two)]
        assert [e["data"]["view"]["me"]["choice"] for e in seen] == ["work", "work"]
        r = await other.post(f"{base}/choice", json={"choice": "rest"})
        assert r.status == 200
        seen = [await next_event(one), await next_event(two)]
        assert [game_of(e["data"]["view"]) for e in seen] == [prisoner(session.state, "Cy")] * 2
        assert seen[0]["data"]["view"]["me"]["choice"] == "rest"
        assert seen[0]["data"]["html"] == seen[1]["data"]["html"]
        assert "Saved: you REST tonight." in seen[0]["data"]["html"]
        for client in (http, other):
            view = await (await client.get(base)).json()
            assert view["me"]["choice"] == "rest"
        one.close()
        two.close()
    assert session.state.day.choices == {"Cy": "rest"}


async def test_a_reissued_seat_closes_its_old_pages(
    session: Session, server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    old = seat(session, "Dee")
    base = server.base_url
    lost_phone = await open_stream(http, f"{base}/api/p/{old.token}/events")
    second = await open_stream(http, f"{base}/api/p/{old.token}/events")
    neighbour = await open_stream(http, f"{base}/api/p/{seat(session, 'Ada').token}/events")
    board = await open_stream(http, f"{base}/api/board/events")
    for stream in (lost_phone, second, neighbour, board):
        await next_event(stream)
    fresh = reissue(session, "Dee")
    assert (await next_event(lost_phone))["event"] == "gone"
    assert (await next_event(second))["event"] == "gone"
    # the others go on, told nothing new: the neighbour's page as it was (an empty patch)
    assert await next_event(neighbour) == {"event": "patch", "id": latest(session), "data": {}}
    assert (await next_event(board))["data"]["view"]["submitted_count"] == 0
    for method, path in [
        ("GET", f"/api/p/{old.token}"),
        ("GET", f"/p/{old.token}"),
        ("GET", f"/api/p/{old.token}/events"),
        ("POST", f"/api/p/{old.token}/choice"),
    ]:
        r = await http.request(method, base + path, json={"choice": "work"})
        assert r.status == 404, path
    r = await http.post(f"{base}/api/p/{fresh.token}/choice", json={"choice": "work"})
    assert r.status == 200
    # a choice changes one line of the neighbour's page: sent alone
    counted = await next_event(neighbour)
    assert counted["event"] == "patch"
    assert counted["data"] == {"progress": "1 of 4 prisoners has chosen tonight."}
    assert game_of((await next_event(board))["data"]["view"]) == table(session.state)
    assert session.state.day.choices == {"Dee": "work"}
    for stream in (lost_phone, second, neighbour, board):
        stream.close()


async def test_a_page_back_after_patches_is_sent_its_whole_part_first(
    session: Session, server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    """A stream sends a patch only on top of a whole part it sent itself: a phone that
    reconnects with the id of a patch gets nothing until the next change, and then its whole
    part (what its page holds may be older than what the new stream would patch)."""
    ada = seat(session, "Ada")
    events = f"{server.base_url}/api/p/{ada.token}/events"
    r = await open_stream(http, events)
    assert (await next_event(r))["event"] == "view"
    session.submit({"do": "choose", "prisoner": "Ben", "choice": "work"})
    patch = await next_event(r)
    assert patch["event"] == "patch" and patch["id"] == latest(session)
    assert patch["data"] == {"progress": "1 of 4 prisoners has chosen tonight."}
    r.close()
    back = await open_stream(http, events, patch["id"])
    with pytest.raises(TimeoutError):  # its page is as of that id: nothing to send
        await next_event(back, timeout=0.3)
    session.submit({"do": "choose", "prisoner": "Cy", "choice": "rest"})
    whole = await next_event(back)
    assert whole["event"] == "view" and whole["id"] == latest(session)
    assert "2 of 4 prisoners have chosen tonight." in whole["data"]["html"]
    session.submit({"do": "choose", "prisoner": "Dee", "choice": "rest"})
    assert (await next_event(back))["event"] == "patch"  # on top of the whole part it sent
    back.close()


async def test_a_phone_coming_is_news_for_the_board_and_nothing_for_a_prisoner(
    session: Session, server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    """A phone coming or going changes the board's count of phones, and nothing on a
    prisoner's page: its stream sends nothing, not even an empty patch."""
    base = server.base_url
    ada = await open_stream(http, f"{base}/api/p/{seat(session, 'Ada').token}/events")
    board = await open_stream(http, f"{base}/api/board/events")
    assert (await next_event(ada))["event"] == "view"
    first = await next_event(board)
    while first["data"]["view"]["phones"]["connected"] != 1:  # Ada's phone, counted
        first = await next_event(board)
    ben = await open_stream(http, f"{base}/api/p/{seat(session, 'Ben').token}/events")
    counted = await next_event(board)
    assert counted["data"]["view"]["phones"]["connected"] == 2
    with pytest.raises(TimeoutError):
        await next_event(ada, timeout=0.3)
    for stream in (ada, board, ben):
        stream.close()


async def test_phones_that_vanish_leave_no_stream_behind(
    session: Session, server: PhoneServer
) -> None:
    """Leak check: 120 phones open their stream and vanish without a word; one change of the
    game later, every one of their handlers has ended and the loop is back to where it was."""
    tokens = [s.token for s in seats_of(session)]

    def handlers() -> int:
        return sum(1 for t in asyncio.all_tasks() if t is not asyncio.current_task())

    baseline = handlers()
    for round_ in range(3):
        clients = [aiohttp.ClientSession() for _ in range(40)]
        streams = [
            await open_stream(c, f"{server.base_url}/api/p/{tokens[i % len(tokens)]}/events")
            for i, c in enumerate(clients)
        ]
        for stream in streams:
            await next_event(stream)
        assert handlers() >= baseline + 40
        for c in clients:  # gone: the connections drop without a goodbye
            await c.close()
        # A change every phone sees (one more prisoner has chosen) wakes every stream.
        session.submit({"do": "choose", "prisoner": ROSTER[round_], "choice": "rest"})
        for _ in range(100):
            await asyncio.sleep(0.02)
            if handlers() <= baseline:
                break
        assert handlers() <= baseline, f"round {round_}: {handlers() - baseline} handlers left"


async def test_the_heartbeat_goes_on_while_changes_flow_and_finds_a_vanished_phone(
    session: Session, server: PhoneServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The heartbeat comes at its pace whatever else is sent (one timer per beat, not a
    timeout per wait), and a phone that vanished while nothing changes is found by it: its
    handler ends without any change of the game."""
    monkeypatch.setattr(fanout, "HEARTBEAT_SECONDS", 0.2)
    ada = seat(session, "Ada")

    def handlers() -> int:
        return sum(1 for t in asyncio.all_tasks() if t is not asyncio.current_task())

    baseline = handlers()
    client = aiohttp.ClientSession()
    stream = await open_stream(client, f"{server.base_url}/api/p/{ada.token}/events")
    beats = views = 0
    choice = "work"

    async def read() -> None:
        nonlocal beats, views
        async for raw in stream.content:
            line = raw.decode().rstrip("\n")
            if line == "event: beat":
                beats += 1
            elif line.startswith("event: "):
                views += 1

    reading = asyncio.create_task(read())
    for _ in range(200):  # a change every 0.02 s: more often than the beats
        choice = "rest" if choice == "work" else "work"
        session.submit({"do": "choose", "prisoner": "Ben", "choice": choice})
        await asyncio.sleep(0.02)
        if beats >= 3:
            break
    reading.cancel()
    assert beats >= 3 and views >= 3, (beats, views)
    await client.close()  # gone without a word, and nothing changes from now on
    for _ in range(150):
        await asyncio.sleep(0.02)
        if handlers() <= baseline:
            break
    assert handlers() <= baseline, f"{handlers() - baseline} handlers left"
