"""The dilemma console, driven by keys through Textual's pilot, with the real phone server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from companion.session.session import Session
from companion.tui.dilemma import DilemmaApp
from companion.tui.dilemma_screens import AskName, Confirm, FinalScreen
from tests.dilemma_helpers import scenario

NAMES = ["Ada", "Ben", "Cleo", "Dev", "Emi"]


@pytest.fixture
def session(tmp_path: Path):
    s = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i, name in enumerate(NAMES):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    yield s
    s.close()


def app_for(session: Session, tmp_path: Path, **kw: Any) -> DilemmaApp:
    async def phones(app: DilemmaApp) -> Any:
        from companion.web.dilemma import start_dilemma_server

        server = await start_dilemma_server(session, "127.0.0.1", 0)
        app.show_room(server.join_url, server.board_url)
        return server.stop

    def poster(join_url: str) -> str:
        path = tmp_path / "poster.txt"
        path.write_text(join_url)
        return str(path)

    seeds = iter(range(1, 1000))
    return DilemmaApp(session, services=[phones], poster=poster, seed=lambda: next(seeds), **kw)


def text(app: DilemmaApp) -> str:
    screen = app.screen
    strips = "\n".join(s.text for s in screen._compositor.render_strips())
    statics = " ".join(str(w.render()) for w in screen.query(Static) if w.display)
    return strips + "\n" + " ".join(statics.split())


def roster(app: DilemmaApp) -> dict[str, list[str]]:
    table = app.screen.query_one("#roster", DataTable)
    rows = {}
    for key in table.rows:
        cells = [str(c) for c in table.get_row(key)]
        rows[cells[0]] = cells
    return rows


def choose(session: Session, name: str, choice: str) -> None:
    pid = next(p.pid for p in session.state.players if p.name == name)
    session.submit({"do": "choose", "pid": pid, "choice": choice}, by="phone")


async def wait_for(pilot: Any, app: DilemmaApp, phrase: str) -> None:
    for _ in range(100):
        await pilot.pause(0.02)
        if phrase in text(app):
            return
    raise AssertionError(f"never shown: {phrase}\n{text(app)}")


async def test_a_tournament_from_the_console(session: Session, tmp_path: Path) -> None:
    app = app_for(session, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, app, "Scan to join")
        assert "/join-room" in text(app) and "▀" in str(app.query_one("#qr", Static).render())
        assert "Players are joining" in text(app) and "5 players in the tournament" in text(app)

        await pilot.press("n")
        await wait_for(pilot, app, "Round 1 of 2: 0 of 4 have chosen")
        rows = roster(app)
        out = [n for n, r in rows.items() if r[1] == "sits out"]
        assert len(out) == 1
        playing = [n for n in NAMES if n not in out]
        choose(session, playing[0], "betray")  # from a phone
        await wait_for(pilot, app, "1 of 4 have chosen")
        assert roster(app)[playing[0]][1] == "chosen"
        assert "BETRAY" not in text(app) and "betray" not in text(app).lower().replace(
            "press", ""
        ), "the console shows a sealed choice"

        await pilot.press("v")  # peek: the choice shows, and the log notes it
        await pilot.pause()
        assert roster(app)[playing[0]][-1] == "BETRAY" and "PEEKING" in text(app)
        assert session.notes("peek")
        await pilot.press("v")
        await pilot.pause()
        assert "BETRAY" not in json.dumps(roster(app))

        await pilot.press("c")  # close with three still choosing: asks first
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await wait_for(pilot, app, "Round 1 of 2 is revealed")
        assert "(closed early)" in text(app) and "Leaderboard" in text(app)

        await pilot.press("n")
        await wait_for(pilot, app, "Round 2 of 2")
        for name in NAMES:
            if roster(app)[name][1] == "choosing":
                choose(session, name, "silent")
        await pilot.pause(0.1)
        assert isinstance(app.screen, FinalScreen)
        await wait_for(pilot, app, "betrayal dominates")
        assert "Final leaderboard" in text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "The tournament is over" in text(app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, FinalScreen)
        await pilot.press("q")
    assert session.state.phase == "over"


async def test_rename_remove_bring_back_undo_and_poster(session: Session, tmp_path: Path) -> None:
    app = app_for(session, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, app, "Scan to join")
        await pilot.press("down")  # Ben
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, AskName)
        await pilot.press(*["backspace"] * 3, "B", "e", "n", "space", "K", "enter")
        await wait_for(pilot, app, "Ben K")
        assert session.state.players[1].name == "Ben K"

        await pilot.press("e")  # a name already taken is refused, nothing changes
        await pilot.pause()
        await pilot.press(*["backspace"] * 5, "a", "d", "a", "enter")
        await pilot.pause()
        assert session.state.players[1].name == "Ben K"

        await pilot.press("x")
        await wait_for(pilot, app, "4 players in the tournament")
        assert roster(app)["Ben K"][1] == "left"
        await pilot.press("b")
        await wait_for(pilot, app, "5 players in the tournament")
        await pilot.press("u")
        await wait_for(pilot, app, "4 players in the tournament")

        await pilot.press("f")  # nothing played yet: finishing is refused
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert session.state.phase == "lobby"

        await pilot.press("p")
        await pilot.pause()
        assert (tmp_path / "poster.txt").read_text().endswith("/join-room")
        await pilot.press("q")


async def test_the_console_comes_back_after_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite"
    first = Session.create(path, "dilemma", {"rules": scenario(rounds=3)})
    for i, name in enumerate(NAMES[:4]):
        first.submit({"do": "join", "pid": f"p{i}", "name": name})
    first.submit({"do": "start_round", "seed": 9})
    choose(first, "Ada", "silent")
    first.store.close()  # as if the process had died here
    again = Session.open(path)
    app = app_for(again, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, app, "Round 1 of 3: 1 of 4 have chosen")
        assert roster(app)["Ada"][1] == "chosen"
        await pilot.press("q")
    again.close()


def test_the_rules_stay_pure_and_the_console_does_not_load_the_web() -> None:
    from tests.test_import_direction import HEAVY, loaded_after

    mods = loaded_after("import companion.rules.dilemma, companion.rules.dilemma_views")
    for name in [*HEAVY, "companion.session", "companion.tui", "companion.web"]:
        assert not any(m == name or m.startswith(name + ".") for m in mods), name
    mods = loaded_after("import companion.tui.dilemma")
    assert not any(m.startswith("companion.web") or m.startswith("aiohttp") for m in mods)
