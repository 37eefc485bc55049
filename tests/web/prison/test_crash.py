"""Kill -9 the phone server again and again while phones submit, then check that nothing a
phone saw acknowledged is missing and that the history is intact.

The real server runs as ``python -m companion serve`` in a subprocess on 127.0.0.1. Eight
prisoner phones flip their choice as fast as they can, the warden's phone deals and searches
when it may, and the game master moves the game on while the server is down (through the
session file, as the console would). The server is SIGKILLed at seeded random moments (at least
20 times); each phone that loses its answer reloads its own view once the server is back and
goes on from what it shows.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from companion.rules.prison.views import table
from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import Seat, seats_of
from companion.session.session import Session
from tests.conftest import free_port
from tests.stage_helpers import call_in, held_reveal, room_state, stage_of, step_reveal

PRISONERS = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
KILLS = 22
SEED = 20261129
LOST = (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError)


@dataclass
class Phone:
    seat: Seat
    acked: list[tuple[Any, ...]] = field(default_factory=list)  # what the phone saw saved
    unsure: int = 0  # requests whose answer was lost with the server
    refused: int = 0


class Server:
    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.process: asyncio.subprocess.Process | None = None
        self.up = asyncio.Event()
        self.starts = 0

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "companion", "--data-dir", str(self.folder), "serve", "night",
            "--host", "127.0.0.1", "--port", str(self.port),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        assert self.process.stdout is not None
        while True:
            line = await asyncio.wait_for(self.process.stdout.readline(), 30)
            assert line, (await self.process.stderr.read()).decode()  # type: ignore[union-attr]
            if line.startswith(b"Serving phones"):
                break
        self.starts += 1
        self.up.set()

    async def kill(self) -> None:
        assert self.process is not None
        self.up.clear()
        self.process.kill()  # SIGKILL: no clean-up of any kind
        await self.process.wait()

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()


async def back(http: aiohttp.ClientSession, server: Server, url: str) -> dict[str, Any]:
    """Wait for the server, then reload this phone's view (what a phone does on reconnect)."""
    while True:
        await server.up.wait()
        try:
            async with http.get(url) as r:
                if r.status == 200:
                    return dict(await r.json())
        except LOST:
            pass
        await asyncio.sleep(0.02)


async def prisoner_phone(
    http: aiohttp.ClientSession, server: Server, base: str, phone: Phone, rng: random.Random,
    done: asyncio.Event,
) -> None:
    url = f"{base}/api/p/{phone.seat.token}"
    view = await back(http, server, url)
    while not done.is_set():
        me = view["me"]
        if view["phase"] != "planning" or me["status"] != "active":
            await asyncio.sleep(0.05)
            view = await back(http, server, url)
            continue
        choice = "rest" if me["choice"] == "work" else "work"
        try:
            async with http.post(f"{url}/choice", json={"choice": choice}) as r:
                body = await r.json()
                if r.status == 200:
                    phone.acked.append((body["view"]["day"], choice))
                    view = body["view"]
                else:
                    phone.refused += 1
                    view = await back(http, server, url)
        except LOST:
            phone.unsure += 1
            view = await back(http, server, url)
        await asyncio.sleep(rng.uniform(0, 0.02))


async def warden_phone(
    http: aiohttp.ClientSession, server: Server, base: str, phone: Phone, rng: random.Random,
    done: asyncio.Event,
) -> None:
    url = f"{base}/api/p/{phone.seat.token}"
    while not done.is_set():
        view = await back(http, server, url)
        today, day = view["today"], view["day"]
        active = [p["name"] for p in view["prisoners"] if p["status"] == "active"]
        action: tuple[str, str] | None = None
        if view["phase"] == "interviews" and view["deals_left_today"] and active:
            dealt = {d["prisoner"] for d in view["deal_history"] if d["day"] == day}
            if not dealt:
                action = ("deal", rng.choice(active))
        if action is None and view["phase"] in ("interviews", "search") and not today["searches"]:
            action = ("search", rng.choice(active))
        if action is None:
            await asyncio.sleep(0.05)
            continue
        try:
            async with http.post(f"{url}/{action[0]}", json={"prisoner": action[1]}) as r:
                await r.read()
                # a search sent again while its reveal is held (the room's view does not show
                # it yet) is acknowledged again without being recorded again
                if r.status == 200 and (day, *action) not in phone.acked:
                    phone.acked.append((day, *action))
                else:
                    phone.refused += 1
        except LOST:
            phone.unsure += 1
        await asyncio.sleep(rng.uniform(0, 0.05))


def game_master_step(path: Path, step: int) -> None:
    """What the game master does at the console between two phases (server down)."""
    session = Session.open(path)
    try:
        phase = session.state.phase
        if held_reveal(session) is not None:  # the room is shown the warden's search
            step_reveal(session, to_end=True)
        elif phase == "planning" and step % 2 == 0:
            session.submit({"do": "close_planning"})
        elif phase == "interviews" and stage_of(session).interview is None:
            active = session.state.active()
            call_in(session, active[step % len(active)], 600)  # the warden may deal with them
        elif phase == "accusations":
            session.submit({"do": "end_day"})
    finally:
        session.close()


