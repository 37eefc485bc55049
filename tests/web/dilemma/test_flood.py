"""One device cannot fill the room: joins per device address are limited (a few a minute, a
few present at once), closed doors refuse every join, and the address each player joined from is
kept for the game master only: in the session file, never on a phone, the board or the log.

The phones are real client sockets bound to loopback source addresses (127.1.0.9 floods,
127.1.0.10 is a real player), so the server sees them as two devices."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from companion.cli.main import main
from companion.session.dilemma.seats import META_KEY, origins
from companion.session.session import Session
from companion.web.common.context import Limiter
from companion.web.dilemma.joins import (
    JOINS_PER_MINUTE,
    LIFTED_KEY,
    PRESENT_PER_ADDRESS,
    JoinLimiter,
    per_device,
)
from companion.web.dilemma.server import build_dilemma_app
from tests.dilemma_helpers import scenario
from tests.web import forms

FLOOD, REAL = "127.1.0.9", "127.1.0.10"
TOO_MANY = (
    "Too many players joined from this device just now; wait a minute, or ask the game master."
)
CLOSED = "The game master has closed the doors; nobody can join now."


class Clock:
    """The join limiter's clock, moved by the test (no test waits for wall time)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def session(tmp_path: Path):
    s = Session.create(tmp_path / "flood.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    yield s
    s.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def server(session: Session, clock: Clock) -> AsyncIterator[TestServer]:
    app = build_dilemma_app(
        session,
        base="http://192.0.2.7:8765",
        limiter=Limiter(10**6, 60.0),
        joins=JoinLimiter(clock=clock),
    )
    async with TestServer(app, host="127.0.0.1") as running:
        yield running


@asynccontextmanager
async def device(address: str) -> AsyncIterator[aiohttp.ClientSession]:
    """A phone (or a script) whose requests come from ``address``; it keeps no cookies."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0))
    async with aiohttp.ClientSession(
        connector=connector, cookie_jar=aiohttp.DummyCookieJar()
    ) as http:
        yield http


async def post_join(http: aiohttp.ClientSession, server: TestServer, name: str) -> tuple[int, str]:
    url = server.make_url("/join-room")
    async with await forms.post_join(http, url, {"name": name}, allow_redirects=False) as r:
        return r.status, r.headers.get("Location") or await r.text()


async def test_one_address_posting_300_joins_gets_no_more_than_the_limit(
    server: TestServer, session: Session, clock: Clock
) -> None:
    async with device(FLOOD) as flood:
        answers = [await post_join(flood, server, f"Bot {i:03}") for i in range(300)]
    statuses = [status for status, _ in answers]
    assert statuses.count(303) == JOINS_PER_MINUTE and statuses.count(429) == 300 - JOINS_PER_MINUTE
    refused = next(text for status, text in answers if status == 429)
    assert TOO_MANY in refused and 'value="Bot ' in refused  # said on the join page, name kept
    # No seat, no log row for a refused join: the file holds the limit's joins only.
    assert len(session.settings[META_KEY]) == JOINS_PER_MINUTE
    joins = [row for row in session.rows if row.kind == "command"]
    assert len(joins) == JOINS_PER_MINUTE == len(session.state.players)
    async with device(REAL) as phone:  # a real player from another device joins at once
        status, location = await post_join(phone, server, "Ada")
    assert status == 303 and re.fullmatch(r"/d/[A-Za-z0-9_-]{24}", location)
    assert [p.name for p in session.state.players][-1] == "Ada"
    # A minute later the window has moved on; the flooder still holds no more than the cap
    # of players present from one address, however long it keeps trying.
    for _minute in range(4):
        clock.now += 61
        async with device(FLOOD) as flood:
            for i in range(20):
                await post_join(flood, server, f"Late {_minute} {i}")
    present = session.state.present()
    flooded = [pid for pid, o in origins(session).items() if o.address == FLOOD and pid in present]
    assert len(flooded) == PRESENT_PER_ADDRESS
    # Once the game master removes some of them, that address may join again (a household
    # whose players left), within the same limits.
    session.submit({"do": "remove_many", "pids": flooded[:2]})
    clock.now += 61
    async with device(FLOOD) as flood:
        assert (await post_join(flood, server, "Back 1"))[0] == 303
        assert (await post_join(flood, server, "Back 2"))[0] == 303
        assert (await post_join(flood, server, "Back 3"))[0] == 429


async def test_each_seat_keeps_its_address_and_time_through_a_resume(
    server: TestServer, session: Session, tmp_path: Path
) -> None:
    async with device(FLOOD) as flood:
        await post_join(flood, server, "Bot 1")
    async with device(REAL) as phone:
        await post_join(phone, server, "Ada")
    seats = session.settings[META_KEY]
    assert [seat["address"] for seat in seats] == [FLOOD, REAL]
    assert all(isinstance(seat["joined"], float) for seat in seats)
    log = json.dumps([row.body for row in session.rows if row.kind != "setting"])
    assert FLOOD not in log and REAL not in log  # in the session's settings, not its history
    again = Session.open(session.store.path)
    try:
        by_name = {p.name: p.pid for p in again.state.players}
        assert origins(again)[by_name["Ada"]].address == REAL
        assert origins(again)[by_name["Bot 1"]].address == FLOOD
    finally:
        again.close()


async def test_closed_doors_refuse_every_join_and_the_pages_say_so(
    server: TestServer, session: Session
) -> None:
    async with device(REAL) as phone:
        await post_join(phone, server, "Ada")
        session.submit({"do": "close_doors"})
        async with phone.get(server.make_url("/join-room")) as r:
            page = await r.text()
        assert r.status == 200 and CLOSED in page and "<form" not in page  # before anyone types
        status, page = await post_join(phone, server, "Ben")
        assert status == 409 and CLOSED in page and "<form" not in page
        assert len(session.settings[META_KEY]) == 1 and len(session.state.players) == 1
        for path in ("/board", "/board/part"):
            async with phone.get(server.make_url(path)) as r:
                assert 'id="doors"' in (text := await r.text()) and CLOSED in text
        async with phone.get(server.make_url("/api/board")) as r:
            assert (await r.json())["doors_closed"] is True
        session.submit({"do": "open_doors"})
        async with phone.get(server.make_url("/join-room")) as r:
            assert CLOSED not in (page := await r.text()) and "<form" in page
        async with phone.get(server.make_url("/board/part")) as r:
            assert 'id="doors"' not in await r.text()
        assert (await post_join(phone, server, "Ben"))[0] == 303
    assert [p.name for p in session.state.players] == ["Ada", "Ben"]


async def test_no_phone_page_board_or_api_shows_an_address(
    server: TestServer, session: Session
) -> None:
    async with device(FLOOD) as flood:
        _, location = await post_join(flood, server, "Bot 1")
    async with device(REAL) as phone:
        _, mine = await post_join(phone, server, "Ada")
        session.submit({"do": "start_round", "seed": 3})
        token = mine.removeprefix("/d/")
        paths = ["/join-room", "/board", "/board/part", "/api/board", location]
        paths += [f"/d/{token}", f"/d/{token}/part", f"/api/d/{token}"]
        for path in paths:
            async with phone.get(server.make_url(path)) as r:
                text = await r.text()
            assert r.status == 200, path
            assert FLOOD not in text and REAL not in text and "127.1." not in text, path
        for path in ("/api/board/events", f"/api/d/{token}/events"):  # the first live message
            async with phone.get(server.make_url(path)) as r:
                first = await r.content.readuntil(b"\n\n")
            assert first and b"127.1." not in first, path


def test_per_device_sets_the_limit_or_turns_it_off(capsys: pytest.CaptureFixture[str]) -> None:
    default, household, off = per_device(None), per_device(3), per_device(0)
    assert (default.per_window, default.present) == (JOINS_PER_MINUTE, PRESENT_PER_ADDRESS)
    assert (household.per_window, household.present) == (3, 3)
    assert per_device(40).per_window == JOINS_PER_MINUTE and per_device(40).present == 40
    for _ in range(1000):
        off.tried(FLOOD)
    assert off.allows(FLOOD, 1000)
    assert main(["dilemma", "other", "--per-device", "-1"]) == 2
    assert "--per-device -1 is out of range" in capsys.readouterr().err


def test_the_window_slides_without_waiting() -> None:
    clock = Clock()
    limiter = JoinLimiter(per_window=2, present=5, window=60.0, clock=clock)
    limiter.tried(FLOOD)
    clock.now += 30
    limiter.tried(FLOOD)
    assert not limiter.allows(FLOOD, 2) and limiter.allows(REAL, 0)
    clock.now += 31  # the first join has left the window, the second not yet
    assert limiter.allows(FLOOD, 2)
    limiter.tried(FLOOD)
    assert not limiter.allows(FLOOD, 3)
    assert not JoinLimiter(per_window=99, present=5).allows(FLOOD, 5)  # the cap on present


async def test_joins_refused_while_the_room_is_full_count_toward_the_addresss_budget(
    tmp_path: Path, clock: Clock
) -> None:
    session = Session.create(
        tmp_path / "full.sqlite", "dilemma", {"rules": scenario(rounds=2, max_players=3)}
    )
    app = build_dilemma_app(session, limiter=Limiter(10**6, 60.0), joins=JoinLimiter(clock=clock))
    try:
        async with TestServer(app, host="127.0.0.1") as server, device(FLOOD) as flood:
            statuses = [(await post_join(flood, server, f"Bot {i}"))[0] for i in range(8)]
            assert statuses == [303] * 3 + [409] * 3 + [429] * 2  # full, then over its budget
            session.submit({"do": "remove_many", "pids": [p.pid for p in session.state.players]})
            assert (await post_join(flood, server, "Bot again"))[0] == 429  # no refill at once
            async with device(REAL) as phone:
                assert (await post_join(phone, server, "Ada"))[0] == 303
            clock.now += 61
            assert (await post_join(flood, server, "Bot later"))[0] == 303
    finally:
        session.close()


async def test_the_game_master_lifts_the_limit_for_a_proxy_where_every_phone_shares_one_address(
    server: TestServer, session: Session
) -> None:
    session.set(LIFTED_KEY, "lifted")  # as the console sets it
    async with device(FLOOD) as proxy:
        statuses = [(await post_join(proxy, server, f"Guest {i}"))[0] for i in range(20)]
        assert statuses == [303] * 20
        session.set(LIFTED_KEY, None)  # the limit again
        assert (await post_join(proxy, server, "Guest 21"))[0] == 429
