"""Moves typed, sent in a burst, or pasted all at once end in the same state: the referee
applies its entries strictly in order, one after the other, whatever the speed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events

from companion.rules.sucker.views import script_result
from companion.session.session import Session
from companion.tui.sucker.app import SuckerApp
from companion.tui.sucker.line import MoveLine
from tests.tui.sucker.test_referee import typed

FOUR = {
    "players": [
        {"name": name, "color": color}
        for name, color in [("Ann", "red"), ("Bo", "blue"), ("Cat", "green"), ("Dan", "yellow")]
    ],
    "chips_per_player": 4,
    "first": "Ann",
}
# A whole game of 56 entries: plays, choices, captures, a rescue and refusals, to Cat's win.
GAME = [
    "r n", "next dan", "y n", "next bo", "b 1", "next cat", "g 1", "y 2", "kill y", "y n",
    "next bo", "b 1", "y 1", "r 3", "next bo", "b 3", "g 3", "y 1", "kill y", "r n", "next dan",
    "g n", "next ann", "r n", "next dan", "b 5", "next ann", "r 4", "kill r", "r 3", "b 3",
    "y n", "next bo", "b 5", "kill b", "b 3", "kill b", "b 7", "next ann", "refuse bo", "b n",
    "next cat", "g 7", "bo give r", "r n", "next dan", "refuse bo", "g 6", "y n", "next bo",
    "g 8", "r 9", "g 7", "kill y", "b 6", "g 6",
]


def keys(text: str) -> list[tuple[str, str | None]]:
    """The key events a terminal sends for ``text`` (each line ended by Enter)."""
    out: list[tuple[str, str | None]] = []
    for char in text:
        if char == "\n":
            out.append(("enter", "\r"))
        elif char == " ":
            out.append(("space", " "))
        else:
            out.append((char, char))
    return out


async def refused_line_back(pilot: Any, entry: MoveLine) -> None:
    """Let the app run until the refused line is back on the move line: after the refusal is
    drawn, a catch-up travels behind every key already sent (:mod:`companion.tui.sucker.line`),
    which a loaded machine takes several of the app's turns to bring round."""
    for _ in range(100):
        if entry.value:
            return
        await pilot.pause(0.01)


async def final_state(folder: Path, name: str, enter: Any) -> tuple[Any, list[Any]]:
    session = Session.create(folder / f"{name}.sqlite", "so-long-sucker", FOUR)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        await enter(app, pilot)
        await pilot.pause()
        await pilot.pause()
        problem = str(app.query_one("#problem").render())
    result = script_result(session.state), [(r.kind, r.body) for r in session.rows], problem
    session.close()
    return result


async def by_hand(app: SuckerApp, pilot: Any) -> None:
    for entry in GAME:
        await typed(pilot, entry)


async def in_a_burst(app: SuckerApp, pilot: Any) -> None:
    """Every key at once, as a fast terminal or tmux delivers them (0.28 s for 56 moves)."""
    for key, char in keys("".join(f"{entry}\n" for entry in GAME)):
        app.post_message(events.Key(key, char))


async def pasted(app: SuckerApp, pilot: Any) -> None:
    app.post_message(events.Paste("\n".join(GAME) + "\n"))


async def test_a_56_move_game_typed_sent_at_once_or_pasted_ends_the_same(tmp_path: Path) -> None:
    assert len(GAME) == 56
    typed_state = await final_state(tmp_path, "typed", by_hand)
    assert typed_state[0]["winner"] == "Cat" and len(typed_state[1]) == 56
    assert await final_state(tmp_path, "burst", in_a_burst) == typed_state
    assert await final_state(tmp_path, "pasted", pasted) == typed_state


async def test_a_refused_line_in_a_paste_stops_the_lines_after_it(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", FOUR)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        app.post_message(events.Paste("r n\r\nnext dan\rq 1\ny n\nnext bo\n"))
        await pilot.pause()
        await refused_line_back(pilot, app.query_one("#entry", MoveLine))
        problem = str(app.query_one("#problem").render())
        assert problem.startswith("'q 1': 'q' is not a color here"), problem
        assert "The 2 lines pasted after it changed nothing" in problem
        assert session.state.plays == 1 and session.state.awaiting.player == "Dan"
        assert app.query_one("#entry", MoveLine).value == "q 1"  # selected: typing replaces it


async def test_a_paste_leaves_its_unfinished_last_line_to_be_completed(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "t.sqlite", "so-long-sucker", FOUR)
    app = SuckerApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        entry = app.query_one("#entry", MoveLine)
        app.post_message(events.Paste("r n\rnext dan\r"))  # tmux sends line ends as CR
        await pilot.pause()
        assert session.state.awaiting.player == "Dan" and entry.value == ""
        app.post_message(events.Paste("y"))
        await pilot.pause()
        assert entry.value == "y"
        app.post_message(events.Paste(" n\nnext b"))
        await pilot.pause()
        assert session.state.plays == 2 and entry.value == "next b"
    session.close()


async def test_a_paste_typed_out_as_keys_stops_at_a_refused_line(tmp_path: Path) -> None:
    """A terminal without bracketed paste (tmux's paste-buffer without -p) types a paste out
    key by key: the lines after a refused one were sent before the refusal could be read, and
    change nothing, as in a bracketed paste. Typed after the refusal is shown, a line stands
    alone: slowly typed, the same lines apply around the refused one."""
    lines = ["r n", "x 9", "next dan", "y n"]
    ends = {}
    for name, burst in (("slow", False), ("burst", True)):
        session = Session.create(tmp_path / f"{name}.sqlite", "so-long-sucker", FOUR)
        app = SuckerApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            if burst:
                for key, char in keys("".join(f"{line}\n" for line in lines)):
                    app.post_message(events.Key(key, char))
            else:
                for line in lines:
                    await typed(pilot, line)
            for _ in range(3):
                await pilot.pause()
            entry = app.query_one("#entry", MoveLine)
            if burst:
                await refused_line_back(pilot, entry)
            problem = str(app.query_one("#problem").render())
            if burst:
                assert problem.startswith("'x 9': "), problem
                assert "The 2 lines pasted after it changed nothing" in problem
                assert entry.value == "x 9" and entry.selected_text == "x 9"
                await typed(pilot, "next dan")  # typed once the refusal is shown: it counts
                assert session.state.awaiting.player == "Dan"
        ends[name] = len(session.rows)
        session.close()
    assert ends == {"slow": 3, "burst": 2}
