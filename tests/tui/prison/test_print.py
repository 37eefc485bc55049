"""The console's Print screen: paper size and path asked, the PDF written in a worker thread
by the printer the composition root hands in, and where it went (or why not) shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.cli.wiring import print_cards
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.game import GameScreen
from companion.tui.prison.printout import PrintScreen
from tests.conftest import demo_session
from tests.tui.support import shows, type_text

LETTER = b"/MediaBox [0 0 612.00 792.00]"
A4 = b"/MediaBox [0 0 595.28 841.89]"


def demo(folder: Path) -> Any:
    session = demo_session(folder, "demo")
    session.set("served_url", "http://127.0.0.1:8765")
    return session


async def finish(app: ConsoleApp, pilot: Any) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def test_print_letter_next_to_the_session(tmp_path: Path) -> None:
    session = demo(tmp_path)
    app = ConsoleApp(session, ticking=False, printer=print_cards)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PrintScreen)
        assert shows(app, "The cards' links will start with http://127.0.0.1:8765.")
        out = screen.query_one("#print-out")
        assert out.value == str(tmp_path / "demo-a4.pdf")  # type: ignore[attr-defined]
        await pilot.press("f2")  # Letter; the default path follows the paper
        assert out.value == str(tmp_path / "demo-letter.pdf")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await finish(app, pilot)
        pdf = tmp_path / "demo-letter.pdf"
        assert shows(app, f"Printed to {pdf} (links on http://127.0.0.1:8765)")
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF") and LETTER in data and A4 not in data
        assert session.settings["printed_url"] == "http://127.0.0.1:8765"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_print_from_the_palette_to_a_chosen_file_a4(tmp_path: Path) -> None:
    session = demo(tmp_path)
    app = ConsoleApp(session, ticking=False, printer=print_cards)
    target = tmp_path / "out" / "table.pdf"
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        await pilot.press("ctrl+p")
        await type_text(pilot, "print the cards")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PrintScreen)
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, str(target))
        await pilot.press("ctrl+s")
        await finish(app, pilot)
        assert A4 in target.read_bytes()
        assert shows(app, f"Printed to {target}")


async def test_a_path_that_cannot_be_written_gets_one_sentence(tmp_path: Path) -> None:
    session = demo(tmp_path)
    (tmp_path / "notes.txt").write_text("a file, not a folder")
    app = ConsoleApp(session, ticking=False, printer=print_cards)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, str(tmp_path / "notes.txt" / "cards.pdf"))
        await pilot.press("enter")
        await finish(app, pilot)
        assert shows(app, f"The PDF cannot be written to {tmp_path / 'notes.txt' / 'cards.pdf'}")
        assert shows(app, "Nothing was printed.")
        assert isinstance(app.screen, PrintScreen) and not app.screen.busy
        assert "printed_url" not in session.settings
        assert list(tmp_path.rglob("*.pdf")) == []


async def test_without_a_printer_the_screen_says_so(tmp_path: Path) -> None:
    session = demo(tmp_path)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        await pilot.press("p", "enter")
        await pilot.pause()
        assert shows(app, "Printing is not available in this console; use 'companion print'.")
        assert list(tmp_path.glob("*.pdf")) == []
