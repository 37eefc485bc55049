"""A crowd's change of every page is made a slice of phones at a time, the loop left to the
requests between slices: every phone still gets its page, each slice as of its own turn, and a
newer change of every page makes them all again."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from companion.language import language
from companion.rules.dilemma.commands import Join
from companion.session.session import Session
from companion.web.common.context import Limiter, Presence
from companion.web.common.outbox import Outbox
from companion.web.dilemma.feed import CROWD_STREAMS, SLICE, Feed
from companion.web.dilemma.server import NightContext
from tests.dilemma_helpers import scenario

PLAYERS = CROWD_STREAMS + 2 * SLICE + 7  # a crowd, in four slices


def crowd(folder: Path) -> tuple[Session, Feed, dict[str, Outbox[str | None]]]:
    s = Session.create(folder / "hall.sqlite", "dilemma",
                       {"rules": scenario(rounds=3, max_players=1000)})
    feed = NightContext(s, Limiter(), Presence(s), "http://127.0.0.1:1").start_feed()
    boxes = {}
    for i in range(PLAYERS):
        pid = f"p{i:03d}"
        s.submit(Join(pid=pid, name=f"Student {i:03d}"), by="phone:join")
        boxes[pid] = feed.fanout.open(pid, language(), None, None)
    feed.fanout.push()
    for box in boxes.values():
        box.take()
    return s, feed, boxes


def rounds_shown(boxes: dict[str, Outbox[str | None]]) -> dict[str, str]:
    """What each stream got: the round its page shows ("" when it got nothing)."""
    shown = {}
    for pid, box in boxes.items():
        message = box.take().decode()
        shown[pid] = message.split("Round ", 1)[1].split(" ", 1)[0] if "Round " in message else ""
    return shown


async def test_a_round_start_reaches_every_phone_a_slice_at_a_time(tmp_path: Path) -> None:
    s, feed, boxes = crowd(tmp_path)
    try:
        s.submit({"do": "start_round", "seed": 4})
        feed.fanout.push()
        ready = sum(box.ready.is_set() for box in boxes.values())
        assert ready == SLICE  # the first slice at once; the rest in later turns of the loop
        late = next(pid for pid, box in boxes.items() if not box.ready.is_set())
        s.submit({"do": "choose", "pid": late, "choice": "betray"})  # between two slices
        for _ in range(10):
            await asyncio.sleep(0)
        assert all(box.ready.is_set() for box in boxes.values())
        message = boxes.pop(late).take().decode()  # its slice came after its choice: shown
        latest = json.loads(message.split("data: ", 1)[1])["html"]
        assert 'data-choice="betray" aria-pressed="true"' in latest
        assert set(rounds_shown(boxes).values()) == {"1"}
    finally:
        feed.close()
        s.close()


async def test_a_newer_change_of_every_page_makes_them_all_again(tmp_path: Path) -> None:
    s, feed, boxes = crowd(tmp_path)
    try:
        s.submit({"do": "start_round", "seed": 4})
        feed.fanout.push()
        s.submit({"do": "close_round"})  # the game master closes it before the slices end
        s.submit({"do": "start_round", "seed": 5})
        feed.fanout.push()
        feed.finish()
        assert set(rounds_shown(boxes).values()) == {"2"}  # every phone: the newest round
    finally:
        feed.close()
        s.close()