def logged(session: Session) -> tuple[dict[str, list[tuple[int, str]]], list[tuple[Any, ...]]]:
    """From the log: each phone's choices (day, choice) and the warden's acts, in order."""
    choices: dict[str, list[tuple[int, str]]] = {n: [] for n in PRISONERS}
    warden_acts: list[tuple[Any, ...]] = []
    day = 1
    undone = {r.body["reverts"] for r in session.rows if r.kind == "undo"}
    for row in session.rows:
        if row.kind != "command" or row.body["hseq"] in undone:
            continue
        command = row.body["command"]
        if command["do"] == "end_day":
            day += 1
        elif command["do"] == "choose" and row.body["by"] == f"phone:{command['prisoner']}":
            choices[command["prisoner"]].append((day, command["choice"]))
        elif command["do"] in ("interview", "search") and row.body["by"].startswith("phone:"):
            kind = "deal" if command["do"] == "interview" else "search"
            warden_acts.append((day, kind, command["prisoner"]))
    return choices, warden_acts


def game_of(view: dict[str, Any]) -> dict[str, Any]:
    """A served view without the room's stage, phones count and the board's epilogue: the
    rules' view."""
    return {k: v for k, v in view.items() if k not in ("stage", "phones", "epilogue", "taken_back")}


def is_subsequence(small: list[Any], big: list[Any]) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


@pytest.mark.slow  # twenty kills and restarts of a real server
async def test_sigkill_during_submissions_loses_nothing_acknowledged(tmp_path: Path) -> None:
    session = create_prison_session(
        tmp_path, "night", "classic", "Wendy", PRISONERS,
        rules_overrides={
            "min_prisoners": 4, "max_prisoners": 8, "nights_to_escape": 200,
            "parole_tokens_to_win": 50,
        },
    )
    seats = seats_of(session)
    path = session.store.path
    session.close()
    rng = random.Random(SEED)
    server = Server(tmp_path, free_port())
    base = f"http://127.0.0.1:{server.port}"
    phones = {s.name: Phone(s) for s in seats}
    done = asyncio.Event()
    timeout = aiohttp.ClientTimeout(total=5)
    await server.start()
    async with aiohttp.ClientSession(timeout=timeout) as http:
        tasks = [
            asyncio.create_task(
                (warden_phone if p.seat.role == "warden" else prisoner_phone)(
                    http, server, base, p, random.Random(rng.random()), done
                )
            )
            for p in phones.values()
        ]
        try:
            for kill in range(KILLS):
                await asyncio.sleep(rng.uniform(0.05, 0.6))
                await server.kill()
                await asyncio.to_thread(game_master_step, path, kill)
                await server.start()
            # A loaded machine serves fewer choices between the kills: let the phones go on
            # (bounded) until enough were saved for the check below to mean something.
            loop = asyncio.get_running_loop()
            until = loop.time() + 60
            while sum(len(phones[n].acked) for n in PRISONERS) < 200 and loop.time() < until:
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.3)
            done.set()
            await asyncio.wait_for(asyncio.gather(*tasks), 20)
            final = {
                s.name: await (await http.get(f"{base}/api/p/{s.token}")).json() for s in seats
            }
            board = await (await http.get(f"{base}/api/board")).json()
        finally:
            done.set()
            for task in tasks:
                task.cancel()
            await server.stop()

    assert server.starts == KILLS + 1
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    reopened = Session.open(path)  # the log replays from the first row
    try:
        state = reopened.state
        assert state.day.number >= 3, "the script should have moved through several days"
        # what each seat may see, from the reopened log's room (no search the room has not
        # seen; the warden, a deal she has just made with the prisoner still in with her)
        now = time.time()
        assert {name: game_of(view) for name, view in final.items()} == {
            s.name: game_of(dict(reopened.room.seat_view(s.role, s.name, now))) for s in seats
        }
        assert game_of(board) == table(room_state(reopened))
        choices, warden_acts = logged(reopened)
        total = 0
        for name in PRISONERS:
            phone = phones[name]
            # Every choice a phone saw saved is in the log, in the order it was made; the log
            # holds at most one more for each request whose answer was lost.
            assert is_subsequence(phone.acked, choices[name]), name
            assert len(choices[name]) - len(phone.acked) <= phone.unsure, name
            total += len(phone.acked)
        wendy = phones["Wendy"]
        assert is_subsequence(wendy.acked, warden_acts)
        assert len(warden_acts) - len(wendy.acked) <= wendy.unsure
        assert total >= 200 and wendy.acked, (total, wendy.acked)
        unsure = sum(p.unsure for p in phones.values())
        assert unsure >= 1  # kills did land mid-request
        print(
            f"\n{KILLS} kills, {total + len(wendy.acked)} acknowledged submissions all in the "
            f"log, {unsure} answers lost with the server, {len(reopened.rows)} rows, "
            f"day {state.day.number}"
        )
    finally:
        reopened.close()
