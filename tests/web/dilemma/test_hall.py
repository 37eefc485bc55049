"""The warm-up for a hall: an odd room plays the house player everywhere, a choice sends other
phones only a count that tells nothing of it, and the export agrees with the board."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from companion.rules.dilemma.results import COLUMNS, rows
from companion.session.session import Session
from tests.dilemma_helpers import scenario
from tests.web.dilemma.test_presence import pid, read_event
from tests.web.dilemma.test_server import choose, join

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
HOUSE = "House (Tit for Tat)"


@pytest.fixture
def session(tmp_path: Path):
    s = Session.create(tmp_path / "d.sqlite", "dilemma", {"rules": scenario(rounds=5)})
    yield s
    s.close()


async def test_five_players_nobody_sits_out_and_the_house_is_labelled_and_unranked(
    client: TestClient, session: Session
) -> None:
    tokens = {name: await join(client, name) for name in NAMES}
    for n in range(5):
        session.submit({"do": "start_round", "seed": n})
        r = session.state.current
        assert r.sitting_out == () and len(r.pairs) == 3  # five people and the house
        facing = session.state.name(r.partner("~house1"))
        page = await (await client.get(f"/d/{tokens[facing]}")).text()
        assert f'You face <strong id="facing">{HOUSE}</strong>: the house player' in page
        board = await (await client.get("/board")).text()
        assert "is the house player: it fills the empty seat" in board
        for i, name in enumerate(NAMES):
            await choose(client, tokens[name], "betray" if (i + n) % 2 else "silent")
        page = await (await client.get(f"/d/{tokens[facing]}")).text()
        assert f"{HOUSE} (the house player)" in page
        assert "Sat out" not in await (await client.get("/board")).text()
    assert session.state.phase == "over"
    view = await (await client.get("/api/board")).json()
    assert sorted(row["name"] for row in view["leaderboard"]) == NAMES  # the house unranked
    assert all(row["rank"] for row in view["leaderboard"])
    assert view["house"]["rounds"] == 5
    board = await (await client.get("/board")).text()
    assert "the house player: " in board and "not ranked" in board
    assert 'id="debrief"' in board and "Win-Stay-Lose-Shift" in board
    page = await (await client.get(f"/d/{tokens['Ann']}")).text()
    assert "not ranked" in page and 'id="debrief"' in page
    mine = page[page.index('class="me ') :]  # her own row of the leaderboard, marked
    assert mine.index("Ann") < mine.index("</tr>")
    table = rows(session.state)
    out = io.StringIO()
    csv.DictWriter(out, fieldnames=COLUMNS).writerows(table)
    assert {r["player"] for r in table if r["house"]} == {HOUSE}
    assert not [r for r in table if r["choice"] == "missed"]


async def test_a_choice_sends_the_others_a_count_that_tells_nothing_of_it(
    client: TestClient, session: Session
) -> None:
    tokens = {name: await join(client, name) for name in NAMES[:4]}
    session.submit({"do": "start_round", "seed": 1})
    await asyncio.sleep(0.3)  # the round's pages have gone out (to no stream yet)
    bob = await client.get(f"/api/d/{tokens['Bob']}/events")
    first = await read_event(bob)
    assert first["event"] == "view"
    seen = []
    for choice in ("betray", "silent"):  # Ann changes her mind: Bob's stream sees a count
        await choose(client, tokens["Ann"], choice)
        event = await read_event(bob)
        while event["event"] == "view" and "0 of 4 have chosen" in event["data"]["html"]:
            event = await read_event(bob)  # the round's page again, from before the choice
        assert event["event"] == "patch"  # not a new page
        # its id is the version it brings the page to: the log's row, nothing of the choice
        assert event["id"] == str(session.rows[-1].seq)
        seen.append(event["data"])
    # the count, then nothing (the count is the same): the same whatever Ann chose
    assert seen == [{"progress": "1 of 4 has chosen."}, {}]
    assert pid(session, "Ann") in session.state.current.choices
    bob.close()
