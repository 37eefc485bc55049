"""Following the session: one way for every console.

The session tells its subscribers of each change on the console's own thread (an attached
session's rows are read back there from its night's server's stream). :func:`follow` turns
each change into a :class:`SessionChanged` message posted to the app (or the one screen that
shows the session); it is handled on the app's own thread.

:class:`Redrawing` keeps a room of phones from redrawing the screens more often than every
``REDRAW_SECONDS``: it tells the screens with a :class:`Redraw` (everything) or a
:class:`PhonesSeen` (only some phones' connection), each posted to every screen on the stack; a
screen that shows the session handles them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.message import Message
from textual.message_pump import MessagePump
from textual.timer import Timer

from companion.session.session import Change, Session

# Changes from elsewhere (phones) are drawn at most this often: a redraw costs the console some
# milliseconds, and a room of phones makes dozens of changes a second that the game master
# would otherwise wait behind at the keyboard.
REDRAW_SECONDS = 0.12


class SessionChanged(Message):
    """The session changed (here, on a phone, or a passing signal)."""

    def __init__(self, change: Change) -> None:
        super().__init__()
        self.change = change


class Redraw(Message, bubble=False):
    """Draw the session again (sent down to each screen)."""


class PhonesSeen(Message, bubble=False):
    """Only these seats' phones were seen: their connection is all that changed."""

    def __init__(self, seats: frozenset[str]) -> None:
        super().__init__()
        self.seats = seats


def follow(target: MessagePump, session: Session) -> Callable[[], None]:
    """Post a :class:`SessionChanged` to ``target`` (an app, or the screen that shows the
    session) for each change of ``session``; returns the function that stops it."""

    def tell(_: Session, change: Change) -> None:
        target.post_message(SessionChanged(change))  # thread-safe

    return session.subscribe(tell)


class Redrawing:
    """When ``app``'s screens are drawn again: at once after a quiet spell, else once
    ``seconds`` (``REDRAW_SECONDS`` unless told) have passed since the last redraw; changes
    arriving meanwhile share it. The one redraw throttle of every console."""

    def __init__(self, app: App[Any], seconds: float = REDRAW_SECONDS) -> None:
        self.app = app
        self.seconds = seconds  # the least time between two redraws
        self._whole = False  # a change is not drawn yet
        self._phones: set[str] = set()  # seats whose phone was seen since the last draw
        self._pending = False
        self._timer: Timer | None = None
        self._last = -seconds

    def due(self, *, phone: str | None = None) -> None:
        """A change to draw (``phone``: only that seat's phone was seen)."""
        if phone is None:
            self._whole = True
        else:
            self._phones.add(phone)
        if self._pending:
            return
        self._pending = True
        wait = self._last + self.seconds - time.monotonic()
        if wait <= 0:
            self.app.call_later(self.flush)  # after the messages already queued
        else:
            self._timer = self.app.set_timer(wait, self.flush, name="redraw")

    def flush(self) -> None:
        """Draw what is due now."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._pending = False
        whole, phones = self._whole, self._phones
        self._whole, self._phones = False, set()
        if whole:
            self.now()
        elif phones:
            seen = frozenset(phones)
            self._send(lambda: PhonesSeen(seen))

    def now(self) -> None:
        """Draw everything now (after a move made here)."""
        self._last = time.monotonic()
        self._whole, self._phones = False, set()
        self._send(Redraw)

    def _send(self, message: Callable[[], Message]) -> None:
        for screen in self.app.screen_stack:
            if screen.is_mounted:  # a new screen draws on mounting
                screen.post_message(message())
