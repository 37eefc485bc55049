"""The base of every game console (:class:`GameConsole`): what the prison's, the warm-up's and the
referee's consoles share, so that each keeps only its own screens and keys.

- **Following the session**: :meth:`GameConsole.follow_session` subscribes to its changes
  (:mod:`.follow`); each is handled on the app's thread (:meth:`GameConsole.session_changed`), drawn
  through the one redraw throttle, :attr:`GameConsole.redrawing`, which tells the screens with a
  :class:`~.follow.Redraw` or a :class:`~.follow.PhonesSeen`. A ``bad_tokens`` note (an address
  guessing links) is one notice (:mod:`.guesses`).
- **The night's server**: a console on an attached session (:mod:`companion.session.attached`)
  follows the server's stream; when the server goes away, comes back or is stopped,
  :meth:`GameConsole.night_changed` says so (the runner has the server started again).
- **Faults** (:mod:`.faults`): an error in an action stops the console, noted in ``crashed`` and
  the log next to the session; an error in a flow is one toast and the console goes on.
- **Notices** are plain text: a name in one is shown as typed, never read as markup (nor as a
  clickable action), whoever calls ``notify`` (:func:`.literal.visible`).
- **Quitting** (:mod:`.quitting`): ``q`` in the middle of a game asks first
  (:meth:`GameConsole.under_way`); ctrl+q quits at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import Any, ClassVar

from textual.actions import ActionParseResult
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.notifications import SeverityLevel
from textual.screen import Screen

from companion.language import Language
from companion.session.attached import AttachedSession
from companion.session.session import Change, Session
from companion.tui.common.faults import Faults
from companion.tui.common.follow import REDRAW_SECONDS, Redrawing, SessionChanged, follow
from companion.tui.common.guesses import WrongLinks
from companion.tui.common.language import console_language, key_name, translated_commands
from companion.tui.common.literal import visible
from companion.tui.common.presence import Presence, seat_seen
from companion.tui.common.quitting import quit_asking


class GameConsole(App[None]):
    """A console on one game's session: follows it (through its night's server when one serves
    it), meets its faults, asks before quitting and shows its notices as plain text.
    Subclasses add their screens and keys."""

    # Changes from elsewhere are drawn at most this often (the one throttle, :attr:`redrawing`).
    REDRAW_SECONDS: ClassVar[float] = REDRAW_SECONDS

    def __init__(
        self,
        *,
        lang: Language | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.lang = lang or console_language()
        self.faults = Faults(self._tell_fault, lambda: self.exit(return_code=1), self.lang)
        self.redrawing = Redrawing(self, self.REDRAW_SECONDS)
        self.wrong_links = WrongLinks(self, lambda: self.lang, clock)
        self._followed: Session | None = None
        self._unfollow: Callable[[], None] | None = None

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        del markup  # a notice's sentence holds names: never markup
        super().notify(
            visible(message, lines=True),
            title=visible(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

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
        if isinstance(session, AttachedSession):
            loop = asyncio.get_running_loop()

            def schedule(handle: Callable[[], None]) -> None:
                loop.call_soon_threadsafe(handle)

            session.follow(schedule)

    def unfollow(self) -> None:
        if self._unfollow is not None:
            self._unfollow()
        if isinstance(self._followed, AttachedSession):
            self._followed.unfollow()
        self._unfollow, self._followed = None, None

    @property
    def served(self) -> AttachedSession | None:
        """The session followed, when a night's server serves it (the console is attached)."""
        followed = self._followed
        return followed if isinstance(followed, AttachedSession) else None

    @property
    def presence(self) -> Presence | None:
        """Each seat's phone as last heard, taken in from the session's presence signals
        (``None``: the console shows no phones)."""
        return None

    def on_session_changed(self, message: SessionChanged) -> None:
        self.faults.stopping(self._heard)(message.change)

    def _heard(self, change: Change) -> None:
        if change.kind == "night":
            self.night_changed(change.night or "")
            return
        row = change.row
        if change.kind == "note" and row is not None and row.body.get("what") == "bad_tokens":
            self.wrong_links.noted(row.body)
        self.session_changed(change)

    def session_changed(self, change: Change) -> None:
        """A change of the session (from here, a phone or a passing signal): drawn through
        the throttle, only the phones' column when only a phone came or went."""
        presence = self.presence
        seat = seat_seen(presence, change.signal) if presence is not None else None
        self.redrawing.due(phone=seat)

    def refresh_screens(self) -> None:
        """Draw every screen again now (after a move made here)."""
        self.redrawing.now()

    def night_changed(self, news: str) -> None:
        """The night's server went away ("lost": it is being started again), answers again
        ("back"), or was stopped on purpose ("stopped": the console has nothing to follow)."""
        _ = self.lang
        if news == "lost":
            self.notify(
                _("The night's server is not answering; starting it again (nothing is lost)."),
                severity="warning", timeout=8,
            )
        elif news == "back":
            self.notify(_("The night's server answers again."), timeout=5)
            self.redrawing.now()
        elif news == "stopped":
            self.exit()

    async def action_quit(self) -> None:
        self.unfollow()
        self.exit()

    # ---- quitting: q asks first in the middle of a game ---------------------------------

    def under_way(self) -> bool:
        """A game is under way: quitting would leave the phones and the board without it."""
        return False

    def reopen(self) -> str:
        """The command that opens this game again."""
        return "companion"

    async def action_quit_asking(self) -> None:
        """q: with a night's server, asks whether the phones keep playing; alone, asks first
        while a game is under way (the phones and the board lose it)."""
        served = self.served
        stop = None
        if served is not None:

            async def stop() -> None:
                await asyncio.to_thread(served.stop_serving)

        await quit_asking(self, under_way=self.under_way(), reopen=self.reopen(),
                          stop_serving=stop)

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
