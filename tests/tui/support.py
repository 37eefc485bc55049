"""Helpers for the console's pilot tests (no tests here): drive the UI by keys, read the screen."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList

from companion.language import Language
from companion.session.create import game_label, open_session
from companion.session.paths import session_path
from companion.session.prison.create import create_prison_session
from companion.tui.common.dialogs import PickScreen
from companion.tui.prison.app import ConsoleApp, SessionShelf
from tests import stage_helpers as stage
from tests.tui.terminal import terminal_lines

# A day of the demo's game (warden Wendy; Ada, Ben, Cy, Dee), phase by phase, as commands.
PLANNING = [
    {"do": "choose", "prisoner": "Ada", "choice": "work"},
    {"do": "choose", "prisoner": "Cy", "choice": "rest"},
]
INTERVIEWS = [
    *PLANNING,
    {"do": "choose", "prisoner": "Ben", "choice": "work"},
    {"do": "close_planning"},
    {"do": "interview", "prisoner": "Ada", "deal": True},
]
ACCUSATIONS = [
    *INTERVIEWS,
    {"do": "search", "prisoner": "Ben"},
    {"do": "accuse", "accuser": "Dee", "accused": "Ada"},
]
OVER = [*ACCUSATIONS, {"do": "end_day"}]

# Words that would give away a sealed choice on the game master's screen.
SEALED_WORDS = re.compile(r"\b(work|works|worked|working|rest|rests|rested|resting)\b", re.I)


def shelf(folder: Path, overrides: dict[str, Any] | None = None) -> SessionShelf:
    return SessionShelf(
        folder,
        lambda name, scenario, warden, prisoners: create_prison_session(
            folder, name, scenario, warden, prisoners, rules_overrides=overrides
        ),
        lambda name: open_session(folder, name),
        lambda name: game_label(session_path(folder, name)),
    )


def new_app(folder: Path, overrides: dict[str, Any] | None = None, **kw: Any) -> ConsoleApp:
    """The console as ``companion new game --scenario classic`` opens it."""
    kw.setdefault("ticking", False)
    return ConsoleApp(shelf=shelf(folder, overrides), new=("game", "classic"), **kw)


def screen_text(app: ConsoleApp) -> str:
    """Everything on the terminal now (the top screen over what it covers), as plain text."""
    return "\n".join(terminal_lines(app))


def widget_text(app: ConsoleApp) -> str:
    """The text of every Static on the top screen, unwrapped (for sentences that wrap)."""
    from textual.widgets import Static

    parts = [str(w.render()) for w in app.screen.query(Static) if w.display and w.region.area]
    return " ".join(" ".join(parts).split())


def everything(app: ConsoleApp) -> str:
    """The screen as drawn, then the same words unwrapped."""
    return screen_text(app) + "\n" + widget_text(app)


def shows(app: ConsoleApp, phrase: str) -> bool:
    return phrase in everything(app)


def board_row(app: ConsoleApp, name: str) -> list[str]:
    from companion.tui.prison.board import Board

    board = app.screen.query_one(Board)
    return [str(cell) for cell in board.get_row(name)]


async def type_text(pilot: Pilot[Any], text: str) -> None:
    await pilot.press(*[("space" if c == " " else c) for c in text])


async def set_up(pilot: Pilot[Any], warden: str, prisoners: list[str]) -> None:
    await type_text(pilot, warden)
    await pilot.press("enter")
    for name in prisoners:
        await type_text(pilot, name)
        await pilot.press("enter")
    await pilot.press("ctrl+s")
    await pilot.pause()


async def pick(pilot: Pilot[Any], app: ConsoleApp, key: str) -> None:
    """Choose ``key`` in the open pick list with the arrow keys and Enter."""
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, PickScreen), f"expected a pick list, got {screen!r}"
    keys = [k for k, _ in screen.options]
    assert key in keys, f"{key!r} is not offered: {keys}"
    at = screen.query_one(OptionList).highlighted or 0
    target = keys.index(key)
    await pilot.press(*(["down"] * (target - at) if target >= at else ["up"] * (at - target)))
    await pilot.press("enter")
    await pilot.pause()


def offered(app: ConsoleApp, screen: Any = None) -> list[str]:
    """The picks the open pick list offers."""
    screen = screen or app.screen
    assert isinstance(screen, PickScreen)
    return [k for k, _ in screen.options]


async def choose(pilot: Pilot[Any], app: ConsoleApp, name: str, choice: str) -> None:
    await pilot.press("c")
    await pick(pilot, app, name)
    assert "PRIVATE" in screen_text(app)
    await pilot.press("w" if choice == "work" else "r")
    await pilot.pause()
    # the private prompt hid itself
    assert "PRIVATE" not in screen_text(app)


def assert_sealed(app: ConsoleApp) -> None:
    text = screen_text(app)
    found = SEALED_WORDS.search(text)
    assert found is None, f"a sealed choice may show: {found.group(0)!r} in\n{text}"


def assert_tokens_hidden(app: ConsoleApp) -> None:
    for p in app.session.state.roster:
        assert board_row(app, p)[4] == "hidden"
    assert "PRIVATE VIEW" not in screen_text(app)


def game(
    folder: Path, commands: list[dict[str, Any]], lang: Language | None = None, **overrides: Any
) -> ConsoleApp:
    """The console on a fresh demo game after ``commands`` (each search's reveal already shown
    to the room), in ``lang`` (English by default), with the scenario's rules ``overrides``."""
    session = create_prison_session(
        folder, "demo", "classic", "Wendy", ["Ada", "Ben", "Cy", "Dee"],
        rules_overrides=overrides or None,
    )
    for command in commands:
        assert not hasattr(session.submit(command), "reason"), command
        if command["do"] == "search":  # the room has seen its reveal
            stage.step_reveal(session, to_end=True)
    return ConsoleApp(session, ticking=False, lang=lang)


