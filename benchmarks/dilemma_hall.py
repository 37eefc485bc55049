"""A lecture hall on one laptop: N simulated phones play the warm-up against the real server.

The phones (all in this process) join by name through the room's link within ``--join``
seconds (the rush after the QR code goes up), hold their live-update streams, then play
``--rounds`` rounds: the game master starts each round, every phone chooses within
``--choose`` seconds of seeing it, and the round reveals itself when the last one has chosen.
The same phones then do the same against a bare aiohttp server with the same routes and no
work behind them (no log, no views, no templates), in the same run. Figures, side by side:

- join: GET /join-room, POST the name, GET the player's page (p99); page: the last GET alone;
- choice: a choice POST, answered after the session file's commit (p99, max);
- reveal to every phone: from the reveal (the moment the server decided it; both processes
  read the same wall clock) to each phone receiving its result (p50, p99, max);
- events: server-sent events the phones received, all kinds;
- the server process's CPU time during the joins and during the rounds (other load on the
  machine skews it far less than the times above);
- the garbage collector's passes during the rounds, their total and the longest (each stops the
  server's loop, and every request waits behind it);
- peak memory of the server process (VmHWM), and its open files with every stream held;
- nothing lost: every phone's last acknowledged choice of every round is the one the session
  file revealed (ours), and every phone saw every result.

The server runs in its own process, listening on 127.0.0.1 only; the phones share this one.
Each phone connects from its own loopback address (127.0.x.y, all of 127.0.0.0/8 is this
machine), as each phone in a hall is its own device: the server's limits per address (joins,
connections, streams) apply to them as they would on the night, and the laptop's own address
(exempt from them) is left to the game master. The benchmark raises its own open-file limit
to the hard limit, as the server does.

Run: .venv/bin/python benchmarks/dilemma_hall.py [--players 300] [--rounds 5] [--join 20]
     [--choose 8] [--profile FILE]   (--phones is the same as --players; at most 1,000;
     --profile writes a cProfile of our server process, for pstats)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
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

from benchmarks.phones import free_port, pct, wait_for_port  # noqa: E402

MAX_PHONES = 1000
MAX_ROUNDS = 10
MAX_SECONDS = 60.0


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


def address(i: int) -> str:
    """Phone ``i``'s own loopback address: 127.0.1.1, 127.0.1.2, ... (never 127.0.0.1)."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


# ---- the servers ---------------------------------------------------------------------------


def bench_routes(app: Any, start: Any, revealed: list[float]) -> None:
    """The game master's two moves, for the benchmark only: start a round, read the reveals;
    and the server's garbage-collector pauses since the last reading (each pass stops the
    loop: every request waits behind it)."""
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

    app.router.add_get("/bench/gc", collector)
    app.router.add_post("/bench/start_round", start_round)
    app.router.add_get("/bench/revealed", reveals)


