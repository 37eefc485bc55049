"""A night's server for tests: ``companion serve``'s own loop, run in a thread of the test's
process (faster than a process of its own), and consoles' sessions attached to it."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.session.attached import AttachedSession
from companion.session.night import NightRecord, answering, game_master_key
from companion.session.session import Session


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Night:
    """A night's server running in a thread: :meth:`stop` ends it, :meth:`start` again."""

    def __init__(self, path: Path, port: int | None = None, **options: Any) -> None:
        self.path = path
        self.port = port or free_port()
        self.options = options
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.session: Session | None = None
        self.failed: BaseException | None = None

    def start(self) -> NightRecord:
        from companion.cli import serve

        game_master_key(self.path)
        args = argparse.Namespace(
            host="127.0.0.1", port=self.port, public_url=None, quiet=True, per_device=None,
            bots=None, name=self.path.stem, data_dir=str(self.path.parent),
        )
        for key, value in self.options.items():
            setattr(args, key, value)
        self.session = Session.open(self.path, holder=serve.HOLDER)

        def run() -> None:
            loop = asyncio.new_event_loop()
            self.loop = loop
            try:
                assert self.session is not None
                loop.run_until_complete(serve._serve(self.session, args))
            except BaseException as error:  # noqa: BLE001 - told to the test
                self.failed = error
            finally:
                loop.close()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            found = answering(self.path, timeout=0.5)
            if found is not None:
                return found[0]
            if self.failed is not None:
                raise self.failed
            time.sleep(0.02)
        raise TimeoutError("the night's server did not answer")

    def stop(self) -> None:
        """Stop it as ``companion stop`` does (the desk's stop), and close its session."""
        loop, thread = self.loop, self.thread
        if loop is not None and thread is not None and thread.is_alive():
            desk = self._desk()
            if desk is not None:
                loop.call_soon_threadsafe(desk.stop)
            thread.join(10)
        if self.session is not None:
            self.session.close()
            self.session = None
        self.thread = self.loop = None

    def kill(self) -> None:
        """Stop it as a crash would: no goodbye on the consoles' streams."""
        desk = self._desk()
        if desk is not None:
            desk.close = lambda: None
        self.stop()

    def _desk(self) -> Any:
        from companion.web.common.desk import Desk

        session = self.session
        if session is None:
            return None
        for subscriber in list(session._subscribers):
            owner = getattr(subscriber, "__self__", None)
            if isinstance(owner, Desk):
                return owner
        return None

    def attach(self) -> AttachedSession:
        found = answering(self.path)
        assert found is not None
        return AttachedSession.attach(self.path, found[0])


@contextlib.contextmanager
def serving(path: Path, port: int | None = None, **options: Any) -> Iterator[Night]:
    """The night's server of the session file ``path`` while the block runs."""
    night = Night(path, port, **options)
    night.start()
    try:
        yield night
    finally:
        night.stop()


async def until(check: Any, seconds: float = 5.0, pilot: Any = None) -> None:
    """Wait (letting the loop run) until ``check()`` is true."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        if pilot is not None:
            await pilot.pause(0.02)
        else:
            await asyncio.sleep(0.02)
    assert check()
