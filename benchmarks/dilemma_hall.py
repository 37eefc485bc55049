"""A lecture hall on one laptop: N simulated phones play the warm-up against the night's server,
with the game master's console attached.

The server is the night's server as the game master runs it (``companion serve``'s parts: the
warm-up's phone server with the game master's desk, the night's record written once it listens
and cleared as it stops), in its own process on 127.0.0.1. The console is the real one,
``companion --data-dir FOLDER resume hall`` in a tmux window of 120x36, which finds the server
through the record and attaches to it (it follows the night over the desk's stream). The
phones (all in this process) join by name through the room's link within ``--join`` seconds
(the rush after the QR code goes up), hold their live-update streams, then play ``--rounds``
rounds: the game master's start of each round goes through the desk as the console sends it,
every phone chooses at a moment spread evenly over ``--choose`` seconds after it sees the
round, and the round reveals itself when the last one has chosen.

``--console`` says what the console does meanwhile (the first run, the figure of record):

- ``running`` (the default): attached and drawing the whole run;
- ``stopped``: its terminal stopped (SIGSTOP to its process group) from before the first round
  to after the last reveal, then let go on (SIGCONT): how soon it shows the last reveal then;
- ``killed``: its process group killed (SIGKILL) halfway through the middle round, opened
  again a second later; it must attach again (``companion sessions`` says "1 console");
- ``none``: no console (the server alone).

Beside it (``--beside``, default ``alone``), the same phones play against the same server with
no console (``alone``) and against a bare aiohttp server with the same routes and no work
behind them (``bare``: no log, no views, no templates), each on a fresh session, in the same
run. Figures, side by side:

- join: GET /join-room, POST the name, GET the player's page (p99); page: the last GET alone;
- choice: a choice POST, answered after the session file's commit (p50, p99, max);
- reveal to every phone: from the reveal (the moment the server decided it; both processes
  read the same wall clock) to each phone receiving its result (p50, p99, max);
- the console: when its screen showed each reveal ("Round N of M is revealed", the pane read
  every 0.1 s once the round's choices are in), and its CPU time during the rounds;
- events: server-sent events the phones received, all kinds;
- the server process's CPU time during the joins and during the rounds (other load on the
  machine skews it far less than the times above);
- the garbage collector's passes during the rounds, their total and the longest (each stops the
  server's loop, and every request waits behind it);
- peak memory of the server process (VmHWM), and its open files with every stream held;
- nothing lost: every choice POST acknowledged, every phone's last acknowledged choice of every
  round the one the session file revealed, and every phone saw every result.

Phones come from loopback addresses other than 127.0.0.1 (all of 127.0.0.0/8 is this
machine), ``--per-address`` of them on each (default 4: a household, or friends sharing a
hotspot): the server's limits per address (joins, connections, streams) apply to them as they
would on the night, and the laptop's own address (exempt from them) is left to the game master
and the console. The benchmark raises its own open-file limit to the hard limit, as the server
does. The warm-up takes at most 1,000 players; above that (up to ``MAX_PHONES``) the benchmark
raises that bound in its own processes only (the server's, the console's and its check of the
file), to see where the next step stands.

Run: .venv/bin/python benchmarks/dilemma_hall.py [--players 300] [--rounds 5] [--join 20]
     [--choose 10] [--per-address 4] [--console running|stopped|killed|none]
     [--beside alone,bare|none] [--profile FILE]
     (--phones is the same as --players; at most 2,000; --profile writes a cProfile of our
     server process, for pstats)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.phones import (  # noqa: E402
    ATTACH_SECONDS,
    Console,
    GameMaster,
    address,
    companion_sessions,
    free_port,
    kill_and_reopen,
    pct,
    wait_for_port,
    wait_for_record,
)
from benchmarks.phones import ConsoleFigures as Figures  # noqa: E402

__all__ = ["Phone", "address", "hold_stream", "join", "raise_file_limit"]  # the room trial's

MAX_PHONES = 2000
MAX_ROUNDS = 10
MAX_SECONDS = 60.0
PRODUCT_MOST = 1000  # the most players the warm-up's rules take (rules/dilemma/scenario.py)
CONSOLE_MODES = ("running", "stopped", "killed", "none")
SESSION = "hall"


_PAGE_TOKEN = re.compile(r'name="page" value="([^"]*)"')  # the join form's token

def peak_memory(pid: int) -> int:
    """The process's peak resident memory in KiB (VmHWM), or -1."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return -1


