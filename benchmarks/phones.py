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

``--console`` runs the load against the game master's console itself (``companion resume``
in a tmux window, the phone server inside its loop) and samples its screen every 0.1 s to show
how soon the board's "k of N have chosen" follows the phones.

The server runs in its own process (as on the night); the phones share this one.
The session has one seat per phone: N prisoners (rules overridden to allow N).

Run: .venv/bin/python benchmarks/phones.py [--phones 50] [--seconds 10] [--think 2] [--console]
     [--rounds K]  (K pairs of runs, ours then bare, and the median of their p99 ratios)
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
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MAX_PHONES = 200
MAX_SEATS = 60  # the most prisoners a scenario allows; more phones share seats
MAX_SECONDS = 120.0


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
    """The port of one of the run's servers: ``--port`` plus ``offset`` (ours 0, bare 1, the
    console 2), else any free port."""
    return args.port + offset if args.port else free_port()


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
    console_lag: list[float] = field(default_factory=list)
    console_samples: int = 0

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
    sampler: Any = None,
) -> Run:
    base = f"http://127.0.0.1:{port}"
    phones = [Phone(*seats[i % len(seats)]) for i in range(args.phones)]
    rng = random.Random(args.seed)
    await asyncio.sleep(0.3)  # the start-up check's connection is closed by now
    before = open_files(pid)
    cpu = cpu_seconds(pid)
    sessions = [
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) for _ in phones
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
    sampling = asyncio.create_task(sampler(phones, until)) if sampler else None
    choosers = [
        asyncio.create_task(
            choose_loop(http, base, phone, args.think, until, random.Random(rng.random()))
        )
        for http, phone in zip(sessions, phones, strict=True)
    ]
    await asyncio.gather(*choosers)
    await asyncio.sleep(1.0)  # the last events arrive
    run = Run(label, phones, page_loads, cpu=cpu_seconds(pid) - cpu)
    if sampling is not None:
        run.console_lag, run.console_samples = await sampling
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


async def run_ours(args: argparse.Namespace, folder: Path, seats: list[tuple[str, str]]) -> Run:
    port = server_port(args, 0)
    profile = ["-m", "cProfile", "-o", args.profile] if args.profile else []
    cmd = [sys.executable, *profile, "-m", "companion", "--data-dir", str(folder), "serve",
           "bench", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        await wait_for_port(port)
        return await load("ours: companion serve", port, seats, args, process.pid)
    finally:
        process.terminate()
        process.wait(10)


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


async def run_console(
    args: argparse.Namespace, folder: Path, seats: list[tuple[str, str]]
) -> Run:
    """The same load against the console (tmux window), sampling its screen."""
    port = server_port(args, 2)
    name = f"bench-console-{os.getpid()}"
    cmd = (f"{sys.executable} -m companion --data-dir {folder} resume bench "
           f"--host 127.0.0.1 --port {port}")
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "120", "-y", "36", cmd],
                   check=True, cwd=ROOT)
    pattern = re.compile(r"(\d+) of (\d+) have chosen")

    async def sampler(phones: list[Phone], until: float) -> tuple[list[float], int]:
        shown: list[tuple[float, int]] = []
        while time.perf_counter() < until + 1.0:
            out = await asyncio.create_subprocess_exec(
                "tmux", "capture-pane", "-p", "-t", name, stdout=asyncio.subprocess.PIPE
            )
            text, _ = await out.communicate()
            found = pattern.search(" ".join(text.decode().split()))
            if found:
                shown.append((time.perf_counter(), int(found.group(1))))
            await asyncio.sleep(0.1)
        first: dict[str, float] = {}  # when each seat's first choice was acknowledged
        for p in phones:
            if p.acked:
                first[p.name] = min(first.get(p.name, p.acked[0][0]), p.acked[0][0])
        firsts = sorted(first.values())
        lags = []
        for k, acked_at in enumerate(firsts, start=1):
            seen = next((t for t, count in shown if count >= k and t >= acked_at), None)
            if seen is not None:
                lags.append(seen - acked_at)
        return lags, len(shown)

    try:
        await wait_for_port(port)
        pid = int(subprocess.run(["tmux", "display-message", "-p", "-t", name, "#{pane_pid}"],
                                 capture_output=True, text=True, check=True).stdout)
        return await load("ours: the console", port, seats, args, pid, sampler)
    finally:
        subprocess.run(["tmux", "send-keys", "-t", name, "q"], check=False)
        await asyncio.sleep(1.0)
        subprocess.run(["tmux", "kill-session", "-t", name], check=False,
                       stderr=subprocess.DEVNULL)


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
    print(f"{n} phones on {seats} prisoners' seats, {args.seconds:g} s of planning, "
          f"a POST every ~{args.think:g} s per phone "
          f"(127.0.0.1, server in its own process, {os.cpu_count()} cores)")
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
        if r.console_samples:
            print(f"console board ('k of {seats} have chosen') behind the phones: "
                  f"p50 {pct(r.console_lag, .5):.0f} ms, max {pct(r.console_lag, 1):.0f} ms "
                  f"({r.console_samples} screen samples, 0.1 s apart)")
    for line in checks:
        print(line)


