"""Phones under load: N simulated phones against the real phone server on 127.0.0.1.

Each phone opens its page, holds its live-update stream (server-sent events) and, during
planning, submits and changes its choice (a POST every THINK seconds on average, waiting to
see its own change on its stream first, as a person would). Figures:

- submit: from sending the POST to its answer, which comes after the session file's commit;
- fan-out: from sending a POST to the moment *every* connected phone has received an event
  at least as new as the first one that shows the change on the poster's own stream;
- the same two for a bare aiohttp server doing no work (no log, no views, no templates), with
  the same phones, in the same run, and the ratio of ours to bare;
- the server process's CPU time from the first page load to the last event (what the loop
  spent; a profile, ``--profile``, says on what);
- open files of the server process before the phones came and after they left (leak check),
  and whether every phone's last acknowledged choice is in the session file.

The server is the night's server, ``companion serve`` in its own process (as on the night:
the phones, the board and the game master's desk, its record beside the session file); the
phones share this process. The figure of record has the game master's console attached to it:
``companion --data-dir FOLDER resume bench`` in a tmux window of 120x36, which finds the
server through its record and follows the night over the desk's stream; its screen is read
every 0.1 s to show how soon its "k of N have chosen" follows the phones. ``--console`` says
what the console does meanwhile:

- ``running`` (the default): attached and drawing the whole run;
- ``stopped``: its terminal stopped (SIGSTOP) for the whole of planning, then let go on
  (SIGCONT): how soon it shows that everyone has chosen;
- ``killed``: its process group killed (SIGKILL) halfway through planning and opened again a
  second later; it must attach again (the desk counts it; ``companion sessions`` says so);
- ``none``: no console.

Beside it (``--beside``, default ``alone,bare``) the same phones load the same server with no
console (``alone``) and a bare aiohttp server (``bare``), each on a fresh session. The session
has one seat per phone up to 60 (more phones share seats): N prisoners (rules overridden to
allow N). The phones come from loopback addresses other than 127.0.0.1, ``--per-address`` of
them on each (default 4), so the server's limits per address apply to them as on the night.

Run: .venv/bin/python benchmarks/phones.py [--phones 50] [--seconds 10] [--think 2]
     [--console running|stopped|killed|none] [--beside alone,bare] [--per-address 4]
     [--rounds K]  (K runs of each, and the median of the record's p99 ratios to bare)
     .venv/bin/python benchmarks/phones.py --costs   (what one change costs, part by part)
     .venv/bin/python benchmarks/phones.py --each    (the server's CPU per change, one at a time)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MAX_PHONES = 200
MAX_SEATS = 60  # the most prisoners a scenario allows; more phones share seats
MAX_SECONDS = 120.0
CONSOLE_MODES = ("running", "stopped", "killed", "none")
ATTACH_SECONDS = 60.0  # the longest a console may take to open and attach


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000


def streams_ready(phones: int) -> tuple[Callable[[], None], asyncio.Event]:
    """What each phone calls once its stream is open, and the event set when all of them are."""
    connected = 0
    everyone = asyncio.Event()

    def ready() -> None:
        nonlocal connected
        connected += 1
        if connected == phones:
            everyone.set()

    return ready, everyone


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_port(args: argparse.Namespace, offset: int) -> int:
    """The port of one of the run's servers: ``--port`` plus ``offset`` (ours 0, bare 1), else
    any free port."""
    return args.port + offset if args.port else free_port()


def address(i: int, per: int = 1) -> str:
    """Phone ``i``'s loopback address, ``per`` phones on each: 127.0.1.1, 127.0.1.2, ...
    (never 127.0.0.1, the laptop's own, which the server's limits per address exempt)."""
    group = i // per
    return f"127.0.{1 + group // 250}.{1 + group % 250}"


# ---- the game master: the console and the desk ---------------------------------------------


class Console:
    """The game master's console (``argv``: ``companion --data-dir FOLDER resume NAME``) in a
    tmux window of 120x36, on a tmux server of the benchmark's own (its own socket).

    The window runs a shell that waits for the console (``sh -c 'CONSOLE; exit $?'``): tmux
    continues a process of its own window that stops (SIGCONT to its group at once), so the
    console must not be the window's own process to stay stopped. Stopping the console's
    terminal stops every process of its process group but that shell (the console and any
    child of it); killing it kills the whole group, shell included, and the window closes."""

    def __init__(self, argv: list[str], tag: str) -> None:
        self.argv = argv
        self.socket = f"{tag}-{os.getpid()}"
        self.opened = 0
        self.name = ""
        self.shell = 0  # the window's own process
        self.pid = 0  # the console's

    def tmux(self, *args: str, check: bool = True) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, check=check).stdout

    async def open(self) -> None:
        self.opened += 1
        self.name = f"console{self.opened}"
        self.tmux("new-session", "-d", "-s", self.name, "-x", "120", "-y", "36", "-c", str(ROOT),
                  f"{shlex.join(self.argv)}; status=$?; exit $status")
        self.shell = int(self.tmux("display-message", "-p", "-t", self.name, "#{pane_pid}"))
        for _ in range(250):
            children = Path(f"/proc/{self.shell}/task/{self.shell}/children")
            with contextlib.suppress(OSError, ValueError, IndexError):
                self.pid = int(children.read_text().split()[0])
                return
            await asyncio.sleep(0.02)
        raise SystemExit(f"the console did not start in its window:\n{await self.screen()}")

    def group(self) -> list[int]:
        """The processes of the console's process group but the window's shell."""
        pgid = os.getpgid(self.pid)
        out = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and int(entry.name) != self.shell:
                with contextlib.suppress(OSError):
                    if os.getpgid(int(entry.name)) == pgid:
                        out.append(int(entry.name))
        return out

    def stop(self) -> None:
        for pid in self.group():
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in self.group():
            os.kill(pid, signal.SIGCONT)

    def state(self) -> str:
        """The console process's state letter (R, S, T when stopped, Z), "" once it is gone."""
        try:
            status = Path(f"/proc/{self.pid}/status").read_text()
        except OSError:
            return ""
        return status.split("State:", 1)[1].split()[0]

    def alive(self) -> bool:
        return self.state() not in ("", "Z")

    async def screen(self) -> str:
        """The window's text now, its whitespace collapsed."""
        out = await asyncio.create_subprocess_exec(
            "tmux", "-L", self.socket, "capture-pane", "-p", "-t", self.name,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        )
        text, _ = await out.communicate()
        return " ".join(text.decode("utf-8", "replace").split())

    async def shows(self, pattern: str, seconds: float, every: float = 0.1) -> float | None:
        """When (wall clock) the screen first showed ``pattern`` (a regular expression), read
        every ``every`` s for up to ``seconds``; ``None`` if it never did."""
        found = re.compile(pattern)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if found.search(await self.screen()):
                return time.time()
            await asyncio.sleep(every)
        return None

    async def gone(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while self.alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return not self.alive()

    async def kill(self) -> None:
        """Its process group killed (the window's shell too), as a crashed terminal leaves it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(os.getpgid(self.pid), signal.SIGKILL)
        await self.gone(5)

    async def close(self) -> None:
        """Its window closed (the console hears SIGHUP), killed if it lingers; the benchmark's
        tmux server goes with its last window, and its socket with it."""
        if not self.name:
            return
        if self.state() == "T":
            self.resume()
        self.tmux("kill-session", "-t", self.name, check=False)
        if not await self.gone(5):
            await self.kill()
        if not self.tmux("list-sessions", check=False).strip():
            folder = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
            (folder / self.socket).unlink(missing_ok=True)


class GameMaster:
    """The game master's side of the night's server (its desk), with the game master's key,
    from the laptop's own address."""

    def __init__(self, base: str, key: str) -> None:
        self.base = base
        self.key = key
        self.http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))

    async def close(self) -> None:
        await self.http.close()

    async def ask(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        async with self.http.request(method, f"{self.base}{path}", json=body,
                                     headers={"Authorization": f"Bearer {self.key}"}) as r:
            answer: dict[str, Any] = await r.json()
            if r.status != 200:
                raise SystemExit(f"the desk answered {path} with {r.status}: {answer}")
            return answer

    async def consoles(self) -> int:
        return int((await self.ask("GET", "/api/gm/hello"))["consoles"])

    async def until_consoles(self, count: int, seconds: float = ATTACH_SECONDS) -> float | None:
        """Seconds until the desk counted ``count`` consoles attached, or ``None``."""
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            if await self.consoles() == count:
                return time.perf_counter() - start
            await asyncio.sleep(0.1)
        return None


@dataclass
class ConsoleFigures:
    """What the console did in a run, and what went wrong with it."""

    mode: str
    attached_in: float | None = None  # s from opening until the desk counted it
    cpu: float = -1.0  # its CPU seconds under the load (running)
    lags: list[float] = field(default_factory=list)  # its screen behind the phones (s)
    samples: int = 0
    caught_up: float | None = None  # stopped: s from SIGCONT until it showed the end state
    again_in: float | None = None  # killed: s from opening it again until it was counted
    sessions: str = ""  # killed: what ``companion sessions`` said afterwards
    problems: list[str] = field(default_factory=list)


async def kill_and_reopen(console: Console, gm: GameMaster, figures: ConsoleFigures) -> None:
    """The console's process group killed; once the desk has counted it gone and a second
    later, the console opened again, and the time until it is attached."""
    await console.kill()
    if await gm.until_consoles(0, 10) is None:
        figures.problems.append("the desk still counted the killed console after 10 s")
    await asyncio.sleep(1.0)
    await console.open()
    figures.again_in = await gm.until_consoles(1)
    if figures.again_in is None:
        figures.problems.append("the console opened again did not attach")


async def companion_sessions(folder: Path, name: str) -> str:
    """What ``companion sessions`` says of session ``name`` now (its line)."""
    out = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "companion", "--data-dir", str(folder), "sessions",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=ROOT,
    )
    text, _ = await asyncio.wait_for(out.communicate(), 60)
    lines = [line.strip() for line in text.decode("utf-8", "replace").splitlines()]
    return next((line for line in lines if line.startswith(name)), " ".join(lines))[:160]