def run_ours(port: int, folder: str, players: int) -> None:
    """The real dilemma server (build_dilemma_app) on a fresh session of ``folder``, its
    scenario the shipped one with room for ``players``."""
    from aiohttp import web

    from companion.rules.dilemma.events import RoundRevealed
    from companion.session.dilemma.create import open_or_create_dilemma
    from companion.web.dilemma.joins import JoinLimiter
    from companion.web.dilemma.server import build_dilemma_app

    scenario = (ROOT / "scenarios" / "dilemma.toml").read_text()
    scenario = scenario.replace("max_players = 300", f"max_players = {max(players, 300)}")
    scenario_file = Path(folder) / "hall-scenario.toml"
    scenario_file.write_text(scenario)
    session = open_or_create_dilemma(Path(folder), "hall", str(scenario_file), MAX_ROUNDS)
    revealed: list[float] = []

    def on_change(s: Any, change: Any) -> None:
        if change.entry is not None and any(
            isinstance(e, RoundRevealed) for e in change.entry.events
        ):
            revealed.append(time.time())

    session.subscribe(on_change)
    seed = random.Random(7)

    def start() -> dict[str, Any]:
        outcome = session.submit({"do": "start_round", "seed": seed.randrange(2**62)})
        return {"ok": not hasattr(outcome, "reason"), "round": session.state.current.number}

    # each phone comes from its own address: the limits per address are the night's own
    app = build_dilemma_app(session, base=f"http://127.0.0.1:{port}", joins=JoinLimiter())
    bench_routes(app, start, revealed)
    print("Serving the dilemma (ours)", flush=True)
    web.run_app(
        app, host="127.0.0.1", port=port, access_log=None, print=None, shutdown_timeout=1.0
    )


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
    bench_routes(app, start, revealed)
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
                await r.read()
            break
        except (aiohttp.ClientError, TimeoutError):
            phone.retries += 1
            if attempt == 4:
                raise
    async with http.post(
        f"{base}/join-room", data={"name": phone.name}, allow_redirects=False
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
    await asyncio.wait_for(phone.seen(number).wait(), 30)
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
    except aiohttp.ClientError:
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

    def reveal_times(self) -> list[float]:
        out = []
        for number, at in enumerate(self.revealed, start=1):
            out += [p.results[number] - at for p in self.phones if number in p.results]
        return out

    def missing(self) -> int:
        return sum(1 for p in self.phones for n in range(1, len(self.revealed) + 1)
                   if n not in p.results)


async def play(label: str, port: int, pid: int, args: argparse.Namespace, ours: bool) -> Run:
    base = f"http://127.0.0.1:{port}"
    rng = random.Random(args.seed)
    phones = [Phone(f"Student {i + 1:04d}") for i in range(args.phones)]
    # no total timeout: a stream is held for the whole run (a POST still gives up after 30 s)
    sessions = [
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(address(i), 0)),
            timeout=aiohttp.ClientTimeout(total=None, connect=30, sock_connect=30),
        )
        for i in range(len(phones))
    ]
    cpu_start = cpu_seconds(pid)
    start = time.perf_counter()
    tried = await asyncio.gather(*(
        join(http, base, phone, rng.uniform(0, args.join))
        for http, phone in zip(sessions, phones, strict=True)
    ), return_exceptions=True)
    joined_in = time.perf_counter() - start
    # a phone that could not join (its page never loaded, or the join failed) is counted and
    # plays no further: the rest of the room goes on, as in the hall
    unjoined = [phone for phone, outcome in zip(phones, tried, strict=True)
                if isinstance(outcome, BaseException) or not phone.token]
    everyone = sessions
    sessions = [http for http, phone in zip(sessions, phones, strict=True)
                if phone not in unjoined]
    phones = [phone for phone in phones if phone not in unjoined]
    streams = [
        asyncio.create_task(hold_stream(http, base, phone, ours))
        for http, phone in zip(sessions, phones, strict=True)
    ]
    await asyncio.sleep(1.0)
    files = open_files(pid)
    cpu_joined = cpu_seconds(pid)
    async with aiohttp.ClientSession() as gm:
        async with gm.get(f"{base}/bench/gc") as r:  # from here on: the rounds'
            await r.read()
        for number in range(1, args.rounds + 1):
            async with gm.post(f"{base}/bench/start_round") as r:
                started = await r.json()
            if started["round"] != number:
                raise SystemExit(f"{label}: round {number} did not start: {started}")
            await asyncio.gather(*(
                choose(
                    http, base, phone, number, args.choose, random.Random(rng.random()),
                    "/part" if ours else "",
                )
                for http, phone in zip(sessions, phones, strict=True)
            ))
            for _ in range(100):  # every result in, or 10 s
                if all(number in p.results for p in phones):
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
        async with gm.get(f"{base}/bench/revealed") as r:
            revealed = await r.json()
        async with gm.get(f"{base}/bench/gc") as r:
            collected = await r.json()
    memory = peak_memory(pid)
    cpu = (cpu_joined - cpu_start, cpu_seconds(pid) - cpu_joined)
    for task in streams:
        task.cancel()
    for http in everyone:
        await http.close()
    return Run(label, phones, revealed, joined_in, memory, files, [], len(unjoined), cpu,
               collected)


