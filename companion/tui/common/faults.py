"""When something in a console goes wrong: the game is safe in the session log either way.

An error in a redraw or in a flow (a dialog and what follows it) is shown in one toast, its
details appended to a file next to the session, and the console goes on. An error in an action
or in one of the app's own handlers stops the console with the error noted in ``crashed``: the
runner reopens the session from its log. Only Textual's public points are used (the app's
``run_action`` and ``exit``); an error Textual meets elsewhere (a screen failing to compose)
stops the app its own way, with return code 1.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ParamSpec, TypeVar

from companion.language import Language, language

P = ParamSpec("P")
T = TypeVar("T")


class Faults:
    """The crash log of a console and the two ways it meets an error."""

    def __init__(
        self,
        tell: Callable[[str], None],
        quit: Callable[[], None],
        lang: Language | None = None,
    ) -> None:
        self.tell = tell  # shows one sentence to the game master
        self.quit = quit  # stops the console (with return code 1)
        self.lang = lang or language()  # the console's: what the game master reads
        self.log: Path | None = None  # the file next to the session
        self.crashed: BaseException | None = None

    def write(self, error: BaseException) -> str:
        """Append the details to the log; returns " (details in F)", or "" without a log."""
        if self.log is None:
            return ""
        try:
            with self.log.open("a", encoding="utf-8") as log:
                log.write("".join(traceback.format_exception(error)) + "\n")
        except OSError:
            return ""
        _ = self.lang
        return " " + _("(details in %(log)s)", log=str(self.log))

    def report(self, error: BaseException) -> None:
        """Say it went wrong, log the details; the console goes on."""
        where = self.write(error)
        _ = self.lang
        self.tell(
            _(
                "That went wrong: %(error)s%(details)s. The game is safe in the session log.",
                error=str(error),
                details=where,
            )
        )

    def guarded(self, func: Callable[P, T]) -> Callable[P, T | None]:
        """``func``, reporting an error instead of raising it."""

        @functools.wraps(func)
        def run(*args: P.args, **kwargs: P.kwargs) -> T | None:
            try:
                return func(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - reported, the console goes on
                self.report(error)
                return None

        return run

    @contextmanager
    def caught(self) -> Iterator[None]:
        """A block whose error is reported instead of raised (a flow's body)."""
        try:
            yield
        except Exception as error:  # noqa: BLE001 - reported, the console goes on
            self.report(error)

    def stop(self, error: BaseException) -> None:
        """Note an error and stop the console (the runner reads ``crashed``)."""
        self.crashed = error
        self.write(error)
        self.quit()

    def stopping(self, func: Callable[P, T]) -> Callable[P, T | None]:
        """``func``, stopping the console on an error instead of raising it."""

        @functools.wraps(func)
        def run(*args: P.args, **kwargs: P.kwargs) -> T | None:
            try:
                return func(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - noted; the runner reopens the session
                self.stop(error)
                return None

        return run
