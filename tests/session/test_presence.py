"""Presence as the session tells it: a typed, frozen SeatPresence for every subscriber, never a
row of the log."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.session.presence import SeatPresence
from companion.session.session import Change, Session
from tests.conftest import demo_session


def test_presence_reaches_every_subscriber_as_it_was_told_and_is_never_logged(
    tmp_path: Path,
) -> None:
    session = demo_session(tmp_path)
    heard: list[Change] = []
    also: list[SeatPresence | None] = []
    session.subscribe(lambda s, change: heard.append(change))
    session.subscribe(lambda s, change: also.append(change.signal))
    news = SeatPresence("Ada", True, 1.0e9)
    session.signal(news)
    assert [(c.kind, c.row, c.entry, c.signal) for c in heard] == [("signal", None, None, news)]
    assert also == [news]
    assert session.rows == [] and list(session.store.rows()) == []
    with pytest.raises(dataclasses.FrozenInstanceError):
        news.connected = False  # type: ignore[misc]
    path = session.store.path
    session.close()
    reopened = Session.open(path)
    assert reopened.rows == []
    reopened.close()