def cpu_seconds(pid: int) -> float:
    """The CPU time the process has used so far (user and system), or -1: a figure that other
    load on the machine skews far less than wall-clock times."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return -1.0


def open_files(pid: int) -> int:
    """How many files the process has open now, or -1."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def raise_file_limit() -> int:
    """This process's soft limit on open files, raised to the hard limit (a phone's session
    holds a stream and a connection or two: 1,000 phones need more than 1,024 files)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def raise_player_bound(players: int) -> None:
    """Let the warm-up's rules take ``players`` in this process (above the product's 1,000):
    the benchmark's own server, console and check of the file, never the product."""
    if players <= PRODUCT_MOST:
        return
    import annotated_types

    from companion.rules.dilemma.scenario import DilemmaRules

    for name in ("min_players", "max_players"):
        kept = DilemmaRules.model_fields[name]
        kept.metadata = [annotated_types.Le(players) if isinstance(m, annotated_types.Le)
                         else m for m in kept.metadata]
    DilemmaRules.model_rebuild(force=True)


# ---- the servers ---------------------------------------------------------------------------


def bench_routes(app: Any, start: Any, revealed: list[float], round_now: Any) -> None:
    """The benchmark's own routes: the current round, the reveals, and the server's
    garbage-collector pauses since the last reading (each pass stops the loop: every request
    waits behind it); ``start``, where the game master has no desk (the bare server)."""
    import gc

    from aiohttp import web

    pauses: list[tuple[float, int]] = []  # (seconds, generation)
    began = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            pauses.append((time.perf_counter() - began[0], info["generation"]))

    gc.callbacks.append(timed)

    async def collector(request: web.Request) -> web.Response:
        longest = max(pauses, default=(0.0, 0))
        figures = {"count": len(pauses), "total": sum(p for p, _ in pauses),
                   "longest": longest[0], "generation": longest[1],
                   "full": sum(1 for _, generation in pauses if generation == 2)}
        pauses.clear()
        return web.json_response(figures)

    async def start_round(request: web.Request) -> web.Response:
        return web.json_response(start())

    async def reveals(request: web.Request) -> web.Response:
        return web.json_response(revealed)

    async def current(request: web.Request) -> web.Response:
        return web.json_response({"round": round_now()})

    app.router.add_get("/bench/gc", collector)
    if start is not None:
        app.router.add_post("/bench/start_round", start_round)
    app.router.add_get("/bench/revealed", reveals)
    app.router.add_get("/bench/round", current)


def run_ours(port: int, bench_port: int, folder: str, players: int) -> None:
    """The night's server of a fresh warm-up session in ``folder`` (the shipped scenario with
    room for ``players``), as ``companion serve`` runs it: the session held by the night's
    server, the phone server with the game master's desk, the night's record written once it
    listens and cleared as it stops (a terminate signal stops it); the benchmark's own routes
    on ``bench_port``."""
    from companion.cli.serve import HOLDER
    from companion.rules.dilemma.events import RoundRevealed
    from companion.session.dilemma.create import open_or_create_dilemma

    raise_player_bound(players)
    scenario = (ROOT / "scenarios" / "dilemma.toml").read_text()
    scenario = scenario.replace("max_players = 300", f"max_players = {max(players, 300)}")
    scenario_file = Path(folder) / "hall-scenario.toml"
    scenario_file.write_text(scenario)
    session = open_or_create_dilemma(Path(folder), SESSION, str(scenario_file), MAX_ROUNDS,
                                     holder=HOLDER)
    revealed: list[float] = []

    def on_change(s: Any, change: Any) -> None:
        if change.entry is not None and any(
            isinstance(e, RoundRevealed) for e in change.entry.events
        ):
            revealed.append(time.time())

    session.subscribe(on_change)
    try:
        asyncio.run(night(session, port, bench_port, revealed))
    finally:
        session.close()


async def night(session: Any, port: int, bench_port: int, revealed: list[float]) -> None:
    """Serve the night until a terminate signal: what ``companion serve`` does, without its
    look at the session file each second."""
    from aiohttp import web

    from companion.cli.wiring import stop_on_signals
    from companion.session.night import (
        NightRecord,
        clear_record,
        game_master_key,
        reach_address,
        write_record,
    )
    from companion.web.common.desk import Desk
    from companion.web.dilemma.joins import per_device
    from companion.web.dilemma.server import start_dilemma_server

    host = "127.0.0.1"
    path = session.store.path
    stop = asyncio.Event()
    stop_on_signals(asyncio.get_running_loop(), stop)
    links: dict[str, str] = {}
    desk = Desk(session, game_master_key(path), lambda: dict(links), stop.set)
    # each phone's address is held to the night's own limits (joins, connections, streams)
    server = await start_dilemma_server(session, host, port, None, joins=per_device(None),
                                        desk=desk)
    links.update(base=server.base_url, board=server.board_url, join=server.join_url)
    bench = web.Application()
    bench_routes(bench, None, revealed,
                 lambda: session.state.current.number if session.state.current else 0)
    runner = web.AppRunner(bench, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, bench_port).start()
    write_record(path, NightRecord(os.getpid(), host, server.port, reach_address(host),
                                   time.time()))
    print("Serving the dilemma (ours)", flush=True)
    try:
        await stop.wait()
    finally:
        desk.close()
        await asyncio.sleep(0)  # the consoles' streams say goodbye
        await server.stop()
        await runner.cleanup()
        clear_record(path, os.getpid())