async def main(args: argparse.Namespace) -> None:
    rounds: list[tuple[float, float, float]] = []  # submit, fan-out, page load: ours / bare
    for round_ in range(1, args.rounds + 1):
        if args.rounds > 1:
            print(f"--- round {round_} of {args.rounds}")
        runs = await one_round(args)
        rounds.append(ratios(runs[0], runs[1]))
    if args.rounds > 1:
        submit, fan, page = (sorted(r[i] for r in rounds) for i in range(3))
        print(f"ratio companion serve / bare (p99), {args.rounds} rounds, each pair run "
              f"back to back: submit median {statistics.median(submit):.2f}x "
              f"(range {submit[0]:.2f}-{submit[-1]:.2f}), fan-out median "
              f"{statistics.median(fan):.2f}x (range {fan[0]:.2f}-{fan[-1]:.2f}), "
              f"page load median {statistics.median(page):.2f}x "
              f"(range {page[0]:.2f}-{page[-1]:.2f})")


async def one_round(args: argparse.Namespace) -> list[Run]:
    folder = Path(tempfile.mkdtemp(prefix="companion-phones-"))
    try:
        seats = make_session(folder, args.phones)
        runs = [await run_ours(args, folder, seats)]
        checks = ["serve: " + check_file(folder, runs[0])]
        runs.append(await run_bare(args, seats))
        if args.console:
            if shutil.which("tmux") is None:
                raise SystemExit("--console needs tmux.")
            fresh = folder / "console"
            seats = make_session(fresh, args.phones)
            runs.append(await run_console(args, fresh, seats))
            checks.append("console: " + check_file(fresh, runs[-1]))
        report(runs, args, checks)
        return runs
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def costs(n: int) -> None:
    """What one change costs the server, part by part, with n prisoners (in this process)."""
    from companion.session.prison.create import create_prison_session
    from companion.session.prison.seats import by_token, seats_of
    from companion.web.common.context import Limiter, Presence
    from companion.web.prison.pages import render_seat_part
    from companion.web.prison.phones import Phones, seat_view

    folder = Path(tempfile.mkdtemp(prefix="companion-costs-"))
    names = [f"P{i:03d}" for i in range(1, min(n, MAX_SEATS) + 1)]
    session = create_prison_session(
        folder, "costs", "classic", "Wendy", names,
        rules_overrides={"min_prisoners": min(4, len(names)), "max_prisoners": len(names)},
    )
    seats = seats_of(session)
    seat = seats[len(seats) // 2]
    phones = Phones(session, Limiter(), Presence(session))
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
    timed("seat lookup (Phones.seats, cached on the stored text)", phones.seats)
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
    from companion.web.common.context import Limiter, Presence
    from companion.web.prison.api import prisoner_message
    from companion.web.prison.phones import Phones, Watch

    folder = Path(tempfile.mkdtemp(prefix="companion-costs-"))
    session = create_prison_session(
        folder, "costs", "classic", "Wendy", names,
        rules_overrides={"min_prisoners": min(4, len(names)), "max_prisoners": len(names)},
    )
    phones = Phones(session, Limiter(), Presence(session))
    prisoners = [s for s in seats_of(session) if s.role == "prisoner"]
    shown = {s.name: Watch(s.token) for s in prisoners}
    lang = language()

    def wake() -> tuple[float, float, int]:
        """Every prisoner's message for the current state: (the whole parts' time, the
        patches' time, how many patches)."""
        room, stage = session.room.game, session.room.stage
        whole = patches = 0.0
        count = 0
        for seat in prisoners:
            start = time.perf_counter()
            message = prisoner_message(phones, shown[seat.name], seat, lang, room, stage)
            spent = time.perf_counter() - start
            if isinstance(message, str):
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
    p.add_argument("--console", action="store_true", help="also load the console (needs tmux)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--port", type=int, default=0,
                   help="the servers listen on PORT (ours), PORT+1 (bare) and PORT+2 (the "
                   "console) on 127.0.0.1 (default: any free ports)")
    p.add_argument("--rounds", type=int, default=1,
                   help="run ours and bare this many times (1 to 10), and print the median ratio")
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
