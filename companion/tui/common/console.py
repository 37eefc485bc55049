"""The base of every game console (:class:`GameConsole`): what the prison's, the warm-up's and the
referee's consoles share, so that each keeps only its own screens and keys.

- **Following the session**: :meth:`GameConsole.follow_session` subscribes to its changes
  (:mod:`.follow`); each is heard on the app's thread (:meth:`GameConsole.heard`) and drawn
  through the one redraw throttle, :attr:`GameConsole.redrawing`, which tells the screens with a
  :class:`~.follow.Redraw` or a :class:`~.follow.PhonesSeen`. A ``bad_tokens`` note (an address
  guessing links) is one notice (:mod:`.guesses`).
- **Services** (the phone server and the like, :mod:`.services`): started once the console shows
  what it needs to, stopped on quitting and on unmounting; :meth:`GameConsole.services_started`
  says how it went.
- **Faults** (:mod:`.faults`): an error in an action stops the console, noted in ``crashed`` and
  the log next to the session; an error in a flow is one toast and the console goes on.
- **Quitting** (:mod:`.quitting`): ``q`` in the middle of a game asks first
  (:meth:`GameConsole.under_way`); ctrl+q quits at once.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from typing import Any, ClassVar

from textual.actions import ActionParseResult
from textual.app import SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen

from companion.language import Language
from companion.session.session import Change, Session
from companion.tui.common.faults import Faults
from companion.tui.common.follow import REDRAW_SECONDS, Redrawing, SessionChanged, follow
from companion.tui.common.guesses import WrongLinks
from companion.tui.common.language import console_language, key_name, translated_commands
from companion.tui.common.literal import LiteralNotices
from companion.tui.common.presence import Presence, heard
from companion.tui.common.quitting import quit_asking
from companion.tui.common.services import StartedServices, Stopper

Service = Callable[[Any], Awaitable[Stopper]]


class GameConsole(LiteralNotices[None]):
    """A console on one game's session: follows it, runs its services, meets its faults and
    asks before quitting in the middle of a game. Subclasses add their screens and keys."""

    # Changes from elsewhere are drawn at most this often (the one throttle, :attr:`redrawing`).
    REDRAW_SECONDS: ClassVar[float] = REDRAW_SECONDS

    def __init__(
        self,
        *,
        services: Iterable[Service] = (),
        lang: Language | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.lang = lang or console_language()
        self.faults = Faults(self._tell_fault, lambda: self.exit(return_code=1), self.lang)
        self.services = list(services)
        self.redrawing = Redrawing(self, self.REDRAW_SECONDS)
        self.wrong_links = WrongLinks(self, lambda: self.lang, clock)
        self._started_services = StartedServices()
        self._not_started: list[Service] = []  # services that could not start (to try again)
        self._followed: Session | None = None
        self._unfollow: Callable[[], None] | None = None

    @property
    def crashed(self) -> BaseException | None:
        """The error that stopped the console (the runner reopens the session from its log)."""
        return self.faults.crashed

    @crashed.setter
    def crashed(self, error: BaseException | None) -> None:
        self.faults.crashed = error

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from translated_commands(super().get_system_commands(screen), self.lang)

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer and the key lists show it, named in the console's language."""
        return key_name(super().get_key_display(binding), self.lang)

    # ---- following the session ----------------------------------------------------------

    def follow_session(self, session: Session) -> None:
        """Follow ``session`` (and no other): its changes are heard here; an error is written
        next to it."""
        if self._followed is session:
            return
        self.unfollow()
        self._followed = session
        self._unfollow = follow(self, session)
        self.faults.log = session.store.path.with_suffix(".console-errors.log")

    def unfollow(self) -> None:
        if self._unfollow is not None:
            self._unfollow()
        self._unfollow, self._followed = None, None

    @property
    def presence(self) -> Presence | None:
        """Each seat's phone as last heard, taken in from the session's presence signals
        (``None``: the console shows no phones)."""
        return None

    def on_session_changed(self, message: SessionChanged) -> None:
        self.faults.stopping(self._heard)(message.change)

    def _heard(self, change: Change) -> None:
        row = change.row
        if change.kind == "note" and row is not None and row.body.get("what") == "bad_tokens":
            self.wrong_links.heard(row.body)
        self.heard(change)

    def heard(self, change: Change) -> None:
        """A change of the session (from here, a phone or a passing signal): drawn through
        the throttle, only the phones' column when only a phone came or went."""
        presence = self.presence
        seat = heard(presence, change.signal) if presence is not None else None
        self.redrawing.due(phone=seat)

    def refresh_screens(self) -> None:
        """Draw every screen again now (after a move made here)."""
        self.redrawing.now()

    def flush_redraw(self) -> None:
        """Draw what is due now (tests call it to see a change from elsewhere at once)."""
        self.redrawing.flush()

    # ---- services (the phone server and the like) ---------------------------------------

    def start_services(self, services: list[Service] | None = None) -> None:
        """Start the services in a worker (``services``: only those, again)."""
        self.run_worker(self._start_services(services), name="services", exit_on_error=False)

    async def _start_services(self, services: list[Service] | None) -> None:
        problems: list[Exception] = []
        self._not_started = await self._started_services.start(
            self.services if services is None else services, self, problems.append
        )
        self.services_started(problems, again=services is not None)

    @property
    def services_running(self) -> bool:
        return bool(self._started_services)

    @property
    def services_not_started(self) -> list[Service]:
        return list(self._not_started)

    def services_started(self, problems: list[Exception], *, again: bool) -> None:
        """The services were started (``again``: those that could not start before); each
        of ``problems`` kept one from starting."""

    async def action_quit(self) -> None:
        await self._started_services.stop()
        self.unfollow()
        self.exit()

    async def on_unmount(self) -> None:
        await self._started_services.stop()

    # ---- quitting: q asks first in the middle of a game ---------------------------------

    def under_way(self) -> bool:
        """A game is under way: quitting would leave the phones and the board without it."""
        return False

    def reopen(self) -> str:
        """The command that opens this game again."""
        return "companion"

    async def action_quit_asking(self) -> None:
        """q: asks first while a game is under way (the phones and the board lose it)."""
        await quit_asking(self, under_way=self.under_way(), reopen=self.reopen())

    # ---- faults: a flow's is reported, an action's stops the console --------------------

    def _tell_fault(self, text: str) -> None:
        self.notify(text, severity="error", timeout=12)

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Textual's ``run_action`` (every key's action goes through it); an error is noted
        (``crashed``, the log) and stops the console: the runner reopens the session."""
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except Exception as error:  # noqa: BLE001 - noted; the runner reopens the session
            self.faults.stop(error)
            return True

    def run_guarded(self, flow: Coroutine[Any, Any, None]) -> None:
        """Run ``flow`` (a dialog and what follows it) in a worker; an error in it is
        reported and the console goes on."""

        async def guarded() -> None:
            with self.faults.caught():
                await flow

        self.run_worker(guarded(), group="flow")