def seen(app: Any) -> str:
    """What the terminal shows now, read from Textual's public screenshot (every screen, dialog
    and notice drawn), then each widget's own text unwrapped (a name a toast or a Static wrapped
    over two lines is whole there) and each table's cells."""
    import html
    from collections import defaultdict

    from textual.widgets import DataTable

    svg = app.export_screenshot()
    clip = re.search(r'<clipPath id="[^"]*-line-0">\s*<rect [^>]*width="([\d.]+)"', svg)
    assert clip is not None
    cell = float(clip.group(1)) / app.size.width
    rows: dict[int, list[tuple[int, str]]] = defaultdict(list)
    tag = r'<text [^>]*x="([\d.]+)" [^>]*clip-path="url\(#[^"]*-line-(\d+)\)">(.*?)</text>'
    for x, line, content in re.findall(tag, svg):
        rows[int(line)].append(
            (round(float(x) / cell), html.unescape(content).replace("\xa0", " "))
        )
    lines = []
    for line in sorted(rows):
        drawn = ""
        for col, piece in sorted(rows[line]):
            drawn += " " * max(0, col - cell_len(drawn)) + piece
        lines.append(drawn)
    parts = []
    for screen in [*app.screen_stack]:
        for widget in screen.query("Static, Label, Toast"):
            if widget.display:
                parts.append(str(widget.render()))
        for table in screen.query(DataTable):
            parts.extend(str(c) for key in table.rows for c in table.get_row(key))
    for toast in app.query("Toast"):  # notices live on the app's toast rack
        parts.append(str(toast.render()))
    return "\n".join(lines) + "\n" + " ".join(" ".join(parts).split())


def cell_len(text: str) -> int:
    from rich.cells import cell_len as width

    return width(text)


def shows_name(text: str, name: str) -> bool:
    """``name`` is on screen as typed, whole or cut short by its column (``Abcd…``)."""
    if name in text:
        return True
    return any(name[:k] + "…" in text for k in range(min(4, len(name)), len(name)))


async def shown_soon(pilot: Pilot[Any], app: Any, *names: str, within: float = 5.0) -> None:
    """Each of ``names`` on screen as typed (:func:`shows_name`), waiting for the console's
    throttled redraw up to ``within`` seconds however busy the machine is; else the screen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        text = seen(app)
        missing = [n for n in names if not shows_name(text, n)]
        if not missing:
            return
        if loop.time() > deadline:
            raise AssertionError(f"{missing[0]!r} is not shown as typed in:\n{text}")
        await pilot.pause(0.05)


async def key_in(pilot: Pilot[Any], text: str) -> None:
    """Type ``text`` into the focused field as a user would: key by key, and what a keyboard
    has no key for (an emoji, a right-to-left letter) pasted, as a user pastes it."""
    from textual import events

    for char in text:
        if char.isascii():
            await pilot.press("space" if char == " " else char)
        else:
            focused = pilot.app.focused
            assert focused is not None, "nothing to type into"
            focused.post_message(events.Paste(char))
            await pilot.pause()


async def drawn(pilot: Pilot[Any], app: Any) -> None:
    """Let the changes made elsewhere be drawn: wait out the console's redraw throttle."""
    await pilot.pause()
    await pilot.pause(app.redrawing.seconds + 0.05)
    await pilot.pause()