def run_bare(port: int) -> None:
    """The same routes with no work: names in a dict, pairs drawn in order, small JSON."""
    from aiohttp import web

    names: dict[str, str] = {}  # token -> name
    order: list[str] = []
    chosen: dict[str, str] = {}
    partner: dict[str, str] = {}
    revealed: list[float] = []
    streams: dict[str, asyncio.Queue[bytes]] = {}
    game = {"round": 0, "open": False}

    def push(token: str, event: dict[str, Any]) -> None:
        queue = streams.get(token)
        if queue is not None:
            queue.put_nowait(f"event: view\ndata: {json.dumps(event)}\n\n".encode())

    def start() -> dict[str, Any]:
        game["round"] += 1
        game["open"] = True
        chosen.clear()
        partner.clear()
        players = list(order)
        for a, b in zip(players[::2], players[1::2], strict=False):
            partner[a], partner[b] = b, a
        for token in players:
            push(token, {"round": game["round"], "facing": names.get(partner.get(token, ""))})
        return {"ok": True, "round": game["round"]}

    async def join_page(request: web.Request) -> web.Response:
        return web.Response(text="<!doctype html><form>name</form>", content_type="text/html")

    async def join(request: web.Request) -> web.Response:
        form = await request.post()
        token = f"t{len(order):04d}"
        names[token] = str(form["name"])
        order.append(token)
        raise web.HTTPSeeOther(f"/d/{token}")

    async def page(request: web.Request) -> web.Response:
        return web.Response(text="<!doctype html><p>you</p>", content_type="text/html")

    async def choice(request: web.Request) -> web.Response:
        token = request.match_info["token"]
        data = await request.json()
        chosen[token] = data["choice"]
        push(token, {"round": game["round"], "mine": data["choice"]})
        if game["open"] and len(chosen) >= len(partner):
            game["open"] = False
            revealed.append(time.time())
            for t in partner:
                push(t, {"result": game["round"], "theirs": chosen.get(partner[t])})
        return web.json_response({"ok": True})

    async def events(request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        streams[token] = queue
        try:
            while True:
                await response.write(await queue.get())
        except ConnectionError:
            pass
        return response

    async def board(request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    app = web.Application()
    app.router.add_get("/join-room", join_page)
    app.router.add_post("/join-room", join)
    app.router.add_get("/d/{token}", page)
    app.router.add_get("/api/d/{token}/events", events)
    app.router.add_post("/api/d/{token}/choice", choice)
    app.router.add_get("/api/board", board)
    bench_routes(app, start, revealed, lambda: game["round"])
    print("Serving the dilemma (bare)", flush=True)
    web.run_app(
        app, host="127.0.0.1", port=port, access_log=None, print=None, shutdown_timeout=1.0
    )


# ---- the phones ----------------------------------------------------------------------------


@dataclass
class Phone:
    name: str
    token: str = ""
    tab: str = field(default_factory=lambda: f"{random.getrandbits(40):x}")  # as the page's
    joins: float = 0.0
    page: float = 0.0
    events: int = 0
    round_seen: dict[int, asyncio.Event] = field(default_factory=dict)
    results: dict[int, float] = field(default_factory=dict)  # round -> received (wall clock)
    acked: dict[int, str] = field(default_factory=dict)  # round -> last acknowledged choice
    posts: list[float] = field(default_factory=list)
    failed: int = 0
    retries: int = 0  # join pages that did not load at the first try

    def seen(self, number: int) -> asyncio.Event:
        return self.round_seen.setdefault(number, asyncio.Event())


def _shows(data: dict[str, Any], phone: Phone, ours: bool) -> None:
    """What a view says: a round to choose in, or a round's result."""
    if ours:
        html = data.get("html", "")
        if 'id="my-result"' in html:
            at = html.index('id="my-result"')
            number = int(html[at:].split("<h2>Round ", 1)[1].split("<", 1)[0])
            phone.results.setdefault(number, time.time())
        if 'data-action="choice"' in html:
            number = int(html.split("<h2>Round ", 1)[1].split(" ", 1)[0])
            phone.seen(number).set()
    else:
        if "result" in data:
            phone.results.setdefault(int(data["result"]), time.time())
        elif "facing" in data:
            phone.seen(int(data["round"])).set()


async def hold_stream(http: aiohttp.ClientSession, base: str, phone: Phone, ours: bool) -> None:
    async with http.get(f"{base}/api/d/{phone.token}/events?tab={phone.tab}") as r:
        event = ""
        async for raw in r.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                phone.events += 1
                if event == "view":
                    _shows(json.loads(line[6:]), phone, ours)


async def join(http: aiohttp.ClientSession, base: str, phone: Phone, delay: float) -> None:
    await asyncio.sleep(delay)
    start = time.perf_counter()
    for attempt in range(5):  # as a phone does: the page did not load, scan again
        try:
            async with http.get(f"{base}/join-room", timeout=aiohttp.ClientTimeout(total=10)) as r:
                form = _PAGE_TOKEN.search(await r.text())
            break
        except (aiohttp.ClientError, TimeoutError):
            phone.retries += 1
            if attempt == 4:
                raise
    token = form[1] if form else ""  # the page's token, in its form and its cookie
    async with http.post(
        f"{base}/join-room",
        data={"name": phone.name, "page": token},
        headers={"Cookie": f"page={token}"},
        allow_redirects=False,
    ) as r:
        await r.read()
        location = r.headers.get("Location", "")
    if not location.startswith("/d/"):
        raise RuntimeError(f"{phone.name} could not join: {r.status}")
    phone.token = location.removeprefix("/d/")
    page = time.perf_counter()
    async with http.get(f"{base}{location}") as r:
        await r.read()
    phone.page = time.perf_counter() - page
    phone.joins = time.perf_counter() - start


async def choose(
    http: aiohttp.ClientSession, base: str, phone: Phone, number: int, within: float,
    rng: random.Random, part: str,
) -> None:
    try:
        await asyncio.wait_for(phone.seen(number).wait(), 30)
    except TimeoutError:  # the round never reached this phone: no choice from it
        phone.failed += 1
        return
    await asyncio.sleep(rng.uniform(0, within))
    choice = rng.choice(["silent", "betray"])
    sent = time.perf_counter()
    try:
        async with http.post(
            f"{base}/api/d/{phone.token}/choice", json={"choice": choice},
            headers={"X-Tab": phone.tab}, timeout=aiohttp.ClientTimeout(total=30),
        ) as r:
            answer = json.loads(await r.read())
            ok = r.status == 200
    except (aiohttp.ClientError, TimeoutError):
        ok = False
    if ok:
        phone.posts.append(time.perf_counter() - sent)
        phone.acked[number] = choice
        # as the page's script does after an answer: show the part it carries, else fetch
        # its own part at once
        if not isinstance(answer.get("html"), str):
            async with http.get(f"{base}/d/{phone.token}{part}") as r:
                await r.read()
    else:
        phone.failed += 1


# ---- the game master: the console, the desk ------------------------------------------------


def console_command(folder: Path, players: int) -> list[str]:
    """``companion --data-dir FOLDER resume hall``; above the product's 1,000 players the same
    command through this script, which raises the rules' bound first."""
    if players <= PRODUCT_MOST:
        return [sys.executable, "-m", "companion", "--data-dir", str(folder), "resume", SESSION]
    return [sys.executable, str(Path(__file__).resolve()), "--console-cli", str(folder),
            str(players)]


@dataclass
class Target:
    """A server under load: its ports and process, and for ours the game master's desk."""

    port: int
    bench: int
    pid: int
    folder: Path | None = None
    gm: GameMaster | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start_round(self, http: aiohttp.ClientSession, seed: int) -> int:
        """The game master starts the next round: through the desk, as the console sends it
        (ours), else the bare server's own route; the round now open."""
        if self.gm is not None:
            after = (await self.gm.ask("GET", "/api/gm/hello"))["log"]
            await self.gm.ask("POST", "/api/gm/command", {
                "command": {"do": "start_round", "seed": seed}, "console": "benchmark",
                "after": after, "by": "gm",
            })
        else:
            async with http.post(f"http://127.0.0.1:{self.bench}/bench/start_round") as r:
                await r.read()
        async with http.get(f"http://127.0.0.1:{self.bench}/bench/round") as r:
            return int((await r.json())["round"])


@dataclass
class ConsoleFigures(Figures):
    """The console's figures (:class:`benchmarks.phones.ConsoleFigures`) and the hall's own."""

    shown: dict[int, float] = field(default_factory=dict)  # round -> its screen showed it
    room_shown: bool = False  # killed: the console opened again shows the last reveal


@dataclass
class Run:
    label: str
    phones: list[Phone]
    revealed: list[float]
    joined_in: float
    memory: int
    files: int
    lost: list[str]
    unjoined: int = 0
    cpu: tuple[float, float] = (0.0, 0.0)  # the server's CPU seconds: joins, then the rounds
    gc: dict[str, float] = field(default_factory=dict)  # the collector's pauses in the rounds
    console: ConsoleFigures | None = None
    rounds: int = 0
    ours: bool = True

    def reveal_times(self) -> list[float]:
        out = []
        for number, at in enumerate(self.revealed, start=1):
            out += [p.results[number] - at for p in self.phones if number in p.results]
        return out

    def missing(self) -> int:
        return sum(1 for p in self.phones for n in range(1, self.rounds + 1)
                   if n not in p.results)

    def acknowledged(self) -> int:
        return sum(len(p.acked) for p in self.phones)

    def nothing_lost(self) -> bool:
        """Every choice acknowledged, every acknowledged choice the one the file revealed,
        every phone's every result received, and no console problem."""
        console_ok = self.console is None or not self.console.problems
        return (not self.lost and self.missing() == 0 and len(self.revealed) == self.rounds
                and self.acknowledged() == len(self.phones) * self.rounds
                and not any(p.failed for p in self.phones) and console_ok)


async def play(label: str, target: Target, args: argparse.Namespace, mode: str) -> Run:
    ours = target.gm is not None
    base = target.base
    bench = f"http://127.0.0.1:{target.bench}"
    rng = random.Random(args.seed)
    phones = [Phone(f"Student {i + 1:04d}") for i in range(args.phones)]
    gm = target.gm
    figures = ConsoleFigures(mode) if mode != "none" and gm is not None else None
    console = (Console(console_command(target.folder, args.phones), "companion-hall")
               if figures is not None and target.folder is not None else None)
    kill_round = (args.rounds + 1) // 2
    streams: list[asyncio.Task[None]] = []
    everyone: list[aiohttp.ClientSession] = []
    # the benchmark's own requests (its routes, the bare server's start) from the laptop
    http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
    try:
        if console is not None and figures is not None and gm is not None:
            await console.open()  # the game master opens the console before the room fills
            figures.attached_in = await gm.until_consoles(1)
            if figures.attached_in is None:
                raise SystemExit(f"{label}: the console did not attach within "
                                 f"{ATTACH_SECONDS:.0f} s:\n{await console.screen()}")
        # no total timeout: a stream is held for the whole run (a POST still gives up after 30 s)
        everyone = [
            aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(address(i, args.per_address), 0)),
                timeout=aiohttp.ClientTimeout(total=None, connect=30, sock_connect=30),
            )
            for i in range(len(phones))
        ]
        cpu_start = cpu_seconds(target.pid)
        start = time.perf_counter()
        tried = await asyncio.gather(*(
            join(phone_http, base, phone, rng.uniform(0, args.join))
            for phone_http, phone in zip(everyone, phones, strict=True)
        ), return_exceptions=True)
        joined_in = time.perf_counter() - start
        # a phone that could not join (its page never loaded, or the join failed) is counted
        # and plays no further: the rest of the room goes on, as in the hall
        unjoined = [phone for phone, outcome in zip(phones, tried, strict=True)
                    if isinstance(outcome, BaseException) or not phone.token]
        sessions = [phone_http for phone_http, phone in zip(everyone, phones, strict=True)
                    if phone not in unjoined]
        phones = [phone for phone in phones if phone not in unjoined]
        streams = [
            asyncio.create_task(hold_stream(phone_http, base, phone, ours))
            for phone_http, phone in zip(sessions, phones, strict=True)
        ]
        await asyncio.sleep(1.0)
        files = open_files(target.pid)
        cpu_joined = cpu_seconds(target.pid)
        async with http.get(f"{bench}/bench/gc") as r:  # from here on: the rounds'
            await r.read()
        console_cpu = cpu_seconds(console.pid) if console else -1.0
        if console is not None and mode == "stopped":
            console.stop()  # the terminal frozen for every round
        for number in range(1, args.rounds + 1):
            started = await target.start_round(http, rng.randrange(2**62))
            if started != number:
                raise SystemExit(f"{label}: round {number} did not start (round {started})")
            killer = None
            if console is not None and figures is not None and gm is not None and (
                    mode == "killed" and number == kill_round):
                killer = asyncio.create_task(killed_halfway(console, gm, args.choose, figures))
            await asyncio.gather(*(
                choose(
                    phone_http, base, phone, number, args.choose, random.Random(rng.random()),
                    "/part" if ours else "",
                )
                for phone_http, phone in zip(sessions, phones, strict=True)
            ))
            if killer is not None:
                await killer
            if console is not None and figures is not None and mode == "running":
                seen = await console.shows(rf"Round {number} of \d+ is revealed", 10)
                if seen is None:
                    figures.problems.append(f"the console never showed round {number}'s reveal")
                else:
                    figures.shown[number] = seen
            for _ in range(100):  # every result in, or 10 s
                if all(number in p.results for p in phones):
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
        if console is not None and figures is not None and gm is not None:
            await after_the_rounds(console, gm, figures, args, console_cpu, target.folder)
        async with http.get(f"{bench}/bench/revealed") as r:
            revealed = await r.json()
        async with http.get(f"{bench}/bench/gc") as r:
            collected = await r.json()
        memory = peak_memory(target.pid)
        cpu = (cpu_joined - cpu_start, cpu_seconds(target.pid) - cpu_joined)
    finally:
        if console is not None:
            await console.close()  # before the server stops: the console goes first
        for task in streams:
            task.cancel()
        for phone_http in everyone:
            await phone_http.close()
        await http.close()
    return Run(label, phones, revealed, joined_in, memory, files, [], len(unjoined), cpu,
               collected, figures, args.rounds, ours)


