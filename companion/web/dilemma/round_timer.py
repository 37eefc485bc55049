"""The rounds' timer on the night's server: the open round closes when its time runs out,
whether or not a console is open (a console attached counts down and shows it; it closes
nothing itself).

When the server starts and the open round's time ran out while it was not running, and the
round had time left when the log last heard from the room, the server closes nothing: it
records the round held (:func:`~companion.rules.dilemma.room.to_hold`), and the consoles and
the game master's phone offer to give that time back or to close the round now. A round whose
time ran out before the log's last row (the server stopped just as it closed it) is closed at
once.

The server looks each :data:`STEP` seconds: a round closes at most that long after zero, the
phones' and the board's countdowns having shown 0:00 meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable

from aiohttp import web

from companion.rules.dilemma.commands import CloseRound
from companion.rules.dilemma.room import due, to_hold
from companion.session.dilemma import DilemmaSession
from companion.session.store import StoreError

STEP = 0.2  # seconds between two looks at the open round's timer
log = logging.getLogger(__name__)


def close_if_due(session: DilemmaSession, now: float) -> int | None:
    """Close the open round if its time has run out and it is not held; its number if so."""
    number = due(session.state, session.room, now)
    if number is None:
        return None
    session.submit(CloseRound(timed_out=True), by="timer")
    return number


def hold_if_ran_out(session: DilemmaSession, now: float) -> bool:
    """As the server starts: hold the open round if its time ran out while nothing counted
    it down and it had time left then (see the module's docstring); whether it did."""
    hold = to_hold(session.state, session.room, now, "server")
    if hold is None:
        return False
    session.stage(hold)
    return True


async def count_down(
    session: DilemmaSession, clock: Callable[[], float] = time.time, step: float = STEP
) -> None:
    """Close each round at zero, until cancelled; a log that cannot be written is told in the
    server's log and tried again at the next look (the round stays open meanwhile)."""
    while True:
        try:
            close_if_due(session, clock())
        except StoreError as error:
            log.warning("the round's timer could not close the round: %s", error)
        await asyncio.sleep(step)


def counting(
    session: DilemmaSession, clock: Callable[[], float] = time.time, step: float = STEP
) -> Callable[[web.Application], AsyncIterator[None]]:
    """The application's cleanup context: the hold (if any) before the server listens, then
    the countdown while it serves."""

    async def context(app: web.Application) -> AsyncIterator[None]:
        hold_if_ran_out(session, clock())
        task = asyncio.create_task(count_down(session, clock, step), name="round timer")
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    return context
