"""When the links' address no longer matches the printed cards, the console says so loudly and
keeps saying it; the game master pins the printed address, picks one of the laptop's addresses
or reprints. The Seats screen shows the seat codes (masked until asked) and the join address."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.session import links
from companion.session.prison import seats
from companion.tui.common.dialogs import PickScreen
from companion.tui.prison.app import ConsoleApp
from companion.tui.prison.game import GameScreen
from companion.tui.prison.printout import PrintScreen
from companion.tui.prison.seats import MASK, SeatsScreen
from tests.conftest import demo_session
from tests.night_helpers import serving
from tests.tui.support import board_row, pick, shows

PRINTED = "http://192.168.1.20:8765"
SERVED = "http://10.0.0.5:8765"
BOTH = [("wlan0", "10.0.0.5"), ("eth0", "192.168.1.20"), ("lo", "127.0.0.1")]


def demo(folder: Path, printed: str | None = PRINTED, served: str | None = SERVED) -> Any:
    session = demo_session(folder, "demo")
    if printed:
        session.set("printed_url", printed)
    if served:
        session.set("served_url", served)
    return session


async def test_a_changed_address_warns_until_the_printed_one_is_pinned(tmp_path: Path) -> None:
    session = demo(tmp_path)
    app = ConsoleApp(session, ticking=False, addresses=lambda: BOTH)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        warning = f"ADDRESS CHANGED: the cards were printed with {PRINTED}"
        assert shows(app, warning) and shows(app, f"the links now start with {SERVED}")
        assert not shows(app, "This laptop has no address")  # it does: eth0
        # the warning stays through the game's changes
        session.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
        await pilot.pause()
        assert board_row(app, "Ada")[3] == "chosen" and shows(app, warning)
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, SeatsScreen) and shows(app, warning)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        assert shows(app, "This laptop has several addresses")
        keys = [k for k, _ in app.screen.options]
        assert keys == ["pin", f"url:{SERVED}", f"url:{PRINTED}", "reprint"]
        await pick(pilot, app, "pin")
        assert session.settings["public_url"] == PRINTED
        assert links.current_base(session) == PRINTED and not links.address_changed(session)
        assert not shows(app, "ADDRESS CHANGED")
        assert shows(app, f"Seats: players' links start with {PRINTED}")
        assert shows(app, f"No QR? Open {PRINTED}/join and type the seat code")
        await pilot.press("escape", "h")
        await pilot.pause()
        assert shows(app, f"The players' links were pinned to {PRINTED}.")


async def test_an_address_the_laptop_lost_says_so_and_offers_the_print_screen(
    tmp_path: Path,
) -> None:
    session = demo(tmp_path)
    app = ConsoleApp(session, ticking=False, addresses=lambda: [("wlan0", "10.0.0.5")])
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        assert shows(app, "This laptop has no address 192.168.1.20 now.")
        assert shows(app, "L: pin the printed address or pick another · P: reprint the cards.")
        await pilot.press("l")
        await pick(pilot, app, "reprint")
        assert isinstance(app.screen, PrintScreen)
        assert shows(app, f"The cards' links will start with {SERVED}.")
        assert "public_url" not in session.settings


async def test_pick_an_interface_then_unpin(tmp_path: Path) -> None:
    session = demo(tmp_path, printed=None, served="http://10.0.0.5:9000")
    app = ConsoleApp(session, ticking=False, addresses=lambda: BOTH)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        assert not shows(app, "ADDRESS CHANGED")
        await pilot.press("ctrl+p")
        await pilot.press(*"links: address")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        keys = [k for k, _ in app.screen.options]
        # loopback is no use to a phone; the served port goes with the chosen address
        assert keys == ["url:http://10.0.0.5:9000", "url:http://192.168.1.20:9000", "reprint"]
        await pick(pilot, app, "url:http://192.168.1.20:9000")
        assert session.settings["public_url"] == "http://192.168.1.20:9000"
        await pilot.press("l")
        await pilot.pause()
        assert "unpin" in [k for k, _ in app.screen.options]  # type: ignore[attr-defined]
        await pick(pilot, app, "unpin")
        assert links.current_base(session) == "http://10.0.0.5:9000"
        assert [r.body.get("url") for r in session.notes("address_pinned")] == [
            "http://192.168.1.20:9000",
            None,
        ]


async def test_attached_to_its_nights_server_the_console_hints_and_warns(
    tmp_path: Path,
) -> None:
    session = demo(tmp_path, served=None)
    session.set("printed_url", None)
    path = session.store.path
    session.close()
    with serving(path) as night:
        attached = night.attach()
        app = ConsoleApp(attached, ticking=False, addresses=lambda: BOTH)
        async with app.run_test(notifications=True, size=(120, 36)) as pilot:
            await pilot.pause()
            assert shows(app, "This laptop has 2 network addresses; the links use")
            assert not shows(app, "That went wrong")
            assert not shows(app, "ADDRESS CHANGED")
            await app.action_quit()
        attached.close()
    second = demo(tmp_path / "again", served=None)
    path = second.store.path
    second.close()
    with serving(path) as night:
        attached = night.attach()
        app = ConsoleApp(attached, ticking=False, addresses=lambda: BOTH)
        async with app.run_test(notifications=True, size=(120, 36)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            assert shows(app, f"ADDRESS CHANGED: the cards were printed with {PRINTED}")
            await app.action_quit()
        attached.close()


async def test_seat_codes_are_masked_until_shown_and_hide_again(tmp_path: Path) -> None:
    session = demo(tmp_path, printed=None)
    app = ConsoleApp(session, ticking=False, private_seconds=20)
    async with app.run_test(notifications=True, size=(80, 24)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SeatsScreen)
        codes = [f"{s.code[:4]} {s.code[4:]}" for s in seats.seats_of(session)]
        assert shows(app, MASK) and not any(shows(app, c) for c in codes)
        assert shows(app, f"No QR? Open {SERVED}/join and type the seat code.")
        assert not shows(app, "PRIVATE")
        await pilot.press("c")
        await pilot.pause()
        assert all(shows(app, c) for c in codes)
        assert shows(app, "PRIVATE: seat codes are on screen. They hide in 20 s")
        assert screen.codes_timed  # armed: they hide by themselves
        screen.codes_off()  # what the timer does when it fires
        await pilot.pause()
        assert not any(shows(app, c) for c in codes) and not shows(app, "PRIVATE")
        await pilot.press("c", "c")
        await pilot.pause()
        assert not any(shows(app, c) for c in codes) and not screen.codes_timed


async def test_another_port_cannot_be_pinned_away(tmp_path: Path) -> None:
    session = demo(tmp_path, printed="http://10.0.0.5:8765", served="http://10.0.0.5:9000")
    app = ConsoleApp(session, ticking=False, addresses=lambda: [("wlan0", "10.0.0.5")])
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        assert shows(app, "The phone server listens on port 9000: quit and resume with --port 8765")
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        assert [k for k, _ in app.screen.options] == ["reprint"]  # one address, other port
        assert shows(app, "The cards use port 8765, but the phone server listens on 9000")


async def test_the_game_screen_shows_the_join_address(tmp_path: Path) -> None:
    session = demo(tmp_path, printed=None)
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(80, 24)):
        assert shows(app, f"No QR code? Type the seat code at {SERVED}/join")


async def test_with_the_real_phone_server_the_banner_follows_where_it_listens(
    tmp_path: Path,
) -> None:
    session = demo(tmp_path, printed="http://127.0.0.1:1", served=None)
    path = session.store.path
    session.close()
    with serving(path) as night:
        attached = night.attach()
        app = ConsoleApp(attached, ticking=False, addresses=lambda: BOTH)
        async with app.run_test(notifications=True, size=(120, 36)) as pilot:
            await pilot.pause()
            here = f"http://127.0.0.1:{night.port}"
            assert links.current_base(attached) == here
            assert shows(app, "ADDRESS CHANGED: the cards were printed with http://127.0.0.1:1")
            assert shows(app, "quit and resume with --port 1, or P: reprint the cards.")
            assert shows(app, f"No QR code? Type the seat code at {here}/join")
            await app.action_quit()
        attached.close()