async def killed_halfway(console: Console, gm: GameMaster, choose: float,
                         figures: ConsoleFigures) -> None:
    """Halfway through the choosing: the console's process group killed, opened again."""
    await asyncio.sleep(choose / 2)
    await kill_and_reopen(console, gm, figures)


async def after_the_rounds(console: Console, gm: GameMaster, figures: ConsoleFigures,
                           args: argparse.Namespace, cpu: float, folder: Path | None) -> None:
    """What the console did, once the rounds are played: its CPU, still attached (running);
    let go on, how soon it showed the last reveal (stopped); opened again, whether it shows the
    last reveal and ``companion sessions`` counts it (killed)."""
    last = rf"Round {args.rounds} of \d+ is revealed"
    if figures.mode == "running":
        figures.cpu = cpu_seconds(console.pid) - cpu
        if await gm.consoles() != 1:
            figures.problems.append("the console was no longer attached after the rounds")
    elif figures.mode == "stopped":
        if console.state() != "T":
            figures.problems.append("the console's process was not stopped")
        if re.search(last, await console.screen()):
            figures.problems.append("the stopped console's screen changed")
        console.resume()
        let_go = time.time()
        seen = await console.shows(last, 30)
        if seen is None:
            figures.problems.append("the console let go on never showed the last reveal")
        else:
            figures.caught_up = seen - let_go
        if await gm.until_consoles(1, 10) is None:
            figures.problems.append("the console let go on was no longer attached")
    elif figures.mode == "killed":
        figures.room_shown = await console.shows(last, 20) is not None
        if not figures.room_shown:
            figures.problems.append("the console opened again does not show the last reveal")
        figures.sessions = await companion_sessions(folder or Path("."), SESSION)
        if "1 console" not in figures.sessions:
            figures.problems.append(f"companion sessions said: {figures.sessions}")


