"""The warm-up's live pages in one process, without the network: CPU time per phase.

N players join (each phone's stream opened and given its first page, a push every 20 joins),
then each round is started, every phone but one chooses (each answered with its part, as the
page does; a push every 27 choices, about what the server's pace gives at 125 choices a
second), and the last choice reveals it. Printed: the process's CPU time of each phase (the
session file's fsyncs are waits, not CPU, so a loaded disk barely shows), and the bytes of
the pages put into the streams at each reveal. CPU time is what other load on the machine
skews least: it is the figure to compare two versions of the code by.

Run: .venv/bin/python benchmarks/dilemma_feed.py [--players 1000] [--rounds 2] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import random
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


async def run(args: argparse.Namespace) -> None:
    from companion.language import language
    from companion.rules.dilemma.commands import Choose, Join
    from companion.session.session import Session
    from companion.web.common.context import Limiter, Presence
    from companion.web.common.fanout import Push
    from companion.web.common.outbox import Outbox
    from companion.web.dilemma.server import NightContext

    rules = tomllib.loads((ROOT / "scenarios" / "dilemma.toml").read_text())
    rules.update(rounds=args.rounds + 1, max_players=max(args.players, 300))
    with tempfile.TemporaryDirectory() as tmp:
        s = Session.create(Path(tmp) / "d.sqlite", "dilemma", {"rules": rules})
        night = NightContext(s, Limiter(), Presence(s), "http://127.0.0.1:1")
        feed = night.start_feed()
        en = language()
        boxes: dict[str, Outbox[str | None]] = {}
        feed.fanout.open(None, en, None, None)  # the board
        profiler = cProfile.Profile()
        spent: dict[str, float] = {}

        def phase(name: str, work: Any) -> None:
            start = time.process_time()
            if args.profile:
                profiler.enable()
            work()
            if args.profile:
                profiler.disable()
            spent[name] = time.process_time() - start

        def joins() -> None:
            for i in range(args.players):
                pid = f"p{i:04d}"
                s.submit(Join(pid=pid, name=f"Student {i:04d}"), by="phone:join")
                boxes[pid] = feed.fanout.open(pid, en, f"t{i}", None)  # its page's tab
                feed.first_page(pid)(boxes[pid], Push(feed.version(), True))
                if i % 20 == 19:
                    feed.fanout.push()
            feed.fanout.push()

        phase("joins", joins)
        rng = random.Random(3)
        for number in range(1, args.rounds + 1):
            phase(f"round {number}: start", lambda n=number: (
                s.submit({"do": "start_round", "seed": n}), feed.fanout.push(), feed.finish()))
            r = s.state.open_round()
            people = list(r.people)

            def choices(people: list[str] = people) -> None:
                for i, pid in enumerate(people[:-1]):
                    s.submit(Choose(pid=pid, choice=rng.choice(["silent", "betray"])), by="phone")
                    feed.answer_part(pid, en, boxes[pid].memory)  # the answer's part
                    if i % 27 == 26:
                        feed.fanout.push()
                feed.fanout.push()

            phase(f"round {number}: choices", choices)
            for box in boxes.values():
                box.take()
            last = people[-1]
            phase(f"round {number}: reveal", lambda last=last: (
                s.submit(Choose(pid=last, choice="silent"), by="phone"), feed.fanout.push(),
                feed.finish()))
            sent = [len(box.take()) for box in boxes.values()]
            print(f"round {number} revealed: {sum(sent) / 1e6:.1f} MB into the streams, "
                  f"{max(sent) / 1e3:.1f} kB the largest page")
        print(f"{args.players} players, CPU time per phase:")
        for name, seconds in spent.items():
            print(f"  {name:20} {seconds * 1000:8.0f} ms")
        if args.profile:
            profiler.dump_stats(args.profile)
        feed.close()
        s.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--profile", metavar="FILE", help="write a cProfile of the phases")
    args = parser.parse_args()
    if not (2 <= args.players <= 1000 and 1 <= args.rounds <= 9):
        raise SystemExit("Use 2 to 1000 players and 1 to 9 rounds.")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
