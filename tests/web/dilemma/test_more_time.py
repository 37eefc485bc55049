"""More time for the open round reaches the phones and the board at once: the game master's
``+`` (or the time given back after a crash) is a note in the log, and every page's countdown
follows it, on its stream and when fetched."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from aiohttp.test_utils import TestClient

from companion.rules.dilemma.room import ExtendTimer, StartTimer, more_time
from companion.session.session import Session
from tests.web.dilemma.test_server import join

LEFT = re.compile(r'class="clock"[^>]*data-left="([0-9.]+)"')


def left_on(html: str) -> float:
    """The seconds left that a page's countdown starts from."""
    found = LEFT.search(html)
    assert found is not None, html
    return float(found.group(1))


async def page_as_of(response: Any, session: Session) -> str:
    """The first whole page a stream sends that shows the log as it is now (a view event whose
    id, the log's version, is the latest row's; beats, patches and older pages skipped)."""
    version = session.rows[-1].seq
    event, data, seq = None, None, -1
    while True:
        line = (await response.content.readline()).decode()
        if line.startswith("event: "):
            event = line[7:].strip()
        elif line.startswith("id: "):
            seq = int(line[4:])
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "\n":
            if event == "view" and data is not None and "html" in data and seq >= version:
                return str(data["html"])
            event, data, seq = None, None, -1


async def test_the_phones_and_the_board_count_down_to_the_new_deadline(
    client: TestClient, session: Session
) -> None:
    ann = await join(client, "Ann")
    await join(client, "Bob")
    session.submit({"do": "start_round", "seed": 1})
    session.stage(StartTimer(1, 60, time.time() + 20))
    phone = await client.get(f"/api/d/{ann}/events")
    board = await client.get("/api/board/events")
    try:
        assert 0 < left_on(await page_as_of(phone, session)) <= 20
        assert 0 < left_on(await page_as_of(board, session)) <= 20
        timer = session.room.timer(1)
        session.stage(more_time(1, timer, 30, time.time()))  # the console's +
        assert 45 < left_on(await page_as_of(phone, session)) <= 50
        assert 45 < left_on(await page_as_of(board, session)) <= 50
        for path in (f"/d/{ann}/part", "/board/part", f"/d/{ann}"):
            assert 45 < left_on(await (await client.get(path)).text()) <= 50, path
    finally:
        phone.close()
        board.close()


async def test_a_round_whose_time_ran_out_counts_down_again_once_given_back(
    client: TestClient, session: Session
) -> None:
    ann = await join(client, "Ann")
    await join(client, "Bob")
    session.submit({"do": "start_round", "seed": 1})
    session.stage(StartTimer(1, 60, time.time() - 100))  # ran out while the console was closed
    assert left_on(await (await client.get(f"/d/{ann}/part")).text()) == 0
    session.stage(ExtendTimer(1, 25, time.time() + 25, "given back"))
    assert 20 < left_on(await (await client.get(f"/d/{ann}/part")).text()) <= 25
    assert 20 < left_on(await (await client.get("/board/part")).text()) <= 25
