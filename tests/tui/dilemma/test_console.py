"""The dilemma console, driven by keys through Textual's pilot."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen, PickScreen, TextScreen
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.dilemma.choice import ChoiceScreen
from companion.tui.dilemma.screens import FinalScreen, KeysScreen
from tests.dilemma_helpers import scenario
from tests.tui.terminal import notices, terminal_lines

NAMES = ["Ada", "Ben", "Cleo", "Dev", "Emi"]


@pytest.fixture
def session(tmp_path: Path):
    s = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i, name in enumerate(NAMES):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    yield s
    s.close()


def app_for(session: Session, tmp_path: Path, **kw: Any) -> DilemmaApp:
    def poster(join_url: str) -> str:
        path = tmp_path / "poster.txt"
        path.write_text(join_url)
        return str(path)

    seeds = iter(range(1, 1000))
    room = ("http://127.0.0.1:8765/join-room", "http://127.0.0.1:8765/board")
    return DilemmaApp(session, links=room, poster=poster, seed=lambda: next(seeds), **kw)


def text(app: DilemmaApp) -> str:
    screen = app.screen
    strips = "\n".join(terminal_lines(app))
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
    """Until the console shows ``phrase``: at least 10 s of the app's turns (a loaded machine
    needs several seconds where a quiet one needs a few turns)."""
    for _ in range(500):
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
        await wait_for(pilot, app, "Round 1 of 2: 0 of 5 have chosen")
        rows = roster(app)
        assert not [n for n, r in rows.items() if r[1] == "sits out"]
        assert [n for n, r in rows.items() if r[2] == "House"], "the house fills the seat"
        playing = list(NAMES)
        choose(session, playing[0], "betray")  # from a phone
        await wait_for(pilot, app, "1 of 5 has chosen")
        assert roster(app)[playing[0]][1] == "chosen"
        assert "BETRAY" not in text(app) and "betray" not in text(app).lower().replace(
            "press", ""
        ), "the console shows a sealed choice"

        await pilot.press("v")  # peek: asks first (the screen may be on a projector)
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and not session.notes("peek")
        await pilot.press("n")
        await pilot.pause()
        assert "BETRAY" not in json.dumps(roster(app)) and not session.notes("peek")
        await pilot.press("v", "y")  # the choice shows, and the log notes it
        await pilot.pause()
        assert roster(app)[playing[0]][-1] == "BETRAY" and "PEEKING" in text(app)
        assert session.notes("peek")
        await pilot.press("v")
        await pilot.pause()
        assert "BETRAY" not in json.dumps(roster(app))

        await pilot.press("c")  # close with three still choosing: asks first
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
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
        assert isinstance(app.screen, TextScreen)
        await pilot.press(*["backspace"] * 3, "B", "e", "n", "space", "K", "enter")
        await wait_for(pilot, app, "Ben K")
        assert session.state.players[1].name == "Ben K"

        await pilot.press("e")  # a name already taken is refused, nothing changes
        await pilot.pause()
        await pilot.press(*["backspace"] * 5, "a", "d", "a", "enter")
        await pilot.pause()
        assert session.state.players[1].name == "Ben K"

        await pilot.press("x")  # asks first
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and "Remove Ben K?" in text(app)
        await pilot.press("n")
        await pilot.pause()
        assert session.state.players[1].present
        await pilot.press("x", "y")
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
        await wait_for(pilot, app, "Round 1 of 3: 1 of 4 has chosen")
        assert roster(app)["Ada"][1] == "chosen"
        await pilot.press("q")
    again.close()


def test_the_rules_stay_pure_and_the_console_does_not_load_the_web() -> None:
    from tests.test_import_direction import HEAVY, loaded_after

    mods = loaded_after("import companion.rules.dilemma.engine, companion.rules.dilemma.views")
    for name in [*HEAVY, "companion.session", "companion.tui", "companion.web"]:
        assert not any(m == name or m.startswith(name + ".") for m in mods), name
    mods = loaded_after("import companion.tui.dilemma.app")
    assert not any(m.startswith("companion.web") or m.startswith("aiohttp") for m in mods)


# ---- snapshots at 80x24 (usable) and 120x36 (comfortable) -----------------------------------
# No clock, no random seed, no real port: the room's address is fixed by the service handed in,
# as the composition root hands in the phone server. Update with --snapshot-update.

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]
ROOM = "http://192.168.1.20:8765"
SEVEN = [*NAMES, "Farouk", "Gwendolyn Marchetti-Okafor"]


def snapshot_app(tmp_path: Path, rounds: int, choices: list[dict[str, str]]) -> DilemmaApp:
    """Seven players; ``rounds`` rounds started with fixed seeds (all but the last closed);
    then ``choices`` ({name: choice}) made in each started round in turn."""
    s = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario(rounds=3)})
    for i, name in enumerate(SEVEN):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    for number in range(rounds):
        s.submit({"do": "start_round", "seed": 40 + number})
        waiting = {p.name for p in s.state.players if p.pid in s.state.waiting()}
        for name, choice in choices[number].items():
            if name in waiting:  # the one sitting out has no choice
                choose(s, name, choice)
        if number < rounds - 1:
            s.submit({"do": "close_round"})

    return DilemmaApp(s, links=(f"{ROOM}/join-room", f"{ROOM}/board"), seed=lambda: 7)


async def room_shown(pilot: Any) -> None:
    for _ in range(50):
        await pilot.pause()
        if pilot.app.join_url is not None:
            break
    for _ in range(3):  # the room's column sizes itself to the links once they are shown
        await pilot.pause()


ROUND_ONE = {
    "Ada": "silent",
    "Ben": "betray",
    "Cleo": "silent",
    "Dev": "silent",
    "Emi": "betray",
    "Farouk": "silent",
    "Gwendolyn Marchetti-Okafor": "betray",
}
ROUND_TWO = {"Ada": "betray", "Cleo": "silent", "Farouk": "silent"}


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_lobby(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    app = snapshot_app(tmp_path, 0, [])
    assert snap_compare(app, terminal_size=size, run_before=room_shown)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_round(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    app = snapshot_app(tmp_path, 2, [ROUND_ONE, ROUND_TWO])
    assert snap_compare(app, terminal_size=size, run_before=room_shown)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_results(snap_compare: Any, size: tuple[int, int], tmp_path: Path) -> None:
    app = snapshot_app(tmp_path, 3, [ROUND_ONE, ROUND_TWO, ROUND_ONE])
    app.session.submit({"do": "close_round"})
    assert snap_compare(app, terminal_size=size, run_before=room_shown)


def footer_text(app: DilemmaApp) -> str:
    """The bottom line of the terminal as drawn."""
    return terminal_lines(app)[-1]


async def test_small_terminal_qr_toggle_keys_list_and_footer(tmp_path: Path) -> None:
    app = snapshot_app(tmp_path, 2, [ROUND_ONE, ROUND_TWO])
    async with app.run_test(size=(80, 24)) as pilot:
        await room_shown(pilot)
        room, side = app.room.query_one("#room"), app.room.query_one("#side")
        # In a round on 80 columns the QR code gives way to the last round and leaderboard.
        assert not room.display and side.display
        assert "Join at http://192.168.1.20:8765/join-room" in text(app)
        footer = footer_text(app)
        for words in ["c Close round", "x Remove", "u Undo", "s Show QR", "? Keys", "q Quit"]:
            assert words in footer, footer
        await pilot.press("s")
        await pilot.pause()
        assert room.display and not side.display and "s Hide QR" in footer_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert not room.display and side.display
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, KeysScreen)
        table = app.screen.query_one(DataTable)
        listed = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert listed[:2] == ["n", "c"] and "b" in listed and "p" in listed  # not only the footer's
        await pilot.press("x")  # the room's keys do not act behind the list
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.room and len(app.view()["players"]) == 7
    app.session.close()


@pytest.mark.parametrize("width", [80, 120])
async def test_the_footer_keeps_its_keys_whole(tmp_path: Path, width: int) -> None:
    app = snapshot_app(tmp_path, 2, [ROUND_ONE, ROUND_TWO])  # round 2 open: the most keys
    async with app.run_test(size=(width, 30)) as pilot:
        await room_shown(pilot)
        shown: dict[str, Any] = {}  # the footer's key per action: the first bound
        for item in app.room.active_bindings.values():
            if item.binding.show and item.binding.action.startswith("app."):
                shown.setdefault(item.binding.action, item.binding)
        assert {"app.undo", "app.keys", "app.quit_asking", "app.close_round"} <= set(shown)
        wanted = [f"{app.get_key_display(b)} {b.description}" for b in shown.values()]
        for _ in range(40):  # the footer is recomposed a moment after the bindings change
            footer = footer_text(app)
            if all(words in footer for words in wanted):
                break
            await pilot.pause(0.05)
        for words in wanted:
            assert words in footer, footer
        assert footer.rstrip().endswith("^p palette")
    app.session.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_peeking_keeps_the_months_when_the_names_fit(
    session: Session, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = app_for(session, tmp_path)
    async with app.run_test(size=size) as pilot:
        await room_shown(pilot)
        await pilot.press("n")
        await wait_for(pilot, app, "Round 1 of 2")
        await pilot.press("v", "y")
        await pilot.pause()
        table = app.screen.query_one("#roster", DataTable)
        labels = [str(column.label) for column in table.columns.values()]
        assert labels == ["Name", "Now", "Facing", "Months", "Phone", "Choice"]
        widths = sum(column.get_render_width(table) for column in table.columns.values())
        assert widths <= table.size.width


async def test_a_long_waiting_list_takes_two_lines_and_says_how_many_more(
    tmp_path: Path,
) -> None:
    s = Session.create(tmp_path / "big.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    names = [f"Player number {i} with a long name" for i in range(31)]
    for i, name in enumerate(names):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, app, "Round 1 of 2")
        status = app.screen.query_one("#status", Static)
        lines = [strip.text.rstrip() for strip in status.render_lines(status.region.reset_offset)]
        start = next(i for i, line in enumerate(lines) if "Waiting for" in line)
        end = next(i for i, line in enumerate(lines) if "close the round now." in line)
        assert end - start <= 1, lines
        said = " ".join(" ".join(lines[start : end + 1]).split())
        shown = re.search(r"Waiting for (.*) and (\d+) more\.", said)
        assert shown is not None, said
        assert len(shown.group(1).split(", ")) + int(shown.group(2)) == 31  # nobody sits out
    s.close()


async def test_without_phones_the_console_adds_players_and_takes_choices_in_private(
    tmp_path: Path,
) -> None:
    s = Session.create(tmp_path / "nophones.sqlite", "dilemma", {"rules": scenario(rounds=1)})
    app = DilemmaApp(s, seed=lambda: 7)  # --no-phones: no service handed in
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Add players with a" in text(app) and "a Add player" in footer_text(app)
        for name in ["Ada", "Ben"]:
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            await pilot.press(*name, "enter")
            await pilot.pause()
        await pilot.press("a", *"ADA", "enter")  # the rules' sentence, in the dialog
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and "already taken" in text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert [p.name for p in s.state.players] == ["Ada", "Ben"]

        await pilot.press("n")
        await wait_for(pilot, app, "Round 1 of 1: 0 of 2 have chosen")
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        await pilot.press("enter")  # the first still waiting
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        shown = text(app)
        assert "PRIVATE" in shown and "Ada, this is your secret choice" in shown
        assert "You face Ben" in shown and "Leaderboard" not in shown
        await pilot.press("b")
        await wait_for(pilot, app, "1 of 2 has chosen")
        assert app.screen is app.room and "BETRAY" not in text(app)
        ada = s.state.players[0].pid
        assert s.rows[-1].body["command"] == {"do": "choose", "pid": ada, "choice": "betray"}
        await pilot.press("h", "enter")  # Ben, the one still waiting
        await pilot.pause()
        assert "Ben, this is your secret choice" in text(app)
        await pilot.press("s")
        await pilot.pause(0.1)
        assert s.state.phase == "over"
        assert sorted(s.state.months().values()) == [0, 12]
    s.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_final_leaderboards_title_is_not_wrapped_by_short_names(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    s = Session.create(tmp_path / "short.sqlite", "dilemma", {"rules": scenario(rounds=1)})
    for i, name in enumerate(["Al", "Bo", "Cy", "Di"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    s.submit({"do": "start_round", "seed": 1})
    s.submit({"do": "close_round"})
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, app, "Final leaderboard")
        strips = terminal_lines(app)
        assert any("Final leaderboard: least time served" in line for line in strips), strips
    s.close()


async def test_every_key_is_explained_whole_at_80_columns(tmp_path: Path) -> None:
    from companion.tui.dilemma.app import KEY_HELP

    app = snapshot_app(tmp_path, 0, [])
    async with app.run_test(size=(80, 24)) as pilot:
        await room_shown(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        strips = "\n".join(terminal_lines(app))
        for words in KEY_HELP.values():
            assert words in strips, words
    app.session.close()


async def test_whose_choice_fits_at_80x24_with_a_big_room(tmp_path: Path) -> None:
    s = Session.create(tmp_path / "big.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i in range(30):
        s.submit({"do": "join", "pid": f"p{i}", "name": f"Player {i + 1}"})
    s.submit({"do": "start_round", "seed": 3})
    app = DilemmaApp(s, seed=lambda: 7)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        strips = "\n".join(terminal_lines(app))
        assert "Whose choice?" in strips and "Esc cancel" in strips, strips
    s.close()


async def test_after_the_tournament_a_and_h_say_it_is_over(tmp_path: Path) -> None:
    app = snapshot_app(tmp_path, 3, [ROUND_ONE, ROUND_TWO, ROUND_ONE])
    app.session.submit({"do": "close_round"})
    async with app.run_test(size=(120, 36)) as pilot:
        await room_shown(pilot)
        await pilot.press("escape")  # from the results to the room
        await pilot.pause()
        for key in ["a", "h"]:
            app.clear_notifications()
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is app.room
            said = notices(app)
            assert said == ["The tournament is over; r shows the results."], said
    app.session.close()
