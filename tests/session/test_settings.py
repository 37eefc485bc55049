"""Settings (seats, language, Wi-Fi, addresses) are rows of the session's log: logged before
they are held, read back exactly after a crash, never taken back by an undo, and a file from
before (its settings in the ``meta`` table alone) opens with them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from companion.rules.dilemma.commands import Join
from companion.session.dilemma.seats import META_KEY, forget, new_seat, origins, pid_for
from companion.session.session import Session
from companion.session.store import Store
from tests.dilemma_helpers import scenario


def _warm_up(path: Path) -> Session:
    return Session.create(path, "dilemma", {"rules": scenario(rounds=2)})


def test_a_setting_is_a_row_of_the_log_and_comes_back_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    s = _warm_up(path)
    heard: list[str] = []
    s.subscribe(lambda _, change: heard.append(change.kind))
    row = s.set("lang", "fr")
    assert row is not None and row.kind == "setting" and s.settings["lang"] == "fr"
    assert s.set("lang", "fr") is None  # the same value again: nothing logged
    assert heard == ["setting"]
    s.close()  # no close of the store's own: the row was committed when set returned
    with sqlite3.connect(path) as db:
        kinds = [k for (k,) in db.execute("SELECT kind FROM log")]
        meta = dict(db.execute("SELECT key, value FROM meta"))
    assert kinds == ["setting"] and "lang" not in meta
    again = Session.open(path)
    assert again.settings["lang"] == "fr"
    store = Store.open(path)
    assert store.settings() == dict(again.settings)  # read without replaying the history
    store.close()
    again.close()


def test_an_undo_takes_back_a_move_but_never_a_setting(tmp_path: Path) -> None:
    s = _warm_up(tmp_path / "d.sqlite")
    s.submit(Join(pid="p1", name="Ada"))
    s.set("lang", "de")
    undone = s.undo()
    assert not hasattr(undone, "reason")
    assert "p1" not in s.state.players and s.settings["lang"] == "de"
    s.close()


def test_seats_are_a_row_each_and_a_forgotten_one_stops_working(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    s = _warm_up(path)
    tokens = [new_seat(s, f"127.0.1.{i}", now=1000.0 + i) for i in range(1, 4)]
    pid, token = tokens[0]
    assert pid_for(s, token) == pid and origins(s)[pid].address == "127.0.1.1"
    forget(s, token)
    assert pid_for(s, token) is None and set(origins(s)) == {p for p, _ in tokens[1:]}
    bodies = [r.body for r in s.rows]
    assert [sorted(b) for b in bodies] == [["add", "key"]] * 3 + [["drop", "key"]]
    s.close()
    again = Session.open(path)
    assert [seat["token"] for seat in again.settings[META_KEY]] == [t for _, t in tokens[1:]]
    again.close()


def test_a_file_from_before_keeps_the_settings_of_its_meta_table(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    _warm_up(path).close()
    with sqlite3.connect(path) as db:  # how an older version kept the language
        db.execute("INSERT INTO meta(key, value) VALUES ('lang', ?)", (json.dumps("es"),))
    s = Session.open(path)
    assert s.settings["lang"] == "es"
    s.set("lang", "fr")
    s.close()
    assert Session.open(path).settings["lang"] == "fr"
