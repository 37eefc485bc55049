"""One console's event stream on the game master's desk (:mod:`companion.web.common.desk`):
where it is in the log and what else it has not heard yet, never a backlog of rows."""

from __future__ import annotations

import asyncio
from typing import Any

from companion.session.presence import SeatPresence
from companion.session.session import Session
from companion.web.common.context import log_version


class ConsoleStream:
    """One console's event stream: where it is in the log and what else it has not heard
    (the latest of each seat's presence, a few passing events), never a backlog of rows."""

    def __init__(self, session: Session, sent: int) -> None:
        self.session = session
        self.sent = sent
        self.seats: dict[str, SeatPresence] = {}
        self.others: list[dict[str, Any]] = []
        self.ready = asyncio.Event()

    def wake(self) -> None:
        self.ready.set()

    def seat(self, presence: SeatPresence) -> None:
        self.seats[presence.seat] = presence
        self.ready.set()

    def tell(self, event: dict[str, Any]) -> None:
        if len(self.others) < 100:
            self.others.append(event)
        self.ready.set()

    def due(self) -> list[dict[str, Any]]:
        self.ready.clear()
        events: list[dict[str, Any]] = []
        now = log_version(self.session)
        if now != self.sent:
            self.sent = now
            events.append({"log": now})
        for presence in self.seats.values():
            events.append({"presence": {"seat": presence.seat, "connected": presence.connected,
                                        "since": presence.since}})
        self.seats.clear()
        events.extend(self.others)
        self.others.clear()
        return events
