"""A live game session: the rules engine, its history and the SQLite log, kept in step.

The order is always: decide (pure) → append to the log and commit → update the state in
memory → tell the subscribers. If the log cannot be written, nothing changes and the caller
gets a :class:`~companion.session.store.StoreError`. A group of phones' commands that arrive
together is decided in turn and committed in one transaction (:meth:`Session.submit_many`).

Settings (the seats, the language, the Wi-Fi, where the night is served and printed) are rows
of the log too, written by :meth:`Session.set`, :meth:`~Session.add` and :meth:`~Session.drop`
and held in memory (:attr:`Session.settings`), so that reading one is a lookup and the night's
server, their one writer while a night is served, is never asked to read them again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Generic

from typing_extensions import TypeVar

from companion.games import game_rules
from companion.rules.core.game import Entry, History, MalformedCommand, Refused, fold
from companion.rules.core.registry import GameRules
from companion.rules.core.room import Happening, Noted, Played, StageAct, TakenBack
from companion.session.lock import SessionLock
from companion.session.paths import session_name
from companion.session.presence import SeatPresence
from companion.session.store import Row, Store, StoreError, apply_setting


@dataclass(frozen=True)
class Change:
    """What a subscriber is told after a change is durably recorded."""

    kind: str  # "command", "undo", "note", "setting"; not logged: "signal" (presence), "night"
    # (an attached session's server was "lost", is "back" or "stopped")
    row: Row | None
    entry: Entry[Any, Any] | None = None
    signal: SeatPresence | None = None
    night: str | None = None


Subscriber = Callable[["Session", Change], None]
Outcome = Entry[Any, Any] | Refused


S = TypeVar("S", default=Any)  # the game's state; a session opened from a file is Session[Any]
R = TypeVar("R", default=Any)  # what the room may see of it (the game's room fold)


def _epoch(at: str) -> float:
    try:
        return datetime.fromisoformat(at).timestamp()
    except ValueError:
        return 0.0


class Session(Generic[S, R]):
    """One game's log, history, room and subscribers; ``Session[PrisonState, PrisonRoom]``
    for a prison break.

    ``room`` is what the room may see of the game now: the game's room fold
    (:mod:`companion.rules.core.room`), told about every row as it is logged or read back."""

    def __init__(self, store: Store, rules: GameRules[S], setup: Mapping[str, Any]) -> None:
        self.store = store
        self.rules = rules  # the game's registered rules: its engine, its room fold, its name
        self.setup = dict(setup)
        self.history: History[S, Any, Any] = History(rules.engine, rules.initial_state(setup))
        self.room: R = rules.room.start(self.history.state)
        self.rows: list[Row] = []
        self._settings: dict[str, Any] = {}
        self._subscribers: list[Subscriber] = []
        self.lock: SessionLock | None = None  # held while this program plays the session

    # ---- opening ------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: Path,
        game: str,
        setup: Mapping[str, Any],
        meta: Mapping[str, Any] | None = None,
        *,
        lock: SessionLock | None = None,
    ) -> Session:
        """A new session; ``lock`` (see :mod:`companion.session.lock`) is kept until close."""
        try:
            rules = game_rules(game)
            rules.initial_state(setup)  # refuse a setup the engine cannot start from
            store = Store.create(path, {"game": game, "setup": dict(setup), **(meta or {})})
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        session = cls(store, rules, setup)
        session._settings = store.meta()
        session.lock = lock
        return session

    @classmethod
    def open(cls, path: Path, *, holder: str | None = None) -> Session:
        """The session in ``path`` as its log left it; with ``holder`` (for example "the
        console"), held for this program alone until close, or refused with
        :class:`~companion.session.lock.SessionBusy` when another program holds it."""
        lock = SessionLock.take(path, holder) if holder else None
        try:
            session = cls._read(path)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        session.lock = lock
        return session

    @classmethod
    def _read(cls, path: Path) -> Session:
        return cls.from_store(Store.open(path))

    @classmethod
    def from_store(cls, store: Store) -> Session:
        """The session ``store`` holds, its rows replayed (the store is closed on an error)."""
        path = store.path
        try:
            meta = store.meta()
            session = cls(store, game_rules(meta["game"]), meta["setup"])
            session._settings = meta
            for row in store.rows():
                session._replay(row)
        except StoreError:
            store.close()
            raise
        except (KeyError, ValueError, TypeError) as error:
            store.close()
            raise StoreError(
                f"{path} holds a history this version cannot read ({error})."
            ) from None
        return session

    def _replay(self, row: Row) -> None:
        self.rows.append(row)
        engine = self.rules.engine
        if row.kind == "command":
            body = row.body
            entry = Entry(
                body["hseq"],
                "command",
                engine.parse_command(body["command"]),
                tuple(engine.event_from_dict(e) for e in body["events"]),
            )
            before = self.history.state
            self.history.replay_entry(entry)
            self._tell(Played(entry, before, str(body.get("by", "gm")), _epoch(row.at)))
        elif row.kind == "undo":
            reverts = int(row.body["reverts"])
            self.history.replay_entry(Entry(row.body["hseq"], "undo", reverts=reverts))
            self._tell(TakenBack(self.history.entries[reverts - 1], _epoch(row.at)))
        elif row.kind == "note":
            self._tell(_noted(row))
        elif row.kind == "setting":
            apply_setting(self._settings, row.body)

    def _tell(self, happening: Happening) -> None:
        """Fold ``happening`` into the room (the game's state is already up to date)."""
        self.room = self.rules.room.after(self.room, happening, self.history.state)

    def close(self) -> None:
        self.store.close()
        lock, self.lock = self.lock, None
        if lock is not None:
            lock.release()

    # ---- reading ------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return session_name(self.store.path)

    @property
    def game(self) -> str:
        return self.rules.name

    @property
    def state(self) -> S:
        return self.history.state

    @property
    def settings(self) -> Mapping[str, Any]:
        """What the session is (its ``game``, its ``setup``) and its settings now (``seats``,
        ``lang``, ``wifi``...): read here, changed only by :meth:`set`, :meth:`add` and
        :meth:`drop`."""
        return self._settings

    def notes(self, what: str | None = None) -> list[Row]:
        return [
            r for r in self.rows if r.kind == "note" and (what is None or r.body["what"] == what)
        ]

    # ---- changing -----------------------------------------------------------------------

    def parse(self, data: Mapping[str, Any]) -> Any:
        """A typed command from JSON-like data; raises MalformedCommand."""
        return self.rules.engine.parse_command(data)

    def submit(self, command: Any, *, by: str = "gm") -> Entry[Any, Any] | Refused:
        """Decide a command; when accepted, log it durably, then apply and notify."""
        engine = self.rules.engine
        if isinstance(command, Mapping):
            try:
                command = engine.parse_command(command)
            except MalformedCommand as error:
                return Refused(f"That command is malformed: {error}.")
        outcome = self.history.try_command(command)
        if isinstance(outcome, Refused):
            return outcome
        body = {
            "hseq": self.history.next_seq,
            "by": by,
            "command": engine.command_to_dict(command),
            "events": [engine.event_to_dict(e) for e in outcome],
        }
        row = self.store.append("command", body)
        before = self.history.state
        entry = self.history.record_command(command, outcome)
        self.rows.append(row)
        self._tell(Played(entry, before, by, _epoch(row.at)))
        self._notify(Change("command", row, entry))
        return entry

    def submit_many(self, commands: Sequence[tuple[Any, str]]) -> list[Outcome]:
        """Decide typed ``commands`` (each with its ``by``) one after the other, each against
        the state the ones before it leave, log the accepted ones in one transaction (one
        fsync for a burst of phones), then apply them in order and tell the subscribers; their
        outcomes. If the log cannot be written, nothing changes and
        :class:`~companion.session.store.StoreError` is raised."""
        engine = self.rules.engine
        state = self.history.state
        decided: list[tuple[Any, str, Sequence[Any]] | Refused] = []
        bodies: list[tuple[str, dict[str, Any]]] = []
        for command, by in commands:
            outcome = engine.decide(state, command)
            if isinstance(outcome, Refused):
                decided.append(outcome)
                continue
            bodies.append(("command", {
                "hseq": self.history.next_seq + len(bodies),
                "by": by,
                "command": engine.command_to_dict(command),
                "events": [engine.event_to_dict(e) for e in outcome],
            }))
            decided.append((command, by, outcome))
            state = fold(engine, state, outcome)
        rows = iter(self.store.append_many(bodies) if bodies else [])
        results: list[Outcome] = []
        for item in decided:
            if isinstance(item, Refused):
                results.append(item)
                continue
            command, by, outcome = item
            row = next(rows)
            before = self.history.state
            entry = self.history.record_command(command, outcome)
            self.rows.append(row)
            self._tell(Played(entry, before, by, _epoch(row.at)))
            self._notify(Change("command", row, entry))
            results.append(entry)
        return results

    def undo(self, *, by: str = "gm", only: int | None = None) -> Entry[Any, Any] | Refused:
        """Take back the last command (``only``: if it is still that entry), recorded as an
        undo row; the command stays in the log."""
        target = self.history.undo_target(only)
        if isinstance(target, Refused):
            return target
        row = self.store.append(
            "undo", {"hseq": self.history.next_seq, "reverts": target.seq, "by": by}
        )
        entry = self.history.record_undo()
        assert not isinstance(entry, Refused)
        self.rows.append(row)
        self._tell(TakenBack(target, _epoch(row.at)))
        self._notify(Change("undo", row, entry))
        return entry

    def note(self, what: str, **data: Any) -> Row:
        """Record something that is not a game move (a peek, a reissued seat, a setting)."""
        row = self.store.append("note", {"what": what, **data})
        self.rows.append(row)
        self._tell(_noted(row))
        self._notify(Change("note", row))
        return row

    def set(self, key: str, value: Any) -> Row | None:
        """Set the setting ``key`` to ``value`` (JSON data), logged durably first; ``None``
        (nothing logged) when it already has that value."""
        if key in self._settings and self._settings[key] == value:
            return None
        return self._setting({"key": key, "value": value})

    def add(self, key: str, item: Any) -> Row | None:
        """Put ``item`` at the end of the list setting ``key``, logged durably first."""
        return self._setting({"key": key, "add": item})

    def drop(self, key: str, item: Any) -> Row | None:
        """Take every item equal to ``item`` out of the list setting ``key``, logged durably
        first."""
        return self._setting({"key": key, "drop": item})

    def _setting(self, body: dict[str, Any]) -> Row | None:
        """Log the setting row ``body`` durably, hold it, tell the subscribers; its row (an
        attached session: ``None`` when the server found the setting already so)."""
        row = self.store.append("setting", body)
        self.rows.append(row)
        apply_setting(self._settings, body)
        self._notify(Change("setting", row))
        return row

    def stage(self, act: StageAct) -> Row:
        """Record the game master's ``act`` on the stage (a call-in, a timer, a reveal's
        step): a note the room fold reads back."""
        return self.note(act.what, **act.body())

    def signal(self, presence: SeatPresence) -> None:
        """Tell the subscribers something passing that is not worth logging (a seat's phone
        connected or went away). Never use it for anything that must survive a crash."""
        self._notify(Change("signal", None, signal=presence))

    # ---- subscribers --------------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

        return unsubscribe

    def _notify(self, change: Change) -> None:
        for subscriber in list(self._subscribers):
            try:
                subscriber(self, change)
            except Exception:  # noqa: BLE001 - one broken screen must not stop the game
                continue


def _noted(row: Row) -> Noted:
    body = dict(row.body)
    what = str(body.pop("what", ""))
    return Noted(what, body, _epoch(row.at))
