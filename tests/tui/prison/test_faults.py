"""When the laptop itself fails: a full disk, a read-only data folder, a port already taken.

The failure is made at the store boundary: the session file's SQLite connection answers every
write with the error SQLite gives for a full disk or a read-only file (the machine runs tests
as root, so a read-only folder cannot be made for real). Whatever the face, the answer is one
clear sentence and nothing changes; once the disk has room again, the game goes on with
nothing lost.
"""

from __future__ import annotations

import argparse
import json
import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.cli.wiring import phone_service
from companion.session.prison.seats import seats_of
from companion.session.session import Session
from companion.tui.prison.app import ConsoleApp
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.tui.support import board_row, pick, screen_text, shows
from tests.tui.terminal import notices

FAULTS = {
    "disk full": ("database or disk is full", "is full"),
    "read-only": ("attempt to write a readonly database", "read-only"),
}


class FailingWrites:
    """The session's SQLite connection, except that every write fails as SQLite would."""

    def __init__(self, db: sqlite3.Connection, message: str) -> None:
        self._db = db
        self.message = message
        self.refused = 0

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE"):
            self.refused += 1
            raise sqlite3.OperationalError(self.message)
        return self._db.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        self.refused += 1
        raise sqlite3.OperationalError(self.message)

    def __enter__(self) -> Any:
        return self._db.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self._db.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def break_store(session: Session, monkeypatch: pytest.MonkeyPatch, message: str) -> FailingWrites:
    failing = FailingWrites(session.store._db, message)
    monkeypatch.setattr(session.store, "_db", failing)
    return failing


def file_rows(session: Session) -> list[tuple[Any, ...]]:
    with sqlite3.connect(session.store.path) as db:
        return db.execute("SELECT seq, kind, body FROM log ORDER BY seq").fetchall()


def notifications(app: ConsoleApp) -> list[str]:
    return notices(app)


def one_sentence(text: str) -> None:
    assert "\n" not in text and "Traceback" not in text and "Error(" not in text
    assert text.endswith(".") and text[0].isupper()


@pytest.fixture
def session(tmp_path: Path):
    s = demo_session(tmp_path, "night")
    s.submit({"do": "choose", "prisoner": "Ben", "choice": "work"})
    yield s
    s.close()


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_the_console_refuses_clearly_and_loses_nothing(
    session: Session, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    message, words = FAULTS[fault]
    before_rows, before_state = file_rows(session), session.state
    app = ConsoleApp(session, ticking=False)
    async with app.run_test(notifications=True, size=(120, 36)) as pilot:
        failing = break_store(session, monkeypatch, message)
        await pilot.press("c")
        await pick(pilot, app, "Ada")
        await pilot.press("w")
        await pilot.pause()
        assert "PRIVATE" not in screen_text(app)  # the secret prompt does not linger
        [said] = [m for m in notifications(app) if words in m]
        one_sentence(said)
        assert "nothing was changed" in said
        assert failing.refused >= 1
        assert session.state == before_state and file_rows(session) == before_rows
        assert board_row(app, "Ada")[3] == "waiting" and board_row(app, "Ben")[3] == "chosen"
        await pilot.press("ctrl+z", "y")  # an undo is refused the same way
        await pilot.pause()
        assert session.state == before_state and file_rows(session) == before_rows
        # Room on the disk again: the same action works and the earlier move is still there.
        monkeypatch.setattr(session.store, "_db", failing._db)
        await pilot.press("c")
        await pick(pilot, app, "Ada")
        await pilot.press("w")
        await pilot.pause()
        assert board_row(app, "Ada")[3] == "chosen"
    reopened = Session.open(session.store.path)
    try:
        assert reopened.state.day.choices == {"Ben": "work", "Ada": "work"}
    finally:
        reopened.close()


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_phone_gets_503_in_one_sentence_and_nothing_changes(
    session: Session, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    message, words = FAULTS[fault]
    ada = next(s for s in seats_of(session) if s.name == "Ada")
    url = f"/api/p/{ada.token}/choice"
    async with TestClient(TestServer(build_app(session), host="127.0.0.1")) as client:
        before_rows, before_state = file_rows(session), session.state
        failing = break_store(session, monkeypatch, message)
        r = await client.post(url, data=json.dumps({"choice": "work"}))
        assert r.status == 503
        body = await r.json()
        assert list(body) == ["error"] and words in body["error"]
        one_sentence(body["error"])
        assert failing.refused == 1
        assert session.state == before_state and file_rows(session) == before_rows
        view = await (await client.get(f"/api/p/{ada.token}")).json()
        assert view["me"]["choice"] is None  # the phone is not told it was saved
        monkeypatch.setattr(session.store, "_db", failing._db)
        r = await client.post(url, data=json.dumps({"choice": "work"}))
        assert r.status == 200
    assert [row[1] for row in file_rows(session)] == ["command", "command"]


async def test_a_full_disk_does_not_turn_a_wrong_link_into_an_error(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The note for the game master about guessed links is skipped when it cannot be written;
    the guesser still gets the plain 404 and then 429."""
    from companion.web.common.context import Limiter

    app = build_app(session, limiter=Limiter(limit=2))
    seats_of(session)  # the seats exist (they are made when the links are first shown)
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        break_store(session, monkeypatch, FAULTS["disk full"][0])
        statuses = [(await client.get(f"/api/p/guess{i}")).status for i in range(4)]
    assert statuses == [404, 404, 429, 429]


def busy_port() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


async def test_a_taken_port_is_a_banner_that_stays_until_f5_starts_the_phones(
    session: Session,
) -> None:
    with busy_port() as sock:
        port = sock.getsockname()[1]
        args = argparse.Namespace(host="127.0.0.1", port=port, public_url=None)
        start, _links = phone_service(args)
        app = ConsoleApp(session, ticking=False, services=[start])
        async with app.run_test(notifications=True, size=(120, 36)) as pilot:
            for _ in range(50):
                await pilot.pause(0.05)
                if app.context.phones_down:
                    break
            banner = (
                f"The phones cannot connect: port {port} is in use by another program. Close "
                f"it and press F5 to try again, or quit and run companion resume "
                f"{session.name} --port {port + 1}."
            )
            assert app.context.phones_down == banner
            assert shows(app, banner) and "Traceback" not in screen_text(app)
            await pilot.pause()
            assert "f5 Phones again" in screen_text(app).splitlines()[-1]  # in the footer
            await pilot.press("c")  # the game goes on at the console
            await pick(pilot, app, "Ada")
            await pilot.press("r")
            await pilot.pause(0.5)  # the banner stays (a notice would be gone by now)
            assert board_row(app, "Ada")[3] == "chosen" and shows(app, banner)
            # the Seats screen says why, and does not blame --no-phones
            await pilot.press("w")
            await pilot.pause()
            assert shows(app, f"port {port} is in use") and not shows(app, "--no-phones")
            await pilot.press("escape")
            await pilot.pause()
            # F5 while the port is still taken: the banner stays
            await pilot.press("f5")
            for _ in range(20):
                await pilot.pause(0.05)
            assert shows(app, banner)
            sock.close()  # the other program is closed
            await pilot.press("f5")
            for _ in range(50):
                await pilot.pause(0.05)
                if app.context.phones_down is None:
                    break
            assert app.context.phones_down is None and not shows(app, "cannot connect")
            assert shows(app, "The phone server is up")
            await pilot.pause()
            assert "Phones again" not in screen_text(app).splitlines()[-1]
            await app.action_quit()
    assert session.state.day.choices["Ada"] == "rest"
