"""When the laptop itself fails: a full disk, a read-only data folder, a port already taken.

The failure is made at the store boundary: the session file's SQLite connection answers every
write with the error SQLite gives for a full disk or a read-only file (the machine runs tests
as root, so a read-only folder cannot be made for real). Whatever the face, the answer is one
clear sentence and nothing changes; once the disk has room again, the game goes on with
nothing lost.
"""

from __future__ import annotations

import json
import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.session.prison.seats import seats_of
from companion.session.session import Session
from companion.tui.prison.app import ConsoleApp
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.night_helpers import Night, until
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
    assert [row[1] for row in file_rows(session)] == ["command", "setting", "command"]


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


async def test_a_nights_server_that_stops_answering_is_a_banner_until_it_answers(
    tmp_path: Path,
) -> None:
    session = demo_session(tmp_path, "demo")
    path = session.store.path
    session.close()
    night = Night(path)
    night.start()
    attached = night.attach()
    app = ConsoleApp(attached, ticking=False)
    try:
        async with app.run_test(notifications=True, size=(120, 36)) as pilot:
            await pilot.pause()
            night.kill()  # the console has nothing to follow
            await until(lambda: app.context.phones_down is not None, pilot=pilot)
            banner = (
                "The night's server is not answering, so the phones cannot play; it is being "
                "started again (nothing is lost)."
            )
            assert shows(app, banner) and "Traceback" not in screen_text(app)
            await pilot.press("c")  # a move meanwhile is one sentence: not recorded
            await pick(pilot, app, "Ada")
            await pilot.press("r")
            await pilot.pause(0.3)
            assert "not recorded" in " ".join(notices(app))
            night.start()  # on the same port: the console follows it again by itself
            await until(lambda: app.context.phones_down is None, pilot=pilot, seconds=8)
            await until(lambda: not shows(app, banner), pilot=pilot)  # at the next redraw
            await pilot.press("c")
            await pick(pilot, app, "Ada")
            await pilot.press("r")
            await until(lambda: board_row(app, "Ada")[3] == "chosen", pilot=pilot)
            await app.action_quit()
    finally:
        attached.close()
        night.stop()
    again = Session.open(path)
    assert again.state.day.choices["Ada"] == "rest"
    again.close()
