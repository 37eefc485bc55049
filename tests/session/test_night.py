"""The night's server and its consoles: the game master's key, two consoles on one night, a
stale command, the record, stopping by itself."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion.rules.core.game import Refused
from companion.session.attached import AttachedSession
from companion.session.night import (
    NightRecord,
    answering,
    game_master_key,
    key_path,
    read_record,
    record_path,
    write_record,
)
from companion.session.prison.seats import seats_of
from companion.session.session import Change, Session
from companion.session.store import StoreError
from tests.conftest import demo_session
from tests.night_helpers import Night, serving


@pytest.fixture
def path(tmp_path: Path) -> Path:
    session = demo_session(tmp_path, "friday")
    seats_of(session)  # the seats exist
    where = session.store.path
    session.close()
    return where


def post(url: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def log_length(path: Path) -> int:
    session = Session.open(path)
    try:
        return len(session.rows)
    finally:
        session.close()


def test_the_key_is_the_users_alone_and_kept(path: Path) -> None:
    key = game_master_key(path)
    assert len(key) >= 40 and game_master_key(path) == key
    if os.name != "nt":
        assert key_path(path).stat().st_mode & 0o777 == 0o600


def test_commands_without_the_key_are_refused_in_one_sentence(path: Path) -> None:
    with serving(path) as night:
        base = f"http://127.0.0.1:{night.port}"
        command = {"command": {"do": "close_planning"}, "after": 0}
        before = log_length(path)
        ada = next(s for s in seats_of(night.session) if s.name == "Ada")
        attempts = [
            {},  # no key
            {"Authorization": "Bearer not-the-key-at-all-not-the-key-at-all-0123"},
            {"Authorization": f"Bearer {ada.token}"},  # a player's token
            {"Authorization": ada.token},
        ]
        for headers in attempts:
            status, answer = post(f"{base}/api/gm/command", command, headers)
            assert status == 403
            assert answer == {"error": "That needs the game master's key, which this request "
                              "does not carry; only the console on the game master's laptop "
                              "has it."}
        # another site's page, even with the key (it could never read it): refused as a write
        key = {"Authorization": f"Bearer {game_master_key(path)}"}
        status, _ = post(f"{base}/api/gm/command", command,
                         {**key, "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"})
        assert status == 403
        for where in ("/api/gm/hello", "/api/gm/follow"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"{base}{where}", timeout=5)
            assert refused.value.code == 403
        assert log_length(path) == before
        status, _ = post(f"{base}/api/gm/command", command, key)
        assert status == 200
    assert log_length(path) == before + 1


def test_guessing_the_key_is_limited_like_every_secret_link(path: Path) -> None:
    with serving(path) as night:
        base = f"http://127.0.0.1:{night.port}"
        wrong = {"Authorization": "Bearer guess"}
        statuses = [post(f"{base}/api/gm/note", {"what": "x"}, wrong)[0] for _ in range(22)]
        assert statuses[:20] == [403] * 20 and statuses[20:] == [429, 429]


def test_no_page_a_phone_can_load_carries_the_key(path: Path) -> None:
    key = game_master_key(path)
    with serving(path) as night:
        base = f"http://127.0.0.1:{night.port}"
        pages = ["/board", "/join", "/api/board"]
        pages += [f"/p/{s.token}" for s in seats_of(night.session)]
        pages += [f"/api/p/{s.token}" for s in seats_of(night.session)]
        for page in pages:
            with urllib.request.urlopen(f"{base}{page}", timeout=5) as answer:
                assert key not in answer.read().decode()


def test_two_consoles_follow_one_night_and_a_stale_command_is_refused(path: Path) -> None:
    with serving(path) as night:
        first, second = night.attach(), night.attach()
        heard: list[Change] = []
        second.subscribe(lambda _, change: heard.append(change))
        second.follow(lambda handle: handle())  # handled on the follower's thread here
        try:
            made = first.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
            assert not isinstance(made, Refused)
            deadline = time.monotonic() + 1.0  # each console shows every move within a second
            while time.monotonic() < deadline and "Ada" not in second.state.day.choices:
                time.sleep(0.01)
            assert second.state.day.choices == {"Ada": "work"}
            assert any(c.kind == "command" for c in heard)
            # two consoles asked to undo Ada's choice: the first is done; the other had not seen
            # it yet (it does not follow: a frozen terminal), and its undo is refused
            behind = night.attach()
            target = first.history.last_undoable()
            assert target is not None
            done = first.undo(only=target.seq)
            assert not isinstance(done, Refused)
            refused = behind.undo(only=target.seq)
            assert isinstance(refused, Refused)
            assert refused.reason.startswith("Another console changed the game a moment ago")
            assert behind.state.day.choices == {}  # and it now shows what the server holds
            behind.close()
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline and second.state.day.choices:
                time.sleep(0.01)
            assert second.state.day.choices == first.state.day.choices == {}
            assert isinstance(second.undo(only=target.seq), Refused)  # it saw: nothing sent
            # a console's own change is seen by itself at once, as a local session's
            entry = second.submit({"do": "choose", "prisoner": "Ben", "choice": "rest"})
            assert not isinstance(entry, Refused) and second.state.day.choices == {"Ben": "rest"}
            # a command the rules refuse is the rules' own sentence, with nothing sent
            before = len(second.rows)
            no = second.submit({"do": "choose", "prisoner": "Wendy", "choice": "work"})
            assert isinstance(no, Refused) and len(second.rows) == before
        finally:
            first.close()
            second.close()


def test_settings_and_notes_go_through_the_one_writer(path: Path) -> None:
    with serving(path) as night:
        console = night.attach()
        try:
            console.set("lang", "fr")
            assert night.session is not None
            assert night.session.settings["lang"] == "fr" and console.settings["lang"] == "fr"
            row = console.note("peek", what_for="test")
            assert row.body == {"what": "peek", "what_for": "test"}
            assert night.session.rows[-1].seq == row.seq
            with pytest.raises(StoreError):
                console.store.append("note", {"what": "x"})  # the console never writes itself
        finally:
            console.close()


def test_a_command_to_a_server_gone_is_one_sentence_and_changes_nothing(path: Path) -> None:
    night = Night(path)
    night.start()
    console = night.attach()
    night.stop()
    try:
        with pytest.raises(StoreError, match="not answering, so this was not recorded"):
            console.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    finally:
        console.close()
    assert Session.open(path).state.day.choices == {}


def test_a_stale_record_is_noticed(path: Path, tmp_path: Path) -> None:
    write_record(path, NightRecord(2**22 + 12345, "127.0.0.1", 1, "127.0.0.1", time.time()))
    assert read_record(path) is not None
    assert answering(path) is None  # its process is gone
    write_record(path, NightRecord(os.getpid(), "127.0.0.1", 1, "127.0.0.1", time.time()))
    assert answering(path) is None  # alive, but not a server of this night


def test_the_server_stops_once_the_game_is_over_and_unwatched(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    from companion.cli import serve
    from companion.games import game_rules
    from companion.session import session as sessions

    monkeypatch.setattr(serve, "WATCH_SECONDS", 0.05)
    monkeypatch.setenv(serve.UNWATCHED_ENV, "0.3")
    over = dataclasses.replace(game_rules("prison-break"), is_over=lambda state: True)
    monkeypatch.setattr(sessions, "game_rules", lambda name: over)  # as if it were over
    night = Night(path)
    night.start()
    console = night.attach()
    console.follow(lambda handle: handle())
    time.sleep(0.6)
    assert night.thread is not None and night.thread.is_alive()  # watched: it serves on
    console.close()
    night.thread.join(5)
    assert not night.thread.is_alive() and not record_path(path).exists()
    night.stop()


def test_the_server_stops_when_its_session_file_is_gone(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.cli import serve

    monkeypatch.setattr(serve, "WATCH_SECONDS", 0.05)
    night = Night(path)
    night.start()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    assert night.thread is not None
    night.thread.join(5)
    assert not night.thread.is_alive() and not record_path(path).exists()
    night.stop()


def test_an_attached_session_replays_as_the_server_holds_it(path: Path) -> None:
    with serving(path) as night:
        console = night.attach()
        try:
            for prisoner in ("Ada", "Ben"):
                console.submit({"do": "choose", "prisoner": prisoner, "choice": "work"})
            assert night.session is not None
            assert console.state == night.session.state
            assert console.room == night.session.room
            again = AttachedSession.attach(path, console.record)
            assert again.state == console.state and again.last_seq == console.last_seq
            again.close()
        finally:
            console.close()
