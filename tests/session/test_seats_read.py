"""The warm-up's seats are decoded once per change of the stored text, and a change written
by anyone (another handle on the same file) is seen at once."""

from __future__ import annotations

from pathlib import Path

from companion.session.dilemma.seats import forget, new_seat, origins, pid_for
from companion.session.session import Session
from tests.dilemma_helpers import scenario


def test_seats_written_elsewhere_are_seen_and_forgotten_ones_stop_working(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    s = Session.create(path, "dilemma", {"rules": scenario(rounds=2)})
    pid, token = new_seat(s, "127.0.1.1")
    assert pid_for(s, token) == pid and origins(s)[pid].address == "127.0.1.1"
    other = Session.open(path)  # another handle on the file writes a seat
    pid2, token2 = new_seat(other, "127.0.1.2")
    assert pid_for(s, token2) == pid2 and set(origins(s)) == {pid, pid2}
    forget(other, token)
    assert pid_for(s, token) is None and set(origins(s)) == {pid2}
    other.close()
    s.close()


def test_a_seat_added_is_stored_as_the_whole_list_would_be(tmp_path: Path) -> None:
    import json

    from companion.session.dilemma.seats import META_KEY

    s = Session.create(tmp_path / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    tokens = [new_seat(s, f"127.0.1.{i}", now=1000.0 + i)[1] for i in range(1, 4)]
    text = s.store.meta_text(META_KEY)
    assert text is not None and text == json.dumps(json.loads(text))
    assert [seat["token"] for seat in json.loads(text)] == tokens
    s.close()
