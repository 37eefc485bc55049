"""The phone server under one client: how long a choice takes to be acknowledged (it is in the
session file by then) and how soon the board's event stream hears of it.

Run: .venv/bin/python benchmarks/phones.py [ROUNDS]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from companion.commands.sessions import create_prison_session
from companion.session.seats import seats_of
from companion.web.server import start_phone_server


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000


async def main(rounds: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    roster = ["Ada", "Ben", "Cy", "Dee"]
    session = create_prison_session(folder, "bench", "classic", "Wendy", roster)
    server = await start_phone_server(session, "127.0.0.1", 0)
    ada = next(s for s in seats_of(session) if s.name == "Ada")
    url = f"{server.base_url}/api/p/{ada.token}/choice"
    posts: list[float] = []
    heard: list[float] = []
    try:
        async with aiohttp.ClientSession() as http:
            stream = await http.get(f"{server.base_url}/api/board/events")
            while not (await stream.content.readline()).startswith(b"data:"):
                pass
            for i in range(rounds):
                choice = "work" if i % 2 else "rest"
                start = time.perf_counter()
                async with http.post(url, json={"choice": choice}) as r:
                    assert r.status == 200
                    await r.read()
                posts.append(time.perf_counter() - start)
                while not (await stream.content.readline()).startswith(b"data:"):
                    pass
                heard.append(time.perf_counter() - start)
            stream.close()
    finally:
        await server.stop()
        session.close()
    print(f"{rounds} choices, one phone, SQLite synchronous=FULL:")
    print(
        f"  POST acknowledged: median {statistics.median(posts) * 1000:.2f} ms, "
        f"p99 {pct(posts, 0.99):.2f} ms"
    )
    print(
        f"  board event heard: median {statistics.median(heard) * 1000:.2f} ms, "
        f"p99 {pct(heard, 0.99):.2f} ms (from the start of the POST)"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 500))
