"""The Balance screen, driven by keys, fed by the real simulator through the composition root."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from companion.cli.wiring import curve_source
from companion.session.prison.scenarios import load_scenario
from companion.sim.runner import Pool
from companion.tui.balance.app import BalanceApp, BalanceScreen


def nights_shown(app: BalanceApp) -> list[int]:
    table = app.screen.query_one(DataTable)
    return [int(table.get_row_at(i)[0]) for i in range(table.row_count)]


async def settle(app: BalanceApp, pilot: object) -> None:
    await pilot.pause(0.6)  # type: ignore[attr-defined]
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


async def test_balance_screen_measures_and_follows_the_keys() -> None:
    base = load_scenario("classic")
    with Pool(1) as pool:
        source = curve_source(pool, base, 30, "standard", 1, settle_games=60, settle_factor=2)
        app = BalanceApp(source, prisoners=4, tokens=3)
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, BalanceScreen)
            # Settling the close call tops points up in place: one row a setting.
            assert nights_shown(app) == list(range(1, 16))
            assert all(p["games"] in (30, 60, 120) for p in screen.points)
            assert screen.verdict is not None
            status = str(screen.query_one("#balance-status", Static).render())
            assert status.startswith(("Closest to 50%", "A tie"))
            assert f"{screen.verdict['nights_to_escape']} nights" in status
            # Few nights: the prisoners escape more often than with many.
            rates = [p["escape"]["rate"] for p in screen.points]
            assert rates[0] > rates[-1]

            await pilot.press("right", "right")
            await settle(app, pilot)
            assert screen.prisoners == 6 and all(p["prisoners"] == 6 for p in screen.points)
            assert nights_shown(app) == list(range(2, 17))

            await pilot.press("up")
            await settle(app, pilot)
            assert screen.tokens == 4
            assert all(p["parole_tokens_to_win"] == 4 for p in screen.points)

            await pilot.press("full_stop")
            await settle(app, pilot)
            assert nights_shown(app) == list(range(9, 24))
            settings = str(screen.query_one("#balance-settings", Static).render())
            assert "6 prisoners" in settings and "4 parole tokens" in settings

            await pilot.press("left", "down", "down", "down", "down")
            await settle(app, pilot)
            assert (screen.prisoners, screen.tokens) == (5, 1)

            await pilot.press("escape")
            await pilot.pause()
        assert not app.is_running


def test_every_binding_has_a_description() -> None:
    for binding in BalanceScreen.BINDINGS:
        assert binding.description  # type: ignore[union-attr]


def test_the_balance_screen_imports_no_simulator() -> None:
    code = (
        "import sys, json\n"
        "import companion.tui.balance.app\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(("
        "'companion.sim', 'companion.web', 'companion.printing')))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


# ---- snapshots: fixed points, no simulator --------------------------------------------------

DESCRIBE = (
    "2000 games a point, seed 1, mix standard: prisoners 60% loyal / 30% opportunist / "
    "10% saboteur, plan 'finish', accusations 'both', warden search 'informed', deals 'focus'"
)


def fixed_source(prisoners: int, tokens: int, nights: list[int] | None) -> list[dict[str, Any]]:
    """A made-up curve (the team escapes less often the more nights it needs), the same every
    time, in the simulator's point format, ending with the settled close call's verdict."""
    points = []
    for n in nights or range(prisoners - 2, prisoners + 13):
        rate = 1 / (1 + math.exp(0.45 * (n - prisoners - 1.3)))
        half = 1.96 * math.sqrt(rate * (1 - rate) / 2000)
        points.append({
            "prisoners": prisoners,
            "parole_tokens_to_win": tokens,
            "nights_to_escape": n,
            "games": 2000,
            "mean_days": round(2.0 + 0.9 * n, 1),
            "escape": {"rate": rate, "low": max(0.0, rate - half), "high": min(1.0, rate + half)},
        })
    best = min(points, key=lambda p: abs(p["escape"]["rate"] - 0.5))
    rival = min((p for p in points if p is not best),
                key=lambda p: abs(p["escape"]["rate"] - 0.5))
    gap = abs(rival["escape"]["rate"] - 0.5) - abs(best["escape"]["rate"] - 0.5)
    verdict = {"settled": True, "runner_up": rival,
               "gap": {"gap": gap, "low": gap - 0.02, "high": gap + 0.02}}
    return [*points, {**best, "verdict": verdict}]


def test_the_screen_says_the_settled_answer_or_the_tie() -> None:
    """The screen's answer is the source's settled verdict (the search's rule on the search's
    games), not the closest point of the 400-game curve; a tie is said as a tie."""
    points = fixed_source(4, 3, [4, 5])
    screen = BalanceScreen(lambda *_: [])
    noisy = {**points[1], "escape": {"rate": 0.5, "low": 0.45, "high": 0.55}, "games": 400}
    screen.points = [points[0], noisy]
    assert "5 nights" in screen.conclusion().split(";")[0]  # the curve alone: closest point
    screen.verdict = {**points[0], "verdict": {
        "settled": True, "runner_up": points[1], "gap": {"gap": 0.03, "low": 0.01, "high": 0.05}}}
    said = screen.conclusion()
    assert said.startswith("Closest to 50%: 4 nights") and "surely closer than 5 nights" in said
    screen.verdict["verdict"]["settled"] = False
    assert screen.conclusion().startswith("A tie within the noise: 4 nights")


async def measured(pilot: Any) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"),
                                  pytest.param((120, 36), id="120x36")])
def test_snapshot(snap_compare: Any, size: tuple[int, int]) -> None:
    app = BalanceApp(fixed_source, prisoners=6, tokens=3, describe=DESCRIBE)
    assert snap_compare(app, terminal_size=size, run_before=measured)
