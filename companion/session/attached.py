"""A session as a console holds it while a night's server serves it: a client, not a writer.

:class:`AttachedSession` is a :class:`~companion.session.session.Session` whose state, room and
rows are a replica, read from the session file (which holds every row before anyone is told
of it), and whose changes go to the night's server with the game master's key
(:mod:`companion.session.night`): the server decides them against its own state, in the order
they arrive, writes them, and the replica reads them back. So a console is as exact as the
server, and a frozen, closed or crashed console never stops the room.

- **Reading**: :meth:`AttachedSession.follow` starts a thread that follows the server's event
  stream; each event is handed to the console's own thread (the ``schedule`` it is given),
  where the replica reads the new rows and tells its subscribers, as a local session does.
- **Changing**: :meth:`submit`, :meth:`undo`, :meth:`note` (and :meth:`stage`) first decide
  against the replica (a refusal is the rules' own sentence, with nothing sent), then ask the
  server, then read the rows back before returning, so the caller sees its change at once.
  A command the server refuses (the game moved on meanwhile, another console changed it) comes
  back as the refusal the rules give on the state the server had.
- **Settings** (:meth:`set`, :meth:`add`, :meth:`drop`) go to the server too: it is the one
  writer of the file, and they come back as rows of its log like every other change.

Only the standard library (``http.client``, a thread): the session layer knows no web.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import secrets
import socket
import sqlite3
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.rules.core.game import Entry, MalformedCommand, Refused
from companion.rules.core.room import StageAct
from companion.session.night import (
    KEY_HEADER,
    NightRecord,
    NightUnreachable,
    ask,
    game_master_key,
)
from companion.session.presence import SeatPresence
from companion.session.session import Change, Session
from companion.session.store import Row, Store, StoreError, _connection, _explain

Schedule = Callable[[Callable[[], None]], None]  # runs a callable on the console's thread
Visit = Callable[[str, int], None]  # a visit to the network test page: address, ms
RETRY_SECONDS = 0.5  # between two tries to reach a server that went away


class RemoteStore(Store):
    """The session file, read here; written by the night's server alone."""

    def append(self, kind: str, body: dict[str, Any]) -> Row:
        raise StoreError("Only the night's server writes the session's log.")

    def rows_after(self, seq: int) -> list[Row]:
        try:
            cursor = self._db.execute(
                "SELECT seq, at, kind, body FROM log WHERE seq > ? ORDER BY seq", (seq,)
            )
            return [Row(s, at, kind, json.loads(body)) for s, at, kind, body in cursor]
        except sqlite3.Error as error:
            raise _explain(error, self.path) from None


class Link:
    """The way to the night's server: its record, the game master's key, who this console is."""

    def __init__(self, session_file: Path, record: NightRecord,
                 revive: Callable[[], NightRecord | None] | None = None) -> None:
        self.record = record
        self.key = game_master_key(session_file)
        self.console = secrets.token_hex(8)
        self.revive = revive  # starts the server again when it went away (the cli's)
        self.links: dict[str, str] = {}  # the phones' links it serves: base, board, join
        self._reviving = threading.Lock()  # the follower and a command may both find it gone

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """A change sent to the server: (status, answer); a server that cannot be reached is a
        :class:`StoreError` (nothing was recorded)."""
        body = {"console": self.console, **body}
        try:
            status, answer = ask(self.record, self.key, "POST", path, body)
        except NightUnreachable:
            if not self._revived():
                raise StoreError(
                    "The night's server is not answering, so this was not recorded; try again "
                    "in a moment."
                ) from None
            try:
                status, answer = ask(self.record, self.key, "POST", path, body)
            except NightUnreachable as error:
                raise StoreError(f"{error} This was not recorded; try again.") from None
        if status >= 400 and status != 409:
            raise StoreError(str(answer.get("error") or f"The night's server said {status}."))
        return status, answer

    def _revived(self) -> bool:
        """Whether the server answers again (started again by ``revive`` if need be)."""
        if self.revive is None:
            return False
        try:
            with self._reviving:
                record = self.revive()
        except Exception:  # noqa: BLE001 - the caller says it was not recorded
            return False
        if record is None:
            return False
        self.record = record
        with contextlib.suppress(NightUnreachable, StoreError):
            self.greet()
        return True

    def greet(self) -> dict[str, Any]:
        """The server's greeting (its links kept); a :class:`StoreError` when it refuses."""
        status, hello = ask(self.record, self.key, "GET", "/api/gm/hello", timeout=5.0)
        if status != 200:
            raise StoreError(str(hello.get("error") or f"The night's server said {status}."))
        self.links = dict(hello.get("links") or {})
        return dict(hello)