async def wait_for_record(path: Path, pid: int, seconds: float = 10) -> None:
    """Until the night's server ``pid`` wrote its record beside the session file ``path``."""
    from companion.session.night import read_record

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        record = read_record(path)
        if record is not None and record.pid == pid:
            return
        await asyncio.sleep(0.05)
    raise SystemExit(f"the night's server wrote no record beside {path}")


# ---- the bare server: the same routes, doing nothing ---------------------------------------


def run_bare_server(port: int) -> None:
    """An aiohttp server with the phone routes and no work behind them."""
    from aiohttp import web

    choices: dict[str, str] = {}
    state = {"version": 0, "wake": asyncio.Event()}

    async def page(request: web.Request) -> web.Response:
        return web.Response(text="<!doctype html><p>seat</p>", content_type="text/html")

    async def choice(request: web.Request) -> web.Response:
        data = await request.json()
        choices[request.match_info["token"]] = data["choice"]
        state["version"] += 1
        wake, state["wake"] = state["wake"], asyncio.Event()
        wake.set()  # type: ignore[union-attr]
        return web.json_response({"ok": True})

    async def events(request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        seen = -1
        try:
            while True:
                version = state["version"]
                if version != seen:
                    data = json.dumps({"view": {"me": {"choice": choices.get(token)}}})
                    await response.write(f"event: view\nid: {version}\ndata: {data}\n\n".encode())
                    seen = int(version)  # type: ignore[call-overload]
                    continue
                await state["wake"].wait()  # type: ignore[union-attr]
        except ConnectionError:
            pass
        return response

    async def board(request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    app = web.Application()
    app.router.add_get("/p/{token}", page)
    app.router.add_get("/api/p/{token}/events", events)
    app.router.add_post("/api/p/{token}/choice", choice)
    app.router.add_get("/api/board", board)
    print("Serving phones (bare)", flush=True)
    web.run_app(app, host="127.0.0.1", port=port, access_log=None, print=None)


# ---- the phones ----------------------------------------------------------------------------


@dataclass
class Phone:
    name: str
    token: str
    events: list[tuple[int, float]] = field(default_factory=list)  # (id, received at)
    own: list[tuple[int, float, str | None]] = field(default_factory=list)  # my choice per id
    submits: list[float] = field(default_factory=list)
    probes: list[tuple[float, str]] = field(default_factory=list)  # (sent at, choice)
    acked: list[tuple[float, str]] = field(default_factory=list)  # (answered at, choice)
    failed: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)


async def hold_stream(http: aiohttp.ClientSession, base: str, phone: Phone, ready: Any) -> None:
    async with http.get(f"{base}/api/p/{phone.token}/events") as r:
        event_id = None
        event = "view"
        choice = None  # the phone's own choice as its page shows it
        ready()
        async for raw in r.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("id: "):
                event_id = int(line[4:])
            elif line.startswith("data: ") and event_id is not None:
                now = time.perf_counter()
                phone.events.append((event_id, now))
                if event == "view":  # a patch changes texts of the page, never its own choice
                    me = json.loads(line[6:])["view"].get("me") or {}
                    choice = me.get("choice")
                phone.own.append((event_id, now, choice))
                phone.changed.set()


async def choose_loop(
    http: aiohttp.ClientSession, base: str, phone: Phone, think: float, until: float,
    rng: random.Random,
) -> None:
    url = f"{base}/api/p/{phone.token}/choice"
    choice = rng.choice(["work", "rest"])
    await asyncio.sleep(rng.uniform(0, think))  # "choose now": everyone at about once
    while time.perf_counter() < until:
        sent = time.perf_counter()
        try:
            async with http.post(url, json={"choice": choice}) as r:
                await r.read()
                ok = r.status == 200
        except aiohttp.ClientError:
            ok = False
        if ok:
            phone.submits.append(time.perf_counter() - sent)
            phone.probes.append((sent, choice))
            phone.acked.append((time.perf_counter(), choice))
            deadline = time.perf_counter() + 5
            while not any(c == choice and t >= sent for _, t, c in phone.own[-5:]):
                phone.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(phone.changed.wait(), deadline - time.perf_counter())
                if time.perf_counter() >= deadline:
                    break
        else:
            phone.failed += 1
        choice = "rest" if choice == "work" else "work"
        await asyncio.sleep(rng.uniform(0, 2 * think))


def fan_out(phones: list[Phone]) -> list[float]:
    """For each acknowledged change: until every phone had an event at least as new as the
    first one showing the change on the poster's stream."""
    times = []
    for poster in phones:
        for sent, choice in poster.probes:
            shown = [i for i, t, c in poster.own if t >= sent and c == choice]
            if not shown:
                continue
            target = shown[0]
            arrivals = []
            for phone in phones:
                first = next((t for i, t in phone.events if i >= target), None)
                if first is None:
                    break
                arrivals.append(first)
            else:
                times.append(max(arrivals) - sent)
    return times


@dataclass
class Run:
    label: str
    phones: list[Phone]
    page_loads: list[float]
    fds: tuple[int, int] | None = None
    cpu: float = float("nan")  # the server's CPU seconds from the first page to the last event
    console: ConsoleFigures | None = None
    notes: list[str] = field(default_factory=list)  # what went wrong beside the phones

    @property
    def submits(self) -> list[float]:
        return [s for p in self.phones for s in p.submits]

    @property
    def fanouts(self) -> list[float]:
        return fan_out(self.phones)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has spent so far, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


async def wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as http:
        while True:
            try:
                async with http.get(f"http://127.0.0.1:{port}/api/board") as r:
                    if r.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"The server on port {port} did not start in {timeout:.0f} s.")
            await asyncio.sleep(0.1)