def check_file(folder: Path, run: Run) -> None:
    """Every phone's last acknowledged choice of every round is the one the file revealed."""
    from companion.session.session import Session

    session = Session.open(folder / f"{SESSION}.sqlite")
    try:
        names = {p.pid: p.name for p in session.state.players}
        revealed: dict[tuple[int, str], str] = {}
        for r in session.state.rounds:
            for o in r.outcomes:
                for pid, choice, answered in ((o.a, o.choice_a, o.answered_a),
                                              (o.b, o.choice_b, o.answered_b)):
                    if answered and pid in names:
                        revealed[(r.number, names[pid])] = choice
        for phone in run.phones:
            for number, choice in phone.acked.items():
                if revealed.get((number, phone.name)) != choice:
                    run.lost.append(f"{phone.name} round {number}")
        if session.store._db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            run.lost.append("the session file's integrity check")
    finally:
        session.close()


async def serve_and_play(args: argparse.Namespace, tmp: Path, k: int, kind: str,
                         mode: str) -> Run:
    """One server (ours on a fresh session, or bare) started, played against, stopped."""
    from companion.session.night import game_master_key, read_record

    folder = tmp / f"run{k}"
    folder.mkdir()
    port, bench = free_port(), free_port()
    if kind == "ours":
        command = [sys.executable, __file__, "--ours-server", str(port), str(bench), str(folder),
                   str(args.phones)]
        if args.profile and k == 0:
            command += ["--profile", args.profile]
    else:
        bench = port
        command = [sys.executable, __file__, "--bare-server", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, cwd=ROOT)
    path = folder / f"{SESSION}.sqlite"
    target = Target(port, bench, process.pid)
    try:
        await wait_for_port(port)
        if kind == "ours":
            await wait_for_record(path, process.pid)  # written once it listens
            target.folder = folder
            target.gm = GameMaster(target.base, game_master_key(path))
            label = f"ours + console ({mode})" if mode != "none" else "ours alone"
        else:
            label = "bare aiohttp"
        budget = args.join + 2 * ATTACH_SECONDS + args.rounds * (args.choose + 60) + 60
        try:
            run = await asyncio.wait_for(play(label, target, args, mode), budget)
        except TimeoutError:
            raise SystemExit(f"{label}: the run took longer than {budget:.0f} s") from None
    finally:
        if target.gm is not None:
            await target.gm.close()
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
    if kind == "ours":
        left = read_record(path)
        if left is not None:
            said = (f"a second night's server (pid {left.pid}) served the hall"
                    if left.pid != process.pid else "the night's record was left behind")
            (run.console.problems if run.console else run.lost).append(said)
            if left.pid != process.pid:
                with contextlib.suppress(OSError):
                    os.kill(left.pid, signal.SIGTERM)
        raise_player_bound(args.phones)
        check_file(folder, run)
    return run


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.0f}"


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def console_row(run: Run, what: str) -> str:
    c = run.console
    if c is None:
        return "-"
    if what == "attached":
        return seconds(c.attached_in)
    if what == "shown":
        lags = [at - run.revealed[n - 1] for n, at in c.shown.items() if n <= len(run.revealed)]
        if not lags:
            return "-"
        return f"{pct(lags, .5):.0f} / {pct(lags, 1):.0f}"
    if what == "cpu":
        return "-" if c.cpu < 0 else f"{c.cpu:.1f}"
    if what == "caught_up":
        return ms(c.caught_up)
    if what == "again":
        return seconds(c.again_in)
    if what == "sessions":
        return "1 console" if "1 console" in c.sessions else (c.sessions[-26:] or "-")
    return "-"


