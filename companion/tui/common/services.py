"""Services an app runs beside itself in its event loop (the phone server and the like).

The composition root hands an app async starters; each returns an async stopper. Starting one
may fail (the console goes on without it); stopping never fails a quit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

Stopper = Callable[[], Awaitable[None]]
Starter = Callable[[Any], Awaitable[Stopper]]


class StartedServices:
    """The stoppers of the services started so far."""

    def __init__(self) -> None:
        self._stoppers: list[Stopper] = []

    def __bool__(self) -> bool:
        return bool(self._stoppers)

    async def start(
        self,
        starters: Iterable[Starter],
        app: Any,
        failed: Callable[[Exception], None],
    ) -> list[Starter]:
        """Start each service; the ones that could not start (to try again later)."""
        not_started: list[Starter] = []
        for start in starters:
            try:
                self._stoppers.append(await start(app))
            except Exception as error:  # noqa: BLE001 - the app works without it
                not_started.append(start)
                failed(error)
        return not_started

    async def stop(self) -> None:
        stoppers, self._stoppers = self._stoppers, []
        for stop in reversed(stoppers):
            with contextlib.suppress(Exception):  # quitting must always work
                await stop()
