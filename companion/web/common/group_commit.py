"""Phones' commands that arrive together, committed together (a group commit).

A choice is acknowledged only once its row is committed to the session file (WAL,
synchronous=FULL: an fsync). One commit per choice makes a burst of a thousand choices a
thousand fsyncs in a row, each a few milliseconds on a laptop's disk. Here the commands whose
requests reach the loop together wait for the loop's next turn, are decided one after the other
(each against the state the ones before it left, exactly as if submitted in turn) and are
logged in one transaction (:meth:`Session.submit_many`); then each request is answered.
Commands that arrive meanwhile make the next group: the busier the loop, the more commands
share a commit. A lone command waits for nothing but its own commit.
"""

from __future__ import annotations

import asyncio

from companion.rules.core.game import Refused
from companion.rules.core.parsing import StrictModel
from companion.session.session import Outcome, Session
from companion.session.store import StoreError
from companion.web.common.context import Problem

Waiting = tuple[StrictModel, str, "asyncio.Future[Outcome]"]


class GroupCommit:
    """A session's group commit for the phones' commands (one per server)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._waiting: list[Waiting] = []
        self._due: asyncio.Handle | None = None

    async def submit(self, command: StrictModel, by: str) -> Outcome:
        """``command``'s outcome, once committed with those that arrived with it; raises
        :class:`StoreError` when the log could not be written (nothing changed)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Outcome] = loop.create_future()
        self._waiting.append((command, by, done))
        if self._due is None:
            self._due = loop.call_soon(self._commit)
        return await done

    def _commit(self) -> None:
        """Decide and commit the waiting group, and answer its requests."""
        self._due = None
        group, self._waiting = self._waiting, []
        try:
            outcomes = self.session.submit_many([(command, by) for command, by, _ in group])
        except Exception as error:  # noqa: BLE001 - each waiting request hears it
            for _, _, done in group:
                if not done.done():
                    done.set_exception(error)
            return
        for (_, _, done), outcome in zip(group, outcomes, strict=True):
            if not done.done():  # (a request whose phone went away: committed all the same)
                done.set_result(outcome)


async def submit_together(together: GroupCommit, command: StrictModel, by: str) -> Outcome:
    """A phone's command through the group commit; refused (409) or not recorded (503), it
    raises a Problem with the sentence that says why (as ``context.submit_for_phone``)."""
    try:
        outcome = await together.submit(command, by)
    except StoreError as error:
        raise Problem(503, str(error)) from None
    if isinstance(outcome, Refused):
        raise Problem.refusing(409, outcome)
    return outcome
