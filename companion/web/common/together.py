"""Phones' commands that arrive together, committed together (a group commit), while the loop
goes on.

A choice is acknowledged only once its row is committed to the session file (WAL,
synchronous=FULL: an fsync). One commit per choice makes a burst of a thousand choices a
thousand fsyncs in a row, each a few milliseconds on a laptop's disk. Here the commands whose
requests reach the loop together wait for the loop's next turn, are decided one after the other
(each against the state the ones before it left, exactly as if submitted in turn) and are
logged in one transaction (:meth:`Session.begin_many`): at once while the disk is quick, else
in the store's writing thread, and the loop serves every other request and stream while the
disk works. Once the commit is done, the loop applies the group (:meth:`Session.land`, which
tells the streams) and answers each request. Commands that arrive meanwhile wait for it and
make the next group: the busier the loop and the slower the disk, the more commands share a
commit. A lone command waits for nothing but its own commit.
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import Future
from typing import Any

from companion.rules.core.game import Refused
from companion.rules.core.parsing import StrictModel
from companion.session.session import Flight, Outcome, Session
from companion.session.store import StoreError
from companion.web.common.context import Problem

Waiting = tuple[StrictModel, str, "asyncio.Future[Outcome]"]


class Together:
    """A session's group commit for the phones' commands (one per server)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._waiting: list[Waiting] = []
        self._due: asyncio.Handle | None = None
        self._flying: tuple[Flight, list[Waiting]] | None = None  # the group being committed
        self._loop: asyncio.AbstractEventLoop | None = None
        self.commits = 0  # how many commits it made (for the tests and benchmarks)

    async def submit(self, command: StrictModel, by: str) -> Outcome:
        """``command``'s outcome, once committed with those that arrived with it; raises
        :class:`StoreError` when the log could not be written (nothing changed)."""
        loop = self._loop = asyncio.get_running_loop()
        done: asyncio.Future[Outcome] = loop.create_future()
        self._waiting.append((command, by, done))
        if self._due is None and self._flying is None:
            self._due = loop.call_soon(self._begin)
        return await done

    def _begin(self) -> None:
        """Decide the waiting group and hand it to the writing thread."""
        self._due = None
        group, self._waiting = self._waiting, []
        if not group:
            return
        try:
            flight = self.session.begin_many([(command, by) for command, by, _ in group])
        except Exception as error:  # noqa: BLE001 - each waiting request hears it
            _fail(group, error)
            return
        self._flying = (flight, group)
        if flight.committed():  # a quick disk, or all refused
            self._land()
            return
        loop = self._loop
        assert loop is not None and flight.written is not None

        def committed(_: Future[Any]) -> None:  # in the writing thread
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (the server
                loop.call_soon_threadsafe(self._land)  # stopped): the session lands it

        flight.written.add_done_callback(committed)

    def _land(self) -> None:
        """Apply the group once committed (unless something else landed it meanwhile, with the
        same outcomes), answer its requests, and begin the next group."""
        if self._flying is None:
            return
        (flight, group), self._flying = self._flying, None
        try:
            outcomes = self.session.land(flight)
        except Exception as error:  # noqa: BLE001 - each waiting request hears it
            _fail(group, error)
        else:
            if flight.written is not None:
                self.commits += 1
            for (_, _, done), outcome in zip(group, outcomes, strict=True):
                if not done.done():  # (a request whose phone went away: committed all the same)
                    done.set_result(outcome)
        if self._waiting and self._due is None and self._loop is not None:
            self._due = self._loop.call_soon(self._begin)


def _fail(group: list[Waiting], error: Exception) -> None:
    for _, _, done in group:
        if not done.done():
            done.set_exception(error)


async def submit_together(together: Together, command: StrictModel, by: str) -> Outcome:
    """A phone's command through the group commit; refused (409) or not recorded (503), it
    raises a Problem with the sentence that says why (as ``context.submit_for_phone``)."""
    try:
        outcome = await together.submit(command, by)
    except StoreError as error:
        raise Problem(503, str(error)) from None
    if isinstance(outcome, Refused):
        raise Problem.refusing(409, outcome)
    return outcome
