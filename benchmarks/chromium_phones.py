"""A live trial: N real phone pages (headless Chromium, one browser context each, like N
phones) and the board on `companion serve` on 127.0.0.1, through a planning phase.

Each prisoner in turn uncovers its page and taps WORK or REST (a real click: the page's own
script posts it). For each tap the script times, on the browser's clock:

- its own page: from the tap to "Saved: you ... tonight." on that page;
- every page: from the tap to the moment the last of the N pages shows the new count
  ("k of N prisoners have chosen tonight."; a MutationObserver in each page notes when);
- the board: from the tap to its "k of N prisoners have chosen".

Then a few prisoners change their minds (the count stays: the others' pages get an empty patch;
the changer's page its whole part). At the end every page's count line, own choice and
version (the session's row it shows) are checked against the server's answers, and each page
is checked to show no other prisoner's choice ("Saved: you" once, its own).

Bounded: at most 40 pages, every wait at most 20 s, the browser and the server stopped at the
end. Run: .venv/bin/python benchmarks/chromium_phones.py [--phones 30] [--changes 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.phones import free_port, pct, wait_for_port  # noqa: E402
from tests.chromium import CHROMIUM, Chromium  # noqa: E402

MAX_PAGES = 40
WAIT = 20.0  # seconds: the longest any one wait may take
# Pages in the background keep their timers and rendering at full speed, as phones in hand do.
EXTRA_FLAGS = ("--disable-background-timer-throttling", "--disable-renderer-backgrounding")
# Notes, on the page's clock, when each text of the counts' line first showed.
WATCH = """(function () {
  window.__seen = {};
  function seen(el) {
    if (el && !(el.textContent in window.__seen)) window.__seen[el.textContent] = Date.now();
  }
  function note() {
    seen(document.querySelector("#live p.progress") || document.getElementById("submitted"));
    seen(document.getElementById("saved"));
  }
  new MutationObserver(note).observe(document.getElementById("live"),
    {subtree: true, childList: true, characterData: true});
  note();
  return true;
})()"""


def progress(k: int, n: int) -> str:
    return f"{k} of {n} prisoner has chosen tonight." if n == 1 else (
        f"{k} of {n} prisoners have chosen tonight."
    )


async def trial(args: argparse.Namespace) -> None:
    from companion.session.prison.create import create_prison_session
    from companion.session.prison.seats import board_url, seat_url, seats_of

    folder = Path(tempfile.mkdtemp(prefix="companion-trial-"))
    names = [f"P{i:02d}" for i in range(1, args.phones + 1)]
    session = create_prison_session(
        folder, "trial", "classic", "Wendy", names,
        rules_overrides={"min_prisoners": min(4, len(names)), "max_prisoners": len(names)},
    )
    seats = [s for s in seats_of(session) if s.role == "prisoner"]
    session.close()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(folder), "serve", "trial",
         "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
    )
    browser = Chromium(*EXTRA_FLAGS)
    base = f"http://127.0.0.1:{port}"
    try:
        await wait_for_port(port)
        await browser.start()
        opened = time.perf_counter()
        board = await browser.open(board_url(base))
        tabs = [await browser.open(seat_url(base, s)) for s in seats]
        for tab in [board, *tabs]:
            ready = "document.body.dataset.ready === '1' && document.body.dataset.live"
            await tab.wait_for(ready, WAIT)
            await tab.js(WATCH)
        print(f"{len(tabs)} phone pages and the board open and live in "
              f"{time.perf_counter() - opened:.1f} s (one headless Chromium, 127.0.0.1)")
        n = len(tabs)
        own: list[float] = []  # seconds, from the pages' own clock (Date.now, in ms)
        every: list[float] = []
        to_board: list[float] = []
        choices: dict[str, str] = {}
        for k, (seat, tab) in enumerate(zip(seats, tabs, strict=True), start=1):
            choice = "work" if k % 2 else "rest"
            choices[seat.name] = choice
            await tab.js("document.getElementById('cover').click()")
            tapped = await tab.js(
                f"(function(){{var t=Date.now();"
                f"document.querySelector('button[data-value={choice}]').click();return t;}})()"
            )
            saved = f"Saved: you {choice.upper()} tonight."
            line = progress(k, n)
            await tab.wait_for(f"window.__seen[{json.dumps(saved)}]", WAIT)
            own.append(((await tab.js(f"window.__seen[{json.dumps(saved)}]")) - tapped) / 1000)
            seen = []
            for other in tabs:
                await other.wait_for(f"window.__seen[{json.dumps(line)}]", WAIT)
                seen.append(await other.js(f"window.__seen[{json.dumps(line)}]"))
            every.append((max(seen) - tapped) / 1000)
            board_line = line.replace(" tonight.", "")
            await board.wait_for(f"window.__seen[{json.dumps(board_line)}]", WAIT)
            shown_at = await board.js(f"window.__seen[{json.dumps(board_line)}]")
            to_board.append((shown_at - tapped) / 1000)
        changes: list[float] = []
        for seat, tab in list(zip(seats, tabs, strict=True))[: args.changes]:
            choice = "rest" if choices[seat.name] == "work" else "work"
            choices[seat.name] = choice
            await tab.js("window.__seen = {}")
            tapped = await tab.js(
                f"(function(){{var t=Date.now();"
                f"document.querySelector('button[data-value={choice}]').click();return t;}})()"
            )
            saved = f"Saved: you {choice.upper()} tonight."
            await tab.wait_for(f"window.__seen[{json.dumps(saved)}]", WAIT)
            changes.append(((await tab.js(f"window.__seen[{json.dumps(saved)}]")) - tapped) / 1000)
        await asyncio.sleep(1.0)  # the last events arrive
        # Every page against the server: its count, its own choice, its row; nobody else's.
        problems = []
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/api/board") as r:
                latest_count = (await r.json())["submitted_count"]
            for seat, tab in zip(seats, tabs, strict=True):
                text = await tab.js("document.getElementById('live').innerText")
                version = await tab.js("document.body.dataset.version")
                async with http.get(f"{base}/api/p/{seat.token}") as r:
                    view = await r.json()
                if progress(latest_count, n) not in text:
                    problems.append(f"{seat.name}: count line is not {progress(latest_count, n)!r}")
                if f"Saved: you {choices[seat.name].upper()} tonight." not in text:
                    problems.append(f"{seat.name}: its own choice is not shown")
                if text.count("Saved: you") != 1:
                    problems.append(f"{seat.name}: 'Saved: you' {text.count('Saved: you')} times")
                if view["me"]["choice"] != choices[seat.name]:
                    problems.append(f"{seat.name}: the server holds {view['me']['choice']}")
                if version is None:
                    problems.append(f"{seat.name}: no version shown")
        print(f"{n} first choices, tapped one after another on the pages (ms, browser clock):")
        print(f"  tap -> own page 'Saved'          p50 {pct(own, .5):6.0f}  "
              f"p99 {pct(own, .99):6.0f}  max {pct(own, 1):6.0f}")
        print(f"  tap -> all {n} pages show the count p50 {pct(every, .5):6.0f}  "
              f"p99 {pct(every, .99):6.0f}  max {pct(every, 1):6.0f}")
        print(f"  tap -> the board shows the count p50 {pct(to_board, .5):6.0f}  "
              f"p99 {pct(to_board, .99):6.0f}  max {pct(to_board, 1):6.0f}")
        if changes:
            print(f"{len(changes)} changes of mind: tap -> own page 'Saved' "
                  f"p50 {pct(changes, .5):.0f}  max {pct(changes, 1):.0f}")
        print("every page shows the server's count, its own choice and a row: "
              + ("yes" if not problems else "NO"))
        for problem in problems:
            print("  " + problem)
    finally:
        await browser.stop()
        server.terminate()
        server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--phones", type=int, default=30, help=f"2 to {MAX_PAGES} (default 30)")
    p.add_argument("--changes", type=int, default=5, help="changes of mind after (default 5)")
    args = p.parse_args()
    if not 2 <= args.phones <= MAX_PAGES:
        p.error(f"--phones must be 2 to {MAX_PAGES}")
    if CHROMIUM is None:
        raise SystemExit("This trial needs chromium.")
    args.changes = max(0, min(args.changes, args.phones))
    asyncio.run(trial(args))


if __name__ == "__main__":
    main()