def check_file(folder: Path, run: Run) -> None:
    """Every phone's last acknowledged choice of every round is the one the file revealed."""
    from companion.session.session import Session

    session = Session.open(folder / "hall.sqlite")
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


async def main_async(args: argparse.Namespace) -> None:
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for ours in (True, False):
            port = free_port()
            mode = (["--ours-server", str(port), str(folder), str(args.phones)] if ours
                    else ["--bare-server", str(port)])
            if ours and args.profile:
                mode += ["--profile", args.profile]
            process = subprocess.Popen(
                [sys.executable, __file__, *mode], stdout=subprocess.DEVNULL, cwd=ROOT
            )
            try:
                await wait_for_port(port)
                label = "ours: the dilemma server" if ours else "bare aiohttp"
                run = await play(label, port, process.pid, args, ours)
            finally:
                process.terminate()
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)
            if ours:
                check_file(folder, run)
            runs.append(run)
    print(f"{args.phones} phones, {args.rounds} rounds; joins spread over {args.join:.0f} s, "
          f"choices over {args.choose:.0f} s of each round")
    def posts(r: Any) -> list[float]:
        return [t for p in r.phones for t in p.posts]

    rows = [
        ("all joined within (s)", lambda r: f"{r.joined_in:.1f}"),
        ("phones that could not join", lambda r: str(r.unjoined)),
        ("join p99 (ms)", lambda r: f"{pct([p.joins for p in r.phones], .99):.0f}"),
        ("page load p99 (ms)", lambda r: f"{pct([p.page for p in r.phones], .99):.0f}"),
        ("choice POST p50 (ms)", lambda r: f"{pct(posts(r), .5):.0f}"),
        ("choice POST p99 (ms)", lambda r: f"{pct(posts(r), .99):.0f}"),
        ("choice POST max (ms)", lambda r: f"{pct(posts(r), 1):.0f}"),
        ("reveal to phone p50 (ms)", lambda r: f"{pct(r.reveal_times(), .5):.0f}"),
        ("reveal to phone p99 (ms)", lambda r: f"{pct(r.reveal_times(), .99):.0f}"),
        ("reveal to phone max (ms)", lambda r: f"{pct(r.reveal_times(), 1):.0f}"),
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
        ("failed POSTs", lambda r: str(sum(p.failed for p in r.phones))),
        ("results not received", lambda r: str(r.missing())),
    ]
    print(f"{'':28}" + "".join(f"{r.label:>28}" for r in runs))
    for title, figure in rows:
        print(f"{title:28}" + "".join(f"{figure(r):>28}" for r in runs))
    ours = runs[0]
    if ours.lost:
        raise SystemExit(f"LOST: {ours.lost[:10]}")
    print("nothing lost: every acknowledged choice is the one the session file revealed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", "--phones", dest="phones", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--join", type=float, default=20.0, help="seconds over which all join")
    parser.add_argument("--choose", type=float, default=8.0, help="seconds to choose in")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ours-server", nargs=3, metavar=("PORT", "FOLDER", "PLAYERS"))
    parser.add_argument("--bare-server", type=int, metavar="PORT")
    parser.add_argument(
        "--profile", metavar="FILE",
        help="write a cProfile of our server process to FILE (read it with pstats)",
    )
    args = parser.parse_args()
    if args.ours_server:
        port, folder, players = int(args.ours_server[0]), args.ours_server[1], args.ours_server[2]
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            try:
                profiler.runcall(run_ours, port, folder, int(players))
            finally:
                profiler.dump_stats(args.profile)
            return
        run_ours(port, folder, int(players))
        return
    if args.bare_server:
        run_bare(args.bare_server)
        return
    if not (2 <= args.phones <= MAX_PHONES and 1 <= args.rounds <= MAX_ROUNDS):
        raise SystemExit(f"Use 2 to {MAX_PHONES} phones and 1 to {MAX_ROUNDS} rounds.")
    if not (0 < args.join <= MAX_SECONDS and 0 < args.choose <= MAX_SECONDS):
        raise SystemExit(f"--join and --choose are seconds up to {MAX_SECONDS:.0f}.")
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