async def load(
    label: str, port: int, seats: list[tuple[str, str]], args: argparse.Namespace, pid: int,
    during: Callable[[list[Phone], float], Awaitable[None]] | None = None,
) -> Run:
    """``args.phones`` phones load the server on ``port``: each opens its page, holds its
    stream and changes its choice for ``args.seconds``; ``during`` runs beside planning (the
    phones and the moment it ends, perf_counter)."""
    base = f"http://127.0.0.1:{port}"
    phones = [Phone(*seats[i % len(seats)]) for i in range(args.phones)]
    rng = random.Random(args.seed)
    await asyncio.sleep(0.3)  # the start-up check's connection is closed by now
    before = open_files(pid)
    cpu = cpu_seconds(pid)
    sessions = [
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(address(i, args.per_address), 0)),
            timeout=aiohttp.ClientTimeout(total=30),
        )
        for i in range(len(phones))
    ]
    page_loads = []
    ready, all_ready = streams_ready(len(phones))

    for http, phone in zip(sessions, phones, strict=True):
        start = time.perf_counter()
        async with http.get(f"{base}/p/{phone.token}") as r:
            await r.read()
        page_loads.append(time.perf_counter() - start)
    streams = [
        asyncio.create_task(hold_stream(http, base, phone, ready))
        for http, phone in zip(sessions, phones, strict=True)
    ]
    await asyncio.wait_for(all_ready.wait(), 30)
    await asyncio.sleep(0.5)
    until = time.perf_counter() + args.seconds
    beside = asyncio.create_task(during(phones, until)) if during else None
    choosers = [
        asyncio.create_task(
            choose_loop(http, base, phone, args.think, until, random.Random(rng.random()))
        )
        for http, phone in zip(sessions, phones, strict=True)
    ]
    await asyncio.gather(*choosers)
    await asyncio.sleep(1.0)  # the last events arrive
    run = Run(label, phones, page_loads, cpu=cpu_seconds(pid) - cpu)
    if beside is not None:
        await beside
    for task in streams:
        task.cancel()
    for http in sessions:
        await http.close()
    await asyncio.sleep(0.5)
    # One more change wakes every stream; those of phones that left end there.
    async with aiohttp.ClientSession() as http:
        name, token = seats[0]
        for choice in ("work", "rest"):
            async with http.post(f"{base}/api/p/{token}/choice", json={"choice": choice}) as r:
                await r.read()
            phones[0].acked.append((time.perf_counter(), choice))
    await asyncio.sleep(0.5)
    run.fds = (before, open_files(pid))
    return run


