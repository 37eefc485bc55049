"""How long ``companion print`` takes for 4, 12 and 30 seats (one warden plus prisoners).

Run: .venv/bin/python benchmarks/printing.py
Prints, for each roster size, the best of a few runs of print_session (fonts loaded, cards,
warden's screen, rules card, night tracker, token sheets, PDF written), the pages and the size.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.printing.prison.document import print_session  # noqa: E402
from companion.session.prison.create import create_prison_session  # noqa: E402

RUNS = 3


def bench(folder: Path, seats: int, names: str) -> tuple[float, int, int]:
    prisoners = [f"{names} {i + 1}" for i in range(seats - 1)]
    overrides = {"min_prisoners": len(prisoners), "max_prisoners": len(prisoners)}
    session = create_prison_session(
        folder, f"bench{seats}{len(names)}", "classic", "Warden", prisoners,
        rules_overrides=overrides,
    )
    best = float("inf")
    out = folder / f"bench{seats}.pdf"
    try:
        for _ in range(RUNS):
            start = time.perf_counter()
            print_session(session, "a4", out, "http://192.168.1.20:8765")
            best = min(best, time.perf_counter() - start)
    finally:
        session.close()
    data = out.read_bytes()
    return best, data.count(b"/Type /Page\n"), len(data)


def main() -> None:
    print(f"companion print, best of {RUNS} runs, A4")
    print(f"{'seats':>5}  {'names':<10} {'seconds':>8}  {'pages':>5}  {'kB':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for names in ("Prisoner", "李小龙"):
            for seats in (4, 12, 30):
                seconds, pages, size = bench(Path(tmp), seats, names)
                label = "Latin" if names == "Prisoner" else "with CJK"
                print(f"{seats:>5}  {label:<10} {seconds:>8.3f}  {pages:>5}  {size / 1024:>6.0f}")


if __name__ == "__main__":
    main()