async def main_async(args: argparse.Namespace) -> None:
    plan = [("ours", args.console)]
    if "alone" in args.beside and args.console != "none":
        plan.append(("ours", "none"))
    if "bare" in args.beside:
        plan.append(("bare", "none"))
    load = os.getloadavg()
    began = time.strftime("%H:%M")
    runs = []
    with tempfile.TemporaryDirectory(prefix="companion-hall-") as tmp:
        for k, (kind, mode) in enumerate(plan):
            runs.append(await serve_and_play(args, Path(tmp), k, kind, mode))
    after = os.getloadavg()
    print(f"{args.phones} phones ({args.per_address} a loopback address), {args.rounds} rounds; "
          f"joins spread over {args.join:.0f} s, choices over {args.choose:.0f} s of each round; "
          f"{os.cpu_count()} cores; at {began}, load average {load[0]:.2f} -> {after[0]:.2f}")
    print(f"console: {args.console}; the figure of record: {runs[0].label}")

    def posts(r: Run) -> list[float]:
        return [t for p in r.phones for t in p.posts]

    rows = [
        ("console", lambda r: r.console.mode if r.console else "none"),
        ("all joined within (s)", lambda r: f"{r.joined_in:.1f}"),
        ("phones joined", lambda r: str(len(r.phones))),
        ("phones that could not join", lambda r: str(r.unjoined)),
        ("join p99 (ms)", lambda r: f"{pct([p.joins for p in r.phones], .99):.0f}"),
        ("page load p99 (ms)", lambda r: f"{pct([p.page for p in r.phones], .99):.0f}"),
        ("choice POST p50 (ms)", lambda r: f"{pct(posts(r), .5):.0f}"),
        ("choice POST p99 (ms)", lambda r: f"{pct(posts(r), .99):.0f}"),
        ("choice POST max (ms)", lambda r: f"{pct(posts(r), 1):.0f}"),
        ("reveal to phone p50 (ms)", lambda r: f"{pct(r.reveal_times(), .5):.0f}"),
        ("reveal to phone p99 (ms)", lambda r: f"{pct(r.reveal_times(), .99):.0f}"),
        ("reveal to phone max (ms)", lambda r: f"{pct(r.reveal_times(), 1):.0f}"),
        ("console attached in (s)", lambda r: console_row(r, "attached")),
        ("console showed reveal p50/max (ms)", lambda r: console_row(r, "shown")),
        ("console CPU, rounds (s)", lambda r: console_row(r, "cpu")),
        ("console let go: showed reveal (ms)", lambda r: console_row(r, "caught_up")),
        ("console reopened: attached (s)", lambda r: console_row(r, "again")),
        ("companion sessions says", lambda r: console_row(r, "sessions")),
        ("events received", lambda r: str(sum(p.events for p in r.phones))),
        ("server CPU, joins (s)", lambda r: f"{r.cpu[0]:.1f}"),
        ("server CPU, rounds (s)", lambda r: f"{r.cpu[1]:.1f}"),
        ("GC passes, rounds (full)", lambda r: f"{r.gc['count']:.0f} ({r.gc['full']:.0f})"),
        ("GC pauses, total (ms)", lambda r: f"{r.gc['total'] * 1000:.0f}"),
        ("GC pause, longest (ms, gen)",
         lambda r: f"{r.gc['longest'] * 1000:.0f} (gen {r.gc['generation']:.0f})"),
        ("peak memory (MiB)", lambda r: f"{r.memory / 1024:.0f}"),
        ("open files, streams held", lambda r: str(r.files)),
        ("join pages loaded again", lambda r: str(sum(p.retries for p in r.phones))),
        ("choices acknowledged",
         lambda r: f"{r.acknowledged()} of {len(r.phones) * r.rounds}"),
        ("failed POSTs", lambda r: str(sum(p.failed for p in r.phones))),
        ("results not received", lambda r: str(r.missing())),
        ("acknowledged, not in the file", lambda r: str(len(r.lost)) if r.ours else "-"),
        ("nothing lost", lambda r: "yes" if r.nothing_lost() else "NO"),
    ]
    width = 26
    print(f"{'':36}" + "".join(f"{r.label:>{width}}" for r in runs))
    for title, figure in rows:
        print(f"{title:36}" + "".join(f"{figure(r):>{width}}" for r in runs))
    problems = [f"{r.label}: {p}" for r in runs for p in
                ((r.console.problems if r.console else []) + r.lost[:10])]
    for problem in problems:
        print(f"PROBLEM {problem}")
    if not all(r.nothing_lost() for r in runs):
        raise SystemExit("LOST: see the rows above")
    print("nothing lost: every choice acknowledged and the one the session file revealed, "
          "every result received by every phone")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", "--phones", dest="phones", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--join", type=float, default=20.0, help="seconds over which all join")
    parser.add_argument("--choose", type=float, default=10.0,
                        help="seconds over which the phones' choices are spread (default 10)")
    parser.add_argument("--per-address", type=int, default=4,
                        help="phones on each loopback address (default 4)")
    parser.add_argument("--console", choices=CONSOLE_MODES, default="running",
                        help="what the game master's console does in the first run, the "
                        "figure of record (default running)")
    parser.add_argument("--beside", default="alone",
                        help="what else is measured beside it, comma-separated: alone (ours "
                        "with no console), bare (a bare aiohttp server), none (default alone)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ours-server", nargs=4, metavar=("PORT", "BENCH", "FOLDER", "PLAYERS"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--bare-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--console-cli", nargs=2, metavar=("FOLDER", "PLAYERS"),
                        help=argparse.SUPPRESS)
    parser.add_argument(
        "--profile", metavar="FILE",
        help="write a cProfile of our server process to FILE (read it with pstats)",
    )
    args = parser.parse_args()
    if args.ours_server:
        port, bench, folder, players = args.ours_server
        call = (int(port), int(bench), folder, int(players))
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            try:
                profiler.runcall(run_ours, *call)
            finally:
                profiler.dump_stats(args.profile)
            return
        run_ours(*call)
        return
    if args.bare_server:
        run_bare(args.bare_server)
        return
    if args.console_cli:
        raise_player_bound(int(args.console_cli[1]))
        from companion.cli.main import main as companion

        raise SystemExit(companion(["--data-dir", args.console_cli[0], "resume", SESSION]))
    args.beside = {b.strip() for b in args.beside.split(",")} - {"none", ""}
    if not args.beside <= {"alone", "bare"}:
        raise SystemExit("--beside takes alone, bare or none (comma-separated).")
    if not (2 <= args.phones <= MAX_PHONES and 1 <= args.rounds <= MAX_ROUNDS):
        raise SystemExit(f"Use 2 to {MAX_PHONES} phones and 1 to {MAX_ROUNDS} rounds.")
    if not (0 < args.join <= MAX_SECONDS and 0 < args.choose <= MAX_SECONDS):
        raise SystemExit(f"--join and --choose are seconds up to {MAX_SECONDS:.0f}.")
    if not 1 <= args.per_address <= 10:
        raise SystemExit("--per-address is 1 to 10 (the night lets 10 join from one address).")
    if args.console != "none" and shutil.which("tmux") is None:
        raise SystemExit("The console runs in tmux; install it, or use --console none.")
    limit = raise_file_limit()
    if limit < 3 * args.phones + 64:
        raise SystemExit(
            f"{args.phones} phones need about {3 * args.phones + 64} open files; this process "
            f"may open {limit} (raise the hard limit: ulimit -Hn)."
        )
    print(f"open-file limit of the phones' process: {limit}")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