async def each_change(port: int, seats: list[tuple[str, str]], args: argparse.Namespace,
                      pid: int, changes: int = 200) -> float:
    """The server's CPU seconds per change, one change at a time: a POST, then every phone's
    stream has its event, then the next (what the load skews least: CPU, not waiting)."""
    base = f"http://127.0.0.1:{port}"
    phones = [Phone(*seats[i % len(seats)]) for i in range(args.phones)]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        ready, all_ready = streams_ready(len(phones))

        streams = [asyncio.create_task(hold_stream(http, base, p, ready)) for p in phones]
        await asyncio.wait_for(all_ready.wait(), 30)
        await asyncio.sleep(0.5)
        choices = {p.name: "rest" for p in phones}
        cpu = cpu_seconds(pid)
        for k in range(changes):
            poster = phones[k % len(phones)]
            seen = [len(p.events) for p in phones]
            choices[poster.name] = "work" if choices[poster.name] == "rest" else "rest"
            url = f"{base}/api/p/{poster.token}/choice"
            async with http.post(url, json={"choice": choices[poster.name]}) as r:
                await r.read()
                if r.status != 200:
                    raise SystemExit(f"change {k}: the server answered {r.status}")
            deadline = time.perf_counter() + 5
            while any(len(p.events) <= n for p, n in zip(phones, seen, strict=True)):
                if time.perf_counter() > deadline:
                    deaf = sum(len(p.events) <= n for p, n in zip(phones, seen, strict=True))
                    raise SystemExit(f"change {k}: {deaf} phones did not hear of it in 5 s "
                                     f"(events so far: {seen[:5]}, answer {r.status})")
                await asyncio.sleep(0.001)
        spent = cpu_seconds(pid) - cpu
        for task in streams:
            task.cancel()
    await asyncio.sleep(0.5)
    url = f"{base}/api/p/{phones[0].token}/choice"
    async with aiohttp.ClientSession() as http, http.post(url, json={"choice": "work"}) as r:
        await r.read()  # one more change ends the streams left
    await asyncio.sleep(0.5)
    return spent / changes


