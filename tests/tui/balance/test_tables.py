"""The Balance screen sets the real tables' rate beside the bots' curve: the notebook's points
come in through the composition root (``wiring.table_rates``), as the bots' do."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from textual.widgets import Static

from companion.cli.main import main
from companion.cli.wiring import table_rates
from companion.session.prison.scenarios import load_scenario
from companion.sim.notebook.stand_ins import bot_script
from companion.tui.balance.app import BalanceApp, BalanceScreen


def fake_curve(prisoners: int, tokens: int, nights: list[int] | None) -> Iterator[dict[str, Any]]:
    for n in nights or range(3, 10):
        yield {"prisoners": prisoners, "nights_to_escape": n, "parole_tokens_to_win": tokens,
               "games": 10, "mean_days": 4.0,
               "escape": {"rate": 0.5, "low": 0.2, "high": 0.8}}


async def test_real_tables_are_shown_beside_the_bots_for_their_group_size(
    tmp_path: Path, capsys: Any
) -> None:
    rules = load_scenario("classic")
    for i in range(3):
        path = tmp_path / f"g{i}.json"
        path.write_text(json.dumps(bot_script("classic", rules, "W", ["A", "B", "C", "D"],
                                              seed=i)))
        assert main(["playtests", "import", str(path)]) == 0
    capsys.readouterr()
    tables = table_rates([Path(os.environ["COMPANION_DATA_DIR"])])
    real = tables(4, 3)
    assert [p["nights_to_escape"] for p in real] == [6] and real[0]["games"] == 3

    app = BalanceApp(fake_curve, prisoners=4, tokens=3, tables=tables)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.3)
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BalanceScreen)
        assert screen.table_points == real
        line = str(screen.query_one("#balance-tables", Static).render())
        assert line.startswith("Real tables (4 prisoners, 3 parole tokens): ")
        assert f"{real[0]['escape']['count']} of 3 escaped at 6 nights" in line

        await pilot.press("right")  # five prisoners: no real table played that
        await pilot.pause(0.8)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.prisoners == 5 and screen.table_points == []
        assert not screen.query_one("#balance-tables", Static).display