class AttachedSession(Session):
    """A session followed from the night's server, changed through it."""

    link: Link

    @classmethod
    def attach(
        cls, path: Path, record: NightRecord,
        revive: Callable[[], NightRecord | None] | None = None,
    ) -> AttachedSession:
        """The session in ``path`` as its log stands, attached to the server of ``record``."""
        link = Link(path, record, revive)
        if not path.is_file():
            raise StoreError(f"There is no session file at {path}.")
        try:
            link.greet()
        except NightUnreachable as error:
            raise StoreError(str(error)) from None
        session = cls.from_store(RemoteStore(path, _connection(path)))
        assert isinstance(session, AttachedSession)
        session.link = link
        session._follower = None
        session._visits = []
        session._catching = threading.RLock()
        return session

    _follower: _Follower | None
    _visits: list[Visit]
    _catching: threading.RLock  # a change sent here and the stream may both read rows back

    @property
    def record(self) -> NightRecord:
        return self.link.record

    @property
    def last_seq(self) -> int:
        return self.rows[-1].seq if self.rows else 0

    # ---- following ------------------------------------------------------------------------

    def follow(self, schedule: Schedule) -> None:
        """Follow the server from now on; each event is handled through ``schedule`` (on the
        console's thread). Following twice is following once."""
        if self._follower is None:
            self._follower = _Follower(self, schedule)
            self._follower.start()

    def unfollow(self) -> None:
        follower, self._follower = self._follower, None
        if follower is not None:
            follower.stop()

    def listen_for_visits(self, listener: Visit) -> Callable[[], None]:
        """Visits to the server's network test page, from now on; returns what stops that."""
        self._visits.append(listener)
        return lambda: self._visits.remove(listener) if listener in self._visits else None

    def catch_up(self) -> None:
        """Read the rows the server wrote since the replica's last, and tell the subscribers."""
        with self._catching:  # never the same row twice
            for row in self.store.rows_after(self.last_seq):  # type: ignore[attr-defined]
                self._replay(row)
                entry = self.history.entries[-1] if row.kind in ("command", "undo") else None
                self._notify(Change(row.kind, row, entry))

    def on_event(self, event: dict[str, Any]) -> None:
        """One event of the server's stream (on the console's thread)."""
        if "log" in event:
            self.catch_up()
        elif "presence" in event:
            p = event["presence"]
            self.signal(SeatPresence(str(p["seat"]), bool(p["connected"]), float(p["since"])))
        elif "visit" in event:
            for listener in list(self._visits):
                listener(str(event["visit"]["address"]), int(event["visit"]["ms"]))
        elif "night" in event:
            self._notify(Change("night", None, night=str(event["night"])))

    # ---- changing -------------------------------------------------------------------------

    def submit(self, command: Any, *, by: str = "gm") -> Entry[Any, Any] | Refused:
        engine = self.rules.engine
        if isinstance(command, Mapping):
            try:
                command = engine.parse_command(command)
            except MalformedCommand as error:
                return Refused(f"That command is malformed: {error}.")
        outcome = self.history.try_command(command)
        if isinstance(outcome, Refused):
            return outcome
        status, answer = self._send("/api/gm/command",
                                    {"command": engine.command_to_dict(command), "by": by})
        if status == 409:
            return self._refusal(answer, lambda: self.history.try_command(command))
        return self.history.entries[int(answer["hseq"]) - 1]

    def undo(self, *, by: str = "gm", only: int | None = None) -> Entry[Any, Any] | Refused:
        target = self.history.undo_target(only)
        if isinstance(target, Refused):
            return target
        status, answer = self._send("/api/gm/undo", {"by": by, "only": only})
        if status == 409:
            return self._refusal(answer, lambda: self.history.undo_target(only))
        return self.history.entries[int(answer["hseq"]) - 1]

    def note(self, what: str, **data: Any) -> Row:
        return self._noted({"what": what, "data": data})

    def stage(self, act: StageAct) -> Row:
        """A stage act, refused (:class:`StoreError`, nothing recorded) when another console
        changed the game since this one last read it."""
        return self._noted({"what": act.what, "data": act.body(), "checked": True})

    def _noted(self, body: dict[str, Any]) -> Row:
        status, answer = self._send("/api/gm/note", body)
        if status == 409:
            raise StoreError(str(answer.get("refused") or "That was not done."))
        return self._read_back(int(answer["seq"]))

    def _setting(self, body: dict[str, Any]) -> Row | None:
        _, answer = self._send("/api/gm/setting", body)
        seq = answer.get("seq")
        return None if seq is None else self._read_back(int(seq))

    def _read_back(self, seq: int) -> Row:
        for row in reversed(self.rows):
            if row.seq == seq:
                return row
        raise StoreError("The night's server recorded a change this console cannot read back.")

    def _send(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        status, answer = self.link.post(path, {"after": self.last_seq, **body})
        self.catch_up()
        return status, answer

    def _refusal(self, answer: dict[str, Any], again: Callable[[], object]) -> Refused:
        """The server's refusal, as the rules say it on the state the replica now has."""
        if not answer.get("stale"):
            outcome = again()
            if isinstance(outcome, Refused):
                return outcome
        return Refused(str(answer.get("refused") or "That was not done."))

    # ---- the game master's phone ----------------------------------------------------------

    def phone_link(self) -> str | None:
        """The game master's phone's link as the server holds it now (``None``: the game has
        no such page); a :class:`StoreError` when the server does not answer."""
        try:
            self.link.greet()
        except NightUnreachable as error:
            raise StoreError(str(error)) from None
        return self.link.links.get("gm")

    def replace_phone_link(self) -> str | None:
        """A new link for the game master's phone; every device holding the old one stops."""
        _, answer = self.link.post("/api/gm/phone", {})
        link = answer.get("link")
        if isinstance(link, str):
            self.link.links["gm"] = link
            return link
        return None

    def stop_serving(self) -> None:
        """Stop the night's server (the phones and the board stop with it): asked, then
        waited for."""
        from companion.session.night import wait_until_gone

        self.unfollow()
        record = self.link.record
        with contextlib.suppress(NightUnreachable):
            ask(record, self.link.key, "POST", "/api/gm/stop", {}, timeout=3.0)
        wait_until_gone(record.pid, 5.0)

    def close(self) -> None:
        """Stop following and close the file; a catch-up reading it on the follower's thread
        is let finish first (a connection closed under a read crashes the process)."""
        self.unfollow()
        with self._catching:
            self.store.close()


class _Follower:
    """The thread that follows the server's event stream and hands each event over."""

    def __init__(self, session: AttachedSession, schedule: Schedule) -> None:
        self.session = session
        self.schedule = schedule
        self._stopping = threading.Event()
        self._socket: socket.socket | None = None  # the stream's, while it is followed
        self._thread = threading.Thread(target=self._run, name="companion-follow", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        sock = self._socket
        if sock is not None:  # the stream ends now, for the server too
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def _hand(self, event: dict[str, Any]) -> None:
        if self._stopping.is_set():
            return
        session = self.session
        with contextlib.suppress(Exception):  # the console is closing
            self.schedule(lambda: session.on_event(event))

    def _run(self) -> None:
        lost = False
        while not self._stopping.is_set():
            try:
                said = self._listen(lost)
            except (OSError, http.client.HTTPException, ValueError):
                said = None
            if self._stopping.is_set():
                return
            if said == "bye":  # stopped on purpose (``companion stop``): not started again
                self._hand({"night": "stopped"})
                return
            if said == "followed":
                lost = False
            if not lost:
                lost = True
                self._hand({"night": "lost"})
            if not self.session.link._revived():
                self._stopping.wait(RETRY_SECONDS)

    def _listen(self, lost: bool) -> str | None:
        """Follow the stream until it ends: "bye" when the server said it stops, "followed" when
        it was followed for a while, ``None`` when it could not be."""
        link = self.session.link
        record = link.record
        host = f"[{record.reach}]" if ":" in record.reach else record.reach
        connection = http.client.HTTPConnection(host, record.port, timeout=30)
        try:
            connection.request("GET", f"/api/gm/follow?after={self.session.last_seq}",
                               headers={KEY_HEADER: f"Bearer {link.key}"})
            self._socket = connection.sock
            if self._stopping.is_set():
                return None
            response = connection.getresponse()
            if response.status != 200:
                return None
            if lost:
                self._hand({"night": "back"})
            self._hand({"log": -1})
            while not self._stopping.is_set():
                line = response.readline()
                if not line:
                    return "followed"
                if line.startswith(b"data: "):
                    event = json.loads(line[6:].decode("utf-8"))
                    if "bye" in event:
                        return "bye"
                    self._hand(event)
            return "followed"
        finally:
            self._socket = None
            connection.close()
