"""The set-up screen's scenario: automatic (balanced for the group's size as names are added
and removed) unless the GM picks one, on the command line or with F4 (or the palette)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList

from companion.tui.common.dialogs import PickScreen
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.game import GameScreen
from companion.tui.prison.setup import SetupScreen
from tests.conftest import ROOT
from tests.tui.support import shelf, shows, type_text


async def names(pilot: Pilot[Any], warden: str, prisoners: list[str]) -> None:
    await type_text(pilot, warden)
    await pilot.press("enter")
    for name in prisoners:
        await type_text(pilot, name)
        await pilot.press("enter")
    await pilot.pause()


def automatic_app(folder: Path, scenario: str | None = None) -> ConsoleApp:
    return ConsoleApp(shelf=shelf(folder), new=("game", scenario), ticking=False)


def title(app: ConsoleApp) -> str:
    from textual.widgets import Static

    return str(app.screen.query_one("#setup-title", Static).render())


async def test_automatic_follows_the_group_size(tmp_path: Path) -> None:
    app = automatic_app(tmp_path)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        assert "scenario classic (4 prisoners, automatic)" in title(app)
        await names(pilot, "Wendy", ["Ada", "Ben", "Cy", "Dee", "Eve", "Flo"])
        assert "scenario balanced-6 (6 prisoners, automatic)" in title(app)
        assert shows(app, "Ready: Wendy and 6 prisoners.")
        await pilot.press("f8")  # Flo leaves: five
        assert "scenario balanced-5 (5 prisoners, automatic)" in title(app)
        await pilot.press("f8")  # Eve leaves: four, classic
        assert "scenario classic (4 prisoners, automatic)" in title(app)
        await type_text(pilot, "Eve")
        await pilot.press("enter")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.session.setup["scenario"] == "balanced-5"


async def test_a_group_no_scenario_fits_is_told_in_one_sentence(tmp_path: Path) -> None:
    app = automatic_app(tmp_path)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        await names(pilot, "Wendy", ["Ada", "Ben", "Cy"])
        assert "scenario classic" in title(app)
        assert shows(app, "balanced for exactly 4 prisoners, but the roster has 3")


async def test_a_scenario_chosen_stays_and_f4_picks_another(tmp_path: Path) -> None:
    own = Path(os.environ["COMPANION_SCENARIOS"]) / "tight.toml"
    text = (ROOT / "scenarios" / "balanced-5.toml").read_text("utf-8")
    own.write_text(text.replace("nights_to_escape = 6", "nights_to_escape = 7"), "utf-8")
    app = automatic_app(tmp_path, "classic")
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        assert "scenario classic (4 prisoners)" in title(app)
        await names(pilot, "Wendy", ["Ada", "Ben", "Cy", "Dee", "Eve"])
        assert "scenario classic (4 prisoners)" in title(app)  # chosen: it does not follow
        assert shows(app, "balanced for exactly 4 prisoners, but the roster has 5")
        await pilot.press("f4")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, PickScreen)
        labels = dict(picker.options)
        assert labels["classic"] == "classic  4 prisoners, 6 nights · shipped"
        assert labels["tight"] == "tight  5 prisoners, 7 nights · yours"
        assert picker.options[0][1].startswith("automatic")
        assert picker.query_one(OptionList).highlighted == list(labels).index("classic")
        await pilot.press("end", "enter")  # the user's own comes last
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "scenario tight (5 prisoners)" in title(app)
        assert shows(app, "Ready: Wendy and 5 prisoners.")
        await pilot.press("f4")
        await pilot.pause()
        await pilot.press("home", "enter")  # back to automatic
        await pilot.pause()
        assert "scenario balanced-5 (5 prisoners, automatic)" in title(app)
        await pilot.press("f4")
        await pilot.pause()
        await pilot.press("escape")  # cancelled: nothing changes
        await pilot.pause()
        assert "scenario balanced-5 (5 prisoners, automatic)" in title(app)
        assert app.screen.prisoners == ["Ada", "Ben", "Cy", "Dee", "Eve"]


async def test_the_palette_offers_the_scenario_picker(tmp_path: Path) -> None:
    app = automatic_app(tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        titles = [c.title for c in app.get_system_commands(setup)]
        assert "Scenario" in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        await type_text(pilot, "Scenario")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)


async def test_the_picker_starts_a_new_session_on_automatic(tmp_path: Path) -> None:
    app = ConsoleApp(shelf=shelf(tmp_path), ticking=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await type_text(pilot, "friday")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        await pilot.press("enter")  # automatic is offered first
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "scenario classic (4 prisoners, automatic)" in title(app)
