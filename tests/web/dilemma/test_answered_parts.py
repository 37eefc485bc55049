"""A choice is answered with the chooser's page, made once: the page that posted shows it at
once, its own stream then gets only the counts, and every other page of the seat still gets
the whole page; a crowd's feed keeps what the room holds out of the collector's full passes."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from companion.language import language
from companion.rules.dilemma.commands import Choose, Join
from companion.session.session import Session
from companion.web.common.context import Limiter, Presence
from companion.web.dilemma.feed import CROWD_STREAMS
from companion.web.dilemma.server import NightContext, tab_of
from tests.dilemma_helpers import scenario
from tests.web.dilemma.test_server import join, next_event


async def next_view(response: Any) -> dict[str, Any]:
    """The next whole page (a count's patch still being pushed is passed over)."""
    while True:
        kind, data = await next_event(response)
        if kind == "view":
            return data


def pressed(html: str, choice: str) -> bool:
    button = html.split(f'data-choice="{choice}"', 1)[1].split(">", 1)[0]
    return 'aria-pressed="true"' in button


async def test_a_choice_is_answered_with_the_page_and_its_tab_then_gets_the_counts(
    client: TestClient, session: Session
) -> None:
    ann = await join(client, "Ann")
    bob = await join(client, "Bob")
    for name in ("Cy", "Di"):
        await join(client, name)
    posting = await client.get(f"/api/d/{ann}/events?tab=abc123")
    other = await client.get(f"/api/d/{ann}/events?tab=zz9")
    for stream in (posting, other):  # the lobby
        await next_view(stream)
    session.submit({"do": "start_round", "seed": 1})
    for stream in (posting, other):
        assert "You face" in (await next_view(stream))["html"]
    r = await client.post(
        f"/api/d/{ann}/choice", json={"choice": "betray"}, headers={"X-Tab": "abc123"}
    )
    answer = await r.json()
    assert r.status == 200 and answer["choice"] == "betray"
    assert pressed(answer["html"], "betray") and not pressed(answer["html"], "silent")
    version = int(r.headers["X-View-Version"])
    part = await client.get(f"/d/{ann}/part")
    assert int(part.headers["X-View-Version"]) == version
    assert await part.text() == answer["html"]  # the page as the part shows it, made once
    kind, data = await next_event(other)  # the seat's other page: the whole page, chosen
    assert kind == "view" and pressed(data["html"], "betray")
    kind, data = await next_event(posting)  # the page that posted has it, the counts too
    assert (kind, data) == ("patch", {})  # moved on to the answer's version, nothing sent again
    r = await client.post(f"/api/d/{bob}/choice", json={"choice": "silent"})
    assert r.status == 200
    kind, data = await next_event(posting)  # another's choice: the counts' line alone
    assert (kind, data) == ("patch", {"progress": "2 of 4 have chosen."})
    posting.close()
    other.close()


async def test_a_choice_that_reveals_the_round_reaches_the_posting_page_s_stream_whole(
    client: TestClient, session: Session
) -> None:
    # A reveal changes every page: each stream gets it whole, the one of the page that posted
    # the last choice too (its answer may be lost on the way back; the stream still tells it).
    ann = await join(client, "Ann")
    bob = await join(client, "Bob")
    stream = await client.get(f"/api/d/{ann}/events?tab=abc123")
    await next_view(stream)
    session.submit({"do": "start_round", "seed": 1})
    assert "You face" in (await next_view(stream))["html"]
    assert (await client.post(f"/api/d/{bob}/choice", json={"choice": "silent"})).status == 200
    r = await client.post(
        f"/api/d/{ann}/choice", json={"choice": "betray"}, headers={"X-Tab": "abc123"}
    )
    assert r.status == 200 and session.state.open_round() is None  # revealed
    version = int(r.headers["X-View-Version"])
    while True:  # (the counts of Bob's choice may come first)
        kind, data = await next_event(stream)
        if kind == "view" or data:
            break
    part = await client.get(f"/d/{ann}/part")
    assert kind == "view" and data["html"] == await part.text()
    assert int(part.headers["X-View-Version"]) == version
    stream.close()


async def test_a_post_from_a_page_that_names_no_tab_still_reaches_its_stream(
    client: TestClient, session: Session
) -> None:
    ann = await join(client, "Ann")
    await join(client, "Bob")
    stream = await client.get(f"/api/d/{ann}/events")
    await next_view(stream)
    session.submit({"do": "start_round", "seed": 1})
    assert "You face" in (await next_view(stream))["html"]
    r = await client.post(f"/api/d/{ann}/choice", json={"choice": "silent"},
                          headers={"X-Tab": "<script>"})  # not a tab: taken as none
    assert r.status == 200
    kind, data = await next_event(stream)
    assert kind == "view" and pressed(data["html"], "silent")
    stream.close()


def test_a_tab_is_a_few_letters_and_digits() -> None:
    assert tab_of("k3j9x0") == "k3j9x0"
    assert [tab_of(t) for t in (None, "", "A", "x" * 17, "a b", "é")] == [None] * 6


async def test_a_crowds_feed_settles_the_room_out_of_the_collectors_passes(
    tmp_path: Path,
) -> None:
    s = Session.create(tmp_path / "hall.sqlite", "dilemma",
                       {"rules": scenario(rounds=2, max_players=1000)})
    night = NightContext(s, Limiter(), Presence(s), "http://127.0.0.1:1")
    feed = night.start_feed()
    en = language()
    frozen = gc.get_freeze_count()
    try:
        for i in range(CROWD_STREAMS + 1):
            s.submit(Join(pid=f"p{i}", name=f"Student {i:04d}"), by="phone:join")
            feed.fanout.open(f"p{i}", en, None, None)
        feed.fanout.push()
        assert feed.collector.settled  # a crowd joining: what it holds, before the draw
        joined = gc.get_freeze_count()
        assert joined > frozen
        s.submit({"do": "start_round", "seed": 3})
        feed.fanout.push()
        feed.finish()
        assert gc.get_freeze_count() > joined  # and the round drawn
        s.submit(Choose(pid="p0", choice="silent"), by="phone")
    finally:
        feed.close()
        s.close()
    assert not feed.collector.settled and gc.get_freeze_count() == 0


async def test_a_small_rooms_feed_leaves_the_collector_alone(tmp_path: Path) -> None:
    s = Session.create(tmp_path / "room.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    night = NightContext(s, Limiter(), Presence(s), "http://127.0.0.1:1")
    feed = night.start_feed()
    try:
        for i in range(6):
            s.submit(Join(pid=f"p{i}", name=f"Student {i}"), by="phone:join")
            feed.fanout.open(f"p{i}", language(), None, None)
        s.submit({"do": "start_round", "seed": 3})
        feed.fanout.push()
        assert not feed.collector.settled
    finally:
        feed.close()
        s.close()