async def each(args: argparse.Namespace) -> None:
    """``--each``: ours and bare, one change at a time, each ``--rounds`` times."""
    folder = Path(tempfile.mkdtemp(prefix="companion-phones-"))
    try:
        figures: dict[str, list[float]] = {"ours": [], "bare": []}
        for round_ in range(args.rounds):
            here = folder / str(round_)  # a fresh session each round: nobody has chosen
            seats = make_session(here, args.phones)
            for side in ("ours", "bare"):
                port = server_port(args, 0 if side == "ours" else 1)
                profile = ["-m", "cProfile", "-o", args.profile] if args.profile else []
                cmd = ([sys.executable, *profile, "-m", "companion", "--data-dir", str(here),
                        "serve",
                        "bench", "--host", "127.0.0.1", "--port", str(port)] if side == "ours"
                       else [sys.executable, __file__, "--bare-server", str(port)])
                process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.PIPE, cwd=ROOT)
                try:
                    await wait_for_port(port)
                    figures[side].append(await each_change(port, seats, args, process.pid))
                finally:
                    process.terminate()
                    process.wait(10)
        ours, bare = (statistics.median(figures[k]) * 1e6 for k in ("ours", "bare"))
        print(f"{args.phones} phones, one change at a time (a POST, then every phone has its "
              f"event), 200 changes a run, {args.rounds} runs each: server CPU per change, "
              f"median: ours {ours:.0f} us, bare {bare:.0f} us ({ours / bare:.2f}x); runs: "
              + ", ".join(f"{a * 1e6:.0f} / {b * 1e6:.0f}"
                          for a, b in zip(figures["ours"], figures["bare"], strict=True)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---- the runs ------------------------------------------------------------------------------


def make_session(folder: Path, n: int) -> list[tuple[str, str]]:
    from companion.session.prison.create import create_prison_session
    from companion.session.prison.seats import seats_of

    names = [f"P{i:03d}" for i in range(1, min(n, MAX_SEATS) + 1)]
    session = create_prison_session(
        folder, "bench", "classic", "Wendy", names,
        rules_overrides={"min_prisoners": min(4, n), "max_prisoners": max(len(names), 4)},
    )
    seats = [(s.name, s.token) for s in seats_of(session) if s.role == "prisoner"]
    session.close()
    return seats


def check_file(folder: Path, run: Run) -> str:
    from companion.session.session import Session

    session = Session.open(folder / "bench.sqlite")
    try:
        choices = session.state.day.choices
        last: dict[str, tuple[float, str]] = {}
        for phone in run.phones:  # the seat's last acknowledged choice, whichever phone made it
            for acked in phone.acked:
                last[phone.name] = max(last.get(phone.name, acked), acked)
        lost = [name for name, (_, choice) in last.items() if choices.get(name) != choice]
        ok = (session.store._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")
    finally:
        session.close()
    if lost or not ok:
        raise SystemExit(f"LOST: {lost}, integrity ok: {ok}")
    return f"every seat's last acknowledged choice is in the session file ({len(last)} seats)"


async def run_ours(args: argparse.Namespace, folder: Path, seats: list[tuple[str, str]],
                   mode: str = "none") -> Run:
    """The load on ``companion serve`` (the night's server), the game master's console attached
    to it and doing what ``mode`` says (``none``: no console)."""
    from companion.session.night import game_master_key, read_record

    port = server_port(args, 0)
    profile = ["-m", "cProfile", "-o", args.profile] if args.profile and mode == args.console \
        else []
    cmd = [sys.executable, *profile, "-m", "companion", "--data-dir", str(folder), "serve",
           "bench", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    path = folder / "bench.sqlite"
    figures = ConsoleFigures(mode) if mode != "none" else None
    label = f"ours + console ({mode})" if figures else "ours alone"
    console: Console | None = None
    gm: GameMaster | None = None
    try:
        await wait_for_port(port)
        await wait_for_record(path, process.pid)
        gm = GameMaster(f"http://127.0.0.1:{port}", game_master_key(path))
        during = None
        if figures is not None:
            console = Console([sys.executable, "-m", "companion", "--data-dir", str(folder),
                               "resume", "bench"], "companion-phones")
            await console.open()
            figures.attached_in = await gm.until_consoles(1)
            if figures.attached_in is None:
                raise SystemExit(f"the console did not attach in {ATTACH_SECONDS:.0f} s:\n"
                                 f"{await console.screen()}")
            during = console_beside(console, gm, figures, len(seats))
        run = await load(label, port, seats, args, process.pid, during)
        run.console = figures
        if figures is not None and mode == "killed":
            figures.sessions = await companion_sessions(folder, "bench")
            if "1 console" not in figures.sessions:
                figures.problems.append(f"companion sessions said: {figures.sessions}")
    finally:
        if console is not None:
            await console.close()  # before the server: a console goes with its night
        if gm is not None:
            await gm.close()
        process.terminate()
        process.wait(10)
    left = read_record(path)
    if left is not None:
        said = (f"a second night's server (pid {left.pid}) served the session"
                if left.pid != process.pid else "the night's record was left behind")
        (figures.problems if figures else run.notes).append(said)
        if left.pid != process.pid:
            with contextlib.suppress(OSError):
                os.kill(left.pid, signal.SIGTERM)
    return run


CHOSEN = re.compile(r"(\d+) of (\d+) ha(?:s|ve) chosen|Chosen: (\d+) of (\d+)|Everyone has chosen")


def chosen_shown(screen: str, seats: int) -> int | None:
    """How many seats have chosen, as the console's screen says it (``None``: it does not)."""
    counts = []
    for found in CHOSEN.finditer(screen):
        if found.group(0).startswith("Everyone"):
            counts.append(seats)
        else:
            counts.append(int(found.group(1) or found.group(3)))
    return max(counts) if counts else None


def console_beside(
    console: Console, gm: GameMaster, figures: ConsoleFigures, seats: int
) -> Callable[[list[Phone], float], Awaitable[None]]:
    """What the console does while the phones plan (``figures.mode``), and what it showed."""

    async def running(phones: list[Phone], until: float) -> None:
        cpu = cpu_seconds(console.pid)
        shown: list[tuple[float, int]] = []
        while time.perf_counter() < until + 1.0:
            count = chosen_shown(await console.screen(), seats)
            if count is not None:
                shown.append((time.perf_counter(), count))
            await asyncio.sleep(0.1)
        figures.cpu = cpu_seconds(console.pid) - cpu
        first: dict[str, float] = {}  # when each seat's first choice was acknowledged
        for p in phones:
            if p.acked:
                first[p.name] = min(first.get(p.name, p.acked[0][0]), p.acked[0][0])
        for k, acked_at in enumerate(sorted(first.values()), start=1):
            seen = next((t for t, count in shown if count >= k and t >= acked_at), None)
            if seen is not None:
                figures.lags.append(seen - acked_at)
        figures.samples = len(shown)
        if not shown or shown[-1][1] < len(first):
            figures.problems.append("the console never showed every seat's choice")
        if await gm.consoles() != 1:
            figures.problems.append("the console was no longer attached after planning")

    async def stopped(phones: list[Phone], until: float) -> None:
        console.stop()  # the terminal frozen for the whole of planning
        await asyncio.sleep(max(0.0, until - time.perf_counter()) + 1.0)
        if console.state() != "T":
            figures.problems.append("the console's process was not stopped")
        if chosen_shown(await console.screen(), seats) == seats:
            figures.problems.append("the stopped console's screen changed")
        console.resume()
        let_go = time.time()
        seen = await console.shows(
            rf"Everyone has chosen|Chosen: {seats} of {seats}|{seats} of {seats} have chosen", 30)
        if seen is None:
            figures.problems.append("the console let go on never showed that everyone chose")
        else:
            figures.caught_up = seen - let_go
        if await gm.until_consoles(1, 10) is None:
            figures.problems.append("the console let go on was no longer attached")

    async def killed(phones: list[Phone], until: float) -> None:
        await asyncio.sleep(max(0.0, until - time.perf_counter()) / 2)
        await kill_and_reopen(console, gm, figures)
        if await console.shows(r"have chosen|Everyone has chosen|Chosen:", 20) is None:
            figures.problems.append("the console opened again does not show the room")

    return {"running": running, "stopped": stopped, "killed": killed}[figures.mode]


async def run_bare(args: argparse.Namespace, seats: list[tuple[str, str]]) -> Run:
    port = server_port(args, 1)
    cmd = [sys.executable, __file__, "--bare-server", str(port)]
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        await wait_for_port(port)
        return await load("bare aiohttp", port, seats, args, process.pid)
    finally:
        process.terminate()
        process.wait(10)


def ratios(ours: Run, bare: Run) -> tuple[float, float, float]:
    """Ours over bare at p99: submit, fan-out and the page load at the rush."""
    return (
        pct(ours.submits, .99) / pct(bare.submits, .99),
        pct(ours.fanouts, .99) / pct(bare.fanouts, .99),
        pct(ours.page_loads, .99) / pct(bare.page_loads, .99),
    )


def report(runs: list[Run], args: argparse.Namespace, checks: list[str]) -> None:
    n = len(runs[0].phones)
    seats = len({p.name for p in runs[0].phones})
    load = os.getloadavg()[0]
    print(f"{n} phones on {seats} prisoners' seats, {args.seconds:g} s of planning, "
          f"a POST every ~{args.think:g} s per phone ({args.per_address} a loopback address, "
          f"server in its own process, {os.cpu_count()} cores, load average {load:.2f} at the "
          f"end); console: {args.console}, the figure of record: {runs[0].label}")
    header = f"{'':34}" + "".join(f"{r.label:>24}" for r in runs)
    print(header)

    def row(label: str, values: list[str]) -> None:
        print(f"{label:34}" + "".join(f"{v:>24}" for v in values))

    row("submits acknowledged", [str(len(r.submits)) for r in runs])
    row("submit p50 / p99 (ms)",
        [f"{pct(r.submits, .5):.1f} / {pct(r.submits, .99):.1f}" for r in runs])
    row("fan-out to all p50 / p99 (ms)",
        [f"{pct(r.fanouts, .5):.1f} / {pct(r.fanouts, .99):.1f}" for r in runs])
    row("events received by phones", [str(sum(len(p.events) for p in r.phones)) for r in runs])
    row("page load p50 (ms)", [f"{pct(r.page_loads, .5):.1f}" for r in runs])
    row("page load p99 (ms)", [f"{pct(r.page_loads, .99):.1f}" for r in runs])
    row("failed requests", [str(sum(p.failed for p in r.phones)) for r in runs])
    row("server CPU, pages to last event (s)", [f"{r.cpu:.2f}" for r in runs])
    row("server open files before / after",
        [f"{r.fds[0]} / {r.fds[1]}" if r.fds else "-" for r in runs])
    bare = next((r for r in runs if r.label.startswith("bare")), None)
    if bare is not None:
        for r in runs:
            if r is bare:
                continue
            s, f, page = ratios(r, bare)
            print(f"ratio {r.label} / bare (p99): submit {s:.2f}x, fan-out {f:.2f}x, "
                  f"page load {page:.2f}x")
    for r in runs:
        c = r.console
        if c is None:
            continue
        said = [f"attached {c.attached_in:.1f} s after it opened"] if c.attached_in else []
        if c.samples:
            said.append(f"its 'k of {seats} have chosen' behind the phones p50 "
                        f"{pct(c.lags, .5):.0f} ms, max {pct(c.lags, 1):.0f} ms ({c.samples} "
                        f"screen samples, 0.1 s apart); its CPU under the load {c.cpu:.2f} s")
        if c.caught_up is not None:
            said.append(f"stopped for the whole of planning, then let go on: it showed that "
                        f"everyone chose {c.caught_up * 1000:.0f} ms later")
        if c.again_in is not None:
            said.append(f"killed halfway through planning and opened again: attached in "
                        f"{c.again_in:.1f} s; companion sessions: {c.sessions}")
        print(f"console ({c.mode}): " + "; ".join(said))
    for line in checks:
        print(line)


async def main(args: argparse.Namespace) -> None:
    rounds: list[tuple[float, float, float]] = []  # submit, fan-out, page load: ours / bare
    for round_ in range(1, args.rounds + 1):
        if args.rounds > 1:
            print(f"--- round {round_} of {args.rounds}")
        runs = await one_round(args)
        bare = next((r for r in runs if r.label.startswith("bare")), None)
        if bare is not None:
            rounds.append(ratios(runs[0], bare))
    if args.rounds > 1 and rounds:
        submit, fan, page = (sorted(r[i] for r in rounds) for i in range(3))
        print(f"ratio {runs[0].label} / bare (p99), {args.rounds} rounds, each set run "
              f"back to back: submit median {statistics.median(submit):.2f}x "
              f"(range {submit[0]:.2f}-{submit[-1]:.2f}), fan-out median "
              f"{statistics.median(fan):.2f}x (range {fan[0]:.2f}-{fan[-1]:.2f}), "
              f"page load median {statistics.median(page):.2f}x "
              f"(range {page[0]:.2f}-{page[-1]:.2f})")


async def one_round(args: argparse.Namespace) -> list[Run]:
    """The figure of record (ours with the console doing ``args.console``), then what is
    measured beside it, each on a fresh session; the figures, and what was lost, if anything."""
    folder = Path(tempfile.mkdtemp(prefix="companion-phones-"))
    plan = [args.console]
    if "alone" in args.beside and args.console != "none":
        plan.append("none")
    try:
        runs: list[Run] = []
        checks: list[str] = []
        problems: list[str] = []
        for k, mode in enumerate(plan):
            here = folder / f"run{k}"
            seats = make_session(here, args.phones)
            run = await run_ours(args, here, seats, mode)
            runs.append(run)
            checks.append(f"{run.label}: " + check_file(here, run))
            problems += [f"{run.label}: {p}" for p in
                         (run.console.problems if run.console else []) + run.notes]
        if "bare" in args.beside:
            runs.append(await run_bare(args, make_session(folder / "bare", args.phones)))
        report(runs, args, checks)
        failed = [f"{r.label}: {n} failed requests" for r in runs
                  if (n := sum(p.failed for p in r.phones))]
        for problem in problems + failed:
            print(f"PROBLEM {problem}")
        print("nothing lost: " + ("yes" if not problems + failed else "NO"))
        if problems or failed:
            raise SystemExit("LOST or a console problem: see above")
        return runs
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def costs(n: int) -> None:
    """What one change costs the server, part by part, with n prisoners (in this process)."""
    from companion.session.prison.create import create_prison_session
    from companion.session.prison.seats import by_token, seats_of
    from companion.web.common.context import Limiter, Presence
    from companion.web.prison.pages import render_seat_part
    from companion.web.prison.phones import NightContext, seat_view

    folder = Path(tempfile.mkdtemp(prefix="companion-costs-"))
    names = [f"P{i:03d}" for i in range(1, min(n, MAX_SEATS) + 1)]
    session = create_prison_session(
        folder, "costs", "classic", "Wendy", names,
        rules_overrides={"min_prisoners": min(4, len(names)), "max_prisoners": len(names)},
    )
    seats = seats_of(session)
    seat = seats[len(seats) // 2]
    phones = NightContext(session, Limiter(), Presence(session))
    flip = ["work"]

    def submit() -> None:
        flip[0] = "rest" if flip[0] == "work" else "work"
        session.submit({"do": "choose", "prisoner": names[0], "choice": flip[0]})

    def timed(label: str, func: Any, rounds: int = 300) -> float:
        start = time.perf_counter()
        for _ in range(rounds):
            func()
        each = (time.perf_counter() - start) / rounds
        print(f"  {label:58} {each * 1e6:8.0f} us")
        return each

    print(f"One change with {len(names)} prisoners, part by part (this process):")
    timed("Session.submit: decide, SQLite commit (synchronous=FULL)", submit, 100)
    timed("seat lookup from the metadata (seats_of, uncached)", lambda: seats_of(session))
    timed("seat lookup (NightContext.seats, kept until the setting changes)", phones.seats)
    timed("constant-time token comparison over every seat", lambda: by_token(seats, seat.token))
    view = seat_view(session, seat)
    timed("a prisoner's view (the room's game and stage)", lambda: seat_view(session, seat))
    timed("render the seat's live part (shared roster part cached)",
          lambda: render_seat_part(view, seat))
    data = {"view": view, "html": render_seat_part(view, seat)}
    timed("encode the event (JSON)", lambda: json.dumps(data, ensure_ascii=False))
    session.close()
    shutil.rmtree(folder, ignore_errors=True)
    stream_costs(names)
    asyncio.run(console_costs(names))


def stream_costs(names: list[str]) -> None:
    """What the prisoners' streams cost at a first choice (the count changes on every page):
    the chooser's whole part, and each other prisoner's patch of the counts' line, through
    the server's own message function with every stream's memory of what it sent."""
    from companion.language import language
    from companion.session.prison.create import create_prison_session
    from companion.session.prison.seats import seats_of
    from companion.web.common.context import Limiter, Presence, log_version
    from companion.web.common.fanout import Push, show
    from companion.web.common.outbox import Outbox
    from companion.web.prison.api import prisoner_page
    from companion.web.prison.phones import NightContext, StreamMemory

    folder = Path(tempfile.mkdtemp(prefix="companion-costs-"))
    session = create_prison_session(
        folder, "costs", "classic", "Wendy", names,
        rules_overrides={"min_prisoners": min(4, len(names)), "max_prisoners": len(names)},
    )
    phones = NightContext(session, Limiter(), Presence(session))
    prisoners = [s for s in seats_of(session) if s.role == "prisoner"]
    lang = language()
    boxes = {s.name: Outbox(s.token, lang, StreamMemory(s.token), None) for s in prisoners}

    def wake() -> tuple[float, float, int]:
        """Every prisoner's message for the current state: (the whole parts' time, the
        patches' time, how many patches)."""
        room, stage = session.room.game, session.room.stage
        push = Push(log_version(session), True)
        whole = patches = 0.0
        count = 0
        for seat in prisoners:
            box = boxes[seat.name]
            start = time.perf_counter()
            show(push, box, prisoner_page(phones, box, seat, room, stage))
            message = box.take()
            spent = time.perf_counter() - start
            if message.startswith(b"event: view"):
                whole += spent
            else:
                patches += spent
                count += 1
        return whole, patches, count

    wake()  # every stream's first message: the whole part
    changes = 0
    whole = patches = 0.0
    streams = 0
    for name in names[: min(40, len(names))]:
        session.submit({"do": "choose", "prisoner": name, "choice": "work"})
        chooser, rest, count = wake()
        changes += 1
        whole += chooser
        patches += rest
        streams += count
    print(f"  {'the chooser stream: its whole part rendered and encoded':58} "
          f"{whole / changes * 1e6:8.0f} us")
    print(f"  {'every other prisoner stream: the counts line (a patch)':58} "
          f"{patches / max(streams, 1) * 1e6:8.0f} us  "
          f"(x {streams / changes:.0f} streams; the patch made once per language)")
    session.close()
    shutil.rmtree(folder, ignore_errors=True)


async def console_costs(names: list[str]) -> None:
    """What one change costs the console's loop (the board redrawn), measured by CPU time."""
    from companion.session.prison.create import create_prison_session
    from companion.tui.prison.app import ConsoleApp

    folder = Path(tempfile.mkdtemp(prefix="companion-costs-"))
    session = create_prison_session(
        folder, "costs", "classic", "Wendy", names,
        rules_overrides={"min_prisoners": min(4, len(names)), "max_prisoners": len(names)},
    )
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        rounds = min(20, len(names))
        cpu = time.process_time()
        for _ in range(rounds):
            await asyncio.sleep(0.15)  # the same time with nothing happening
        idle = time.process_time() - cpu
        cpu = time.process_time()
        for name in names[:rounds]:
            session.submit({"do": "choose", "prisoner": name, "choice": "work"})
            await asyncio.sleep(0.15)  # one change at a time, fully drawn
        each = (time.process_time() - cpu - idle) / rounds
    print(f"  {'the console: one change heard, its cells redrawn (CPU)':58} "
          f"{each * 1e6:8.0f} us  (idle {idle / rounds * 1e6:.0f} us per 0.15 s subtracted)")
    session.close()
    shutil.rmtree(folder, ignore_errors=True)


def arguments(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--phones", type=int, default=50, help=f"1 to {MAX_PHONES} (default 50)")
    p.add_argument("--seconds", type=float, default=10.0, help="length of planning (default 10)")
    p.add_argument("--think", type=float, default=2.0, help="mean seconds between a phone's POSTs")
    p.add_argument("--console", nargs="?", const="running", default="running",
                   choices=CONSOLE_MODES,
                   help="what the game master's console (in tmux) does during the figure of "
                   "record: running (the default), stopped, killed, or none")
    p.add_argument("--beside", default="alone,bare",
                   help="measured beside it, comma-separated: alone (the server with no "
                   "console), bare (a bare aiohttp server), none (default alone,bare)")
    p.add_argument("--per-address", type=int, default=4,
                   help="phones on each loopback address (default 4)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--port", type=int, default=0,
                   help="the servers listen on PORT (ours) and PORT+1 (bare) on 127.0.0.1 "
                   "(default: any free ports)")
    p.add_argument("--rounds", type=int, default=1,
                   help="run them all this many times (1 to 10), and print the median ratio")
    p.add_argument("--costs", action="store_true", help="only print what one change costs")
    p.add_argument("--each", action="store_true",
                   help="only the server's CPU per change, one change at a time, ours and bare")
    p.add_argument("--profile", metavar="FILE",
                   help="run companion serve under cProfile, its statistics written to FILE")
    p.add_argument("--bare-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.bare_server is None:
        if not 1 <= args.phones <= MAX_PHONES:
            p.error(f"--phones must be 1 to {MAX_PHONES}")
        if not 1 <= args.rounds <= 10:
            p.error("--rounds must be 1 to 10")
        if not 0 < args.seconds <= MAX_SECONDS or args.think <= 0:
            p.error(f"--seconds must be above 0 and at most {MAX_SECONDS:g}; --think above 0")
        if not 1 <= args.per_address <= 16:
            p.error("--per-address must be 1 to 16 (the streams one address may hold)")
        args.beside = {b.strip() for b in args.beside.split(",")} - {"none", ""}
        if not args.beside <= {"alone", "bare"}:
            p.error("--beside takes alone, bare or none (comma-separated)")
        if args.console != "none" and not (args.costs or args.each) and (
                shutil.which("tmux") is None):
            p.error("the console runs in tmux; install it, or use --console none")
    return args


if __name__ == "__main__":
    parsed = arguments(sys.argv[1:])
    if parsed.bare_server is not None:
        run_bare_server(parsed.bare_server)
    elif parsed.costs:
        costs(parsed.phones)
    elif parsed.each:
        asyncio.run(each(parsed))
    else:
        asyncio.run(main(parsed))
