"""True presence over real event streams: a phone is connected while its stream is open,
whatever the others do, and away soon after its stream closes.

It runs for about 75 s of real time: the heartbeat is what finds a closed stream."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import aiohttp
import pytest

from companion.session.prison.seats import seats_of
from companion.tui.common.presence import Presence, seat_seen
from companion.web.prison.server import start_phone_server
from tests.conftest import demo_session, free_port

PRISONERS = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"]


async def _follow(response: aiohttp.ClientResponse) -> None:
    """Read a stream as a browser does, until it closes."""
    with contextlib.suppress(aiohttp.ClientError, asyncio.CancelledError):
        async for _ in response.content:
            pass


@pytest.mark.slow  # about 75 s of real time
async def test_idle_phones_stay_connected_and_a_closed_one_is_away_within_20_s(
    tmp_path: Path,
) -> None:
    session = demo_session(tmp_path, prisoners=PRISONERS, scenario="balanced-6")
    presence: Presence = {}
    went_away: list[str] = []

    def listen(_session: object, change: object) -> None:
        seat = seat_seen(presence, getattr(change, "signal", None))
        if seat is not None and not presence[seat].connected:
            went_away.append(seat)

    session.subscribe(listen)
    server = await start_phone_server(session, "127.0.0.1", free_port())
    tokens = {s.name: s.token for s in seats_of(session) if s.role == "prisoner"}
    base = f"http://127.0.0.1:{server.port}"
    try:
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as phones,
            aiohttp.ClientSession() as chooser,
        ):
            streams = {
                name: await phones.get(f"{base}/api/p/{token}/events")
                for name, token in tokens.items()
            }
            readers = [asyncio.create_task(_follow(r)) for r in streams.values()]
            await asyncio.sleep(0.5)
            assert all(presence[name].connected for name in PRISONERS)

            busy = PRISONERS[-1]
            for turn in range(12):  # a change every 5 s for 60 s
                choice = "work" if turn % 2 else "rest"
                answer = await chooser.post(
                    f"{base}/api/p/{tokens[busy]}/choice", data=json.dumps({"choice": choice})
                )
                assert answer.status == 200
                await asyncio.sleep(5)
                assert all(presence[name].connected for name in PRISONERS), presence
            assert went_away == []

            gone = PRISONERS[0]
            streams[gone].close()  # the page is closed: nothing more is sent to it
            for _ in range(200):  # up to 20 s
                if not presence[gone].connected:
                    break
                await asyncio.sleep(0.1)
            assert not presence[gone].connected and went_away == [gone]
            assert all(presence[name].connected for name in PRISONERS[1:])
            for reader in readers:
                reader.cancel()
    finally:
        await server.stop()
        session.close()
