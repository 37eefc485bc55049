"""A game master's trial of the warm-up, end to end: the real console in tmux (its phone server
on 127.0.0.1), a room of phones of which some are real headless Chromium pages and the rest
scripted, the board in Chromium at 1920x1080, a round timer set from the console, and a whole
tournament. Each round some scripted phones give no answer, so the timer closes it.

It prints what happened round by round (who answered, how long the reveal took to reach every
phone, what the board and the Chromium phones show) and writes screenshots of the board, a
Chromium phone and the console into the folder it names. Not a test: a trial to look at.

    .venv/bin/python benchmarks/dilemma_room_trial.py --phones 31 --chromium 6 --seconds 15
    .venv/bin/python benchmarks/dilemma_room_trial.py --phones 1000 --join 50 --seconds 30

Over 300 phones it plays the lecture hall's scenario (``dilemma-hall``); each scripted phone
has its own loopback address and cookies, as a phone in the hall has.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.dilemma_hall import (  # noqa: E402
    Phone,
    address,
    hold_stream,
    join,
    raise_file_limit,
)
from benchmarks.phones import free_port, wait_for_port  # noqa: E402
from tests.chromium import CHROMIUM, Chromium, Page  # noqa: E402

COMPANION = str(Path(sys.executable).parent / "companion")
TMUX = "companion-room-trial"


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def keys(*typed: str) -> None:
    for key in typed:
        tmux("send-keys", "-t", TMUX, key)
        time.sleep(0.4)


def console_text() -> str:
    return tmux("capture-pane", "-p", "-t", TMUX)


async def board_view(http: aiohttp.ClientSession, base: str) -> dict[str, object]:
    async with http.get(f"{base}/api/board") as r:
        data: dict[str, object] = await r.json()
    return data


async def chromium_join(chromium: Chromium, url: str, name: str) -> Page:
    page = await chromium.open(url)
    await page.send(
        "Emulation.setDeviceMetricsOverride", width=360, height=740, deviceScaleFactor=2,
        mobile=True,
    )
    await page.wait_for("document.getElementById('name')")
    await page.js(
        f"document.getElementById('name').value = {json.dumps(name)};"
        "document.querySelector('form button[type=submit]').click(); true"
    )
    await page.wait_for("location.pathname.startsWith('/d/') && document.body.dataset.live")
    return page


async def trial(args: argparse.Namespace, shots: Path) -> None:
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="companion-room-trial-"))
    command = (
        f"{COMPANION} --data-dir {data} dilemma room --host 127.0.0.1 --port {port} "
        f"--lang {args.lang} --scenario {args.scenario}"
    )
    subprocess.run(["tmux", "kill-session", "-t", TMUX], capture_output=True)
    tmux("new", "-d", "-s", TMUX, "-x", "120", "-y", "36", command)
    chromium = Chromium()
    rng = random.Random(args.seed)
    try:
        await wait_for_port(port)
        base = f"http://127.0.0.1:{port}"
        await chromium.start()
        board = await chromium.open(f"{base}/board")
        await board.send(
            "Emulation.setDeviceMetricsOverride", width=1920, height=1080, deviceScaleFactor=1,
            mobile=False,
        )
        await board.wait_for("document.body.dataset.live")
        names = [f"Player{n:02d}" for n in range(1, args.phones + 1)]
        live = names[: args.chromium]
        pages = {name: await chromium_join(chromium, f"{base}/join-room", name) for name in live}
        http = aiohttp.ClientSession()
        scripted = [Phone(name) for name in names[args.chromium :]]
        own = {  # each scripted phone: its own address and cookies, no total timeout
            p.name: aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(address(i), 0)),
                timeout=aiohttp.ClientTimeout(total=None, connect=30, sock_connect=30),
            )
            for i, p in enumerate(scripted)
        }
        started = time.perf_counter()
        await asyncio.gather(
            *(join(own[p.name], base, p, rng.uniform(0, args.join)) for p in scripted)
        )
        streams = [
            asyncio.create_task(hold_stream(own[p.name], base, p, True)) for p in scripted
        ]
        print(f"{args.phones} phones joined ({args.chromium} in Chromium) in "
              f"{time.perf_counter() - started:.1f} s")
        await board.wait_for(f"document.body.innerText.includes('{args.phones}')", 30)
        await board.screenshot(shots / "board-lobby.png")
        keys("t")
        keys("C-a", "C-k")  # the field holds the scenario's seconds (the hall's 60): clear it
        keys(*str(args.seconds), "Enter")
        await asyncio.sleep(0.5)
        print("console after setting the timer:", console_text().splitlines()[-1].strip())
        for number in range(1, args.rounds + 1):
            keys("n")
            for page in pages.values():
                await page.wait_for("document.querySelector('button[data-choice]')", 20)
            await asyncio.sleep(0.3)
            silent_ones = set(rng.sample([p.name for p in scripted], k=min(2, len(scripted))))
            choosing = [p for p in scripted if p.name not in silent_ones]
            for page in pages.values():
                await page.click(f"button[data-choice={rng.choice(['silent', 'betray'])}]")
            async def choose(p: Phone, delay: float, choice: str) -> None:
                await asyncio.sleep(delay)
                async with own[p.name].post(
                    f"{base}/api/d/{p.token}/choice", json={"choice": choice}
                ) as r:
                    assert r.status == 200, (p.name, r.status, await r.text())

            spread = min(8.0, args.seconds / 2)  # the answers come over a few seconds
            await asyncio.gather(*(
                choose(p, rng.uniform(0, spread), rng.choice(["silent", "betray"]))
                for p in choosing
            ))
            if number == 1:
                await board.screenshot(shots / "board-choosing.png")
                await pages[live[0]].screenshot(shots / "phone-chosen.png")
            waited = time.perf_counter()
            for page in pages.values():
                await page.wait_for("document.getElementById('my-result')", args.seconds + 20)
            reveal = time.perf_counter() - waited
            deadline = time.time() + 10
            while time.time() < deadline and not all(number in p.results for p in scripted):
                await asyncio.sleep(0.05)
            missing = [p.name for p in scripted if number not in p.results]
            view = await board_view(http, base)
            print(
                f"round {number}: {len(choosing) + len(pages)} answered, "
                f"{sorted(silent_ones)} gave no answer; the timer closed it: every Chromium "
                f"phone had its result {reveal:.1f} s after the last answer"
                + (f"; scripted phones without it: {missing}" if missing else "")
                + f"; board phase {view.get('phase')}"
            )
            await board.screenshot(shots / f"board-round-{number}.png")
        if (await board_view(http, base)).get("phase") != "over":
            keys("f", "y")  # finish, and confirm
        for _ in range(100):
            if (await board_view(http, base)).get("phase") == "over":
                break
            await asyncio.sleep(0.1)
        print("the tournament is", (await board_view(http, base)).get("phase"))
        await asyncio.sleep(1.0)
        await board.screenshot(shots / "board-final.png")
        await pages[live[0]].screenshot(shots / "phone-final.png")
        (shots / "console-final.txt").write_text(console_text(), encoding="utf-8")
        print("final board and console written to", shots)
        for task in streams:
            task.cancel()
        await http.close()
        await asyncio.gather(*(session.close() for session in own.values()))
    finally:
        await chromium.stop()
        keys("q")
        await asyncio.sleep(1.0)
        subprocess.run(["tmux", "kill-session", "-t", TMUX], capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=31)
    parser.add_argument("--chromium", type=int, default=6, help="of them, real Chromium pages")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=15, help="the round timer (10 to 3600)")
    parser.add_argument("--lang", default="en", help="the session's language (the board's)")
    parser.add_argument("--join", type=float, default=3.0, help="seconds over which all join")
    parser.add_argument(
        "--scenario", help="the warm-up's scenario (default: dilemma, over 300 phones dilemma-hall)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--shots", help="where the screenshots go (default: a new temp folder)")
    args = parser.parse_args()
    if not 10 <= args.seconds <= 3600:
        raise SystemExit("--seconds: the console takes a round timer of 10 to 3600 seconds.")
    if CHROMIUM is None or shutil.which("tmux") is None:
        raise SystemExit("this trial needs chromium and tmux")
    args.scenario = args.scenario or ("dilemma" if args.phones <= 300 else "dilemma-hall")
    raise_file_limit()
    shots = Path(args.shots or tempfile.mkdtemp(prefix="companion-room-trial-shots-"))
    shots.mkdir(parents=True, exist_ok=True)
    asyncio.run(trial(args, shots))


if __name__ == "__main__":
    main()
