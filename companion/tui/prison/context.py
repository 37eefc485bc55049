"""What the prison console's screens are handed (attributes down) and the messages they post
to the app (messages up). No screen knows the app's class."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal

from textual.message import Message
from textual.screen import Screen

from companion.language import Language, language
from companion.rules.prison.events import DayStarted
from companion.rules.prison.views import MoveRow, record, story, table
from companion.session import links
from companion.session.prison import PrisonSession
from companion.session.prison.interviews import (
    interview_seconds,
)
from companion.session.session import Session
from companion.tui.common.contracts import Addresses, BalanceFactory, Links, NetworkCheck, Printer
from companion.tui.common.faults import Faults
from companion.tui.common.presence import Presence
from companion.tui.prison import address
from companion.tui.prison.notes import note_line, wrong_link_lines
from companion.tui.prison.timeline import timeline

Prison = PrisonSession  # a prison break's session, its room folded (the screens' name for it)


@dataclass
class SessionShelf:
    """Where sessions are kept and how to make or open one (given by the composition root)."""

    folder: Path
    create: Callable[[str, str, str, list[str]], Prison]  # name, scenario, warden, prisoners
    open: Callable[[str], Session]  # a session of any game: the console leaves for its own
    game_of: Callable[[str], str] | None = None  # a few words on what a session holds


@dataclass
class Context:
    """The open session and what the laptop offers beside it (all optional but the faults)."""

    faults: Faults
    shelf: SessionShelf | None = None
    links: Links | None = None
    printer: Printer | None = None
    addresses: Addresses | None = None
    network: NetworkCheck | None = None  # the venue preflight's test page (the Seats screen's I)
    balance: BalanceFactory[Screen[None]] | None = None
    private_seconds: float = 20.0  # how long a secret stays on screen
    ticking: bool = True  # clocks run (tests turn them off)
    clock: Callable[[], float] = time.time
    presence: Presence = field(default_factory=dict)  # seat -> its phone, connected or away
    # Why the phone server is not running when it should be (``None``: it runs, or was not
    # asked for): a banner on the game screen says so until it is up.
    phones_down: str | None = None
    opened: Prison | None = None

    @property
    def session(self) -> Prison:
        if self.opened is None:
            raise RuntimeError("no session is open yet")
        return self.opened

    def interview_seconds(self) -> int:
        return interview_seconds(self.session)

    def known_addresses(self) -> list[tuple[str, str]] | None:
        """The laptop's addresses, or None when the composition root gave no way to know."""
        if self.addresses is None:
            return None
        try:
            return list(self.addresses())
        except OSError:
            return None

    def address_warning(self, lang: Language | None = None) -> str | None:
        """The line warning that the printed cards' address changed, in ``lang`` (English by
        default); ``None`` while it has not."""
        if not links.address_changed(self.session):
            return None
        return address.warning(self.session, self.known_addresses(), lang)

    def wrong_links(self, *, earlier: bool = False, lang: Language | None = None) -> list[str]:
        """The addresses paused for too many wrong links (and, ``earlier``, those that were),
        in ``lang`` (English by default)."""
        notes = []
        for row in self.session.notes("bad_tokens"):
            try:
                at = datetime.fromisoformat(row.at).timestamp()
            except ValueError:
                continue
            notes.append((at, row.body))
        return wrong_link_lines(notes, self.clock(), earlier=earlier, lang=lang)

    def record(self) -> list[MoveRow]:
        """The rules' record of the game: every move where it was made, undone ones and
        their corrections included."""
        return record(self.session.history.entries)

    def extras(self, lang: Language | None = None) -> list[tuple[int, float, str]]:
        """The log's notes, spoiler-free (never a choice or a deal), each with the day it
        belongs to and where in the history it was written (just after the move or undo
        before it). In ``lang`` (English by default)."""
        _ = lang or language()
        undo_days = {r["seq"]: r["day"] for r in self.record() if r["kind"] == "undo"}
        day, after = 1, 0
        lines: list[tuple[int, float, str]] = []
        entries = self.session.history.entries
        for row in self.session.rows:
            if row.kind == "command":
                after = row.body["hseq"]
                for event in entries[after - 1].events:
                    if isinstance(event, DayStarted):
                        day = event.number
            elif row.kind == "undo":
                after = row.body["hseq"]
                day = undo_days.get(row.body["hseq"], day)
            elif row.kind == "note":
                line = note_line(row.body, row.at, _)
                if line:
                    lines.append((day, after + 0.5, line))
        return lines

    def history_lines(self, full: bool, lang: Language | None = None) -> list[str]:
        """The history screen's lines (``full``: the whole story), in ``lang`` (English by
        default)."""
        _ = lang or language()
        state = self.session.state
        return timeline(
            table(state), story(state) if full else None, self.extras(_), _, self.record()
        )


class SessionOpened(Message):
    """A screen opened or created ``session`` (of any game: another game's opens in its own
    console): play it."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session


class NewSession(Message):
    """Set up a new session called ``name`` on ``scenario`` (``None``: automatic, the one
    balanced for the group's size)."""

    def __init__(self, name: str, scenario: str | None) -> None:
        super().__init__()
        self.name = name
        self.scenario = scenario


class BackToPicker(Message):
    """Leave the set-up for the list of sessions."""


class Moved(Message):
    """A move was made here: draw it now."""


Place = Literal["history", "seats", "help", "print", "address", "balance", "report", "phone"]


class Show(Message):
    """Open one of the console's places."""

    def __init__(self, what: Place) -> None:
        super().__init__()
        self.what = what
