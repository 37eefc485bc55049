"""What every game engine offers, and the command history with undo that they share.

A game is data plus three pure functions:

- ``parse_command(data)`` turns a JSON-like dict into a typed command, or raises
  :class:`MalformedCommand` with one clear sentence;
- ``decide(state, command)`` checks the command against the state and returns either the
  events it causes or a :class:`Refused` marker with the reason;
- ``evolve(state, event)`` folds one event into the state.

A game's rule checks raise :class:`Refusal`; :func:`refusing` turns that into :class:`Refused`,
and :class:`Engine` gathers a game's module functions into a :class:`Game`.

The state of a game is the fold of its events. :class:`History` keeps every accepted command
with its events, and undo is recorded as an entry of its own: nothing is ever erased.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from companion.rules.core.phrase import Arg, Listed, Phrase

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")

JSON = dict[str, Any]


class MalformedCommand(ValueError):
    """A command that is not well-formed (unknown ``do``, missing or mistyped field)."""


Param = Arg  # a refusal's parameter: text, a number, a list or a phrase

__all__ = ["Listed", "Phrase"]  # (the sentences' types, where the refusals always found them)


def english(message: str, params: Mapping[str, Param]) -> str:
    """``message`` with its ``%(name)s`` placeholders filled in English."""
    return Phrase(message, tuple(params.items())).english()


@dataclass(frozen=True)
class Refused:
    """A well-formed command that is not legal now; ``reason`` is one clear sentence, in
    English (the scripts' outputs and the session log keep it as it is).

    A face says it in its reader's language from ``template`` (the English message, with
    ``%(name)s`` placeholders, as extracted into the catalogs; empty when ``reason`` is not a
    message), ``params`` and, for a sentence with a count in it, ``plural`` and ``count``
    (``%(count)s``). Two refusals are equal when they say the same."""

    reason: str
    template: str = field(default="", compare=False)
    params: tuple[tuple[str, Param], ...] = field(default=(), compare=False)
    plural: str = field(default="", compare=False)
    count: int | None = field(default=None, compare=False)

    @property
    def phrase(self) -> Phrase:
        """The refusal as a phrase (``reason`` itself when it is not a message)."""
        if not self.template:
            return Phrase(self.reason)
        return Phrase(self.template, self.params, self.plural, self.count)


class Refusal(Exception):
    """Raised by a rule check to refuse a command with one sentence; :func:`refusing` turns it
    into :class:`Refused`.

    ``message`` is the English sentence with ``%(name)s`` placeholders filled from ``params``
    (names as text, numbers as ``int``, lists as :class:`Listed`), a whole sentence that the
    catalogs take as it is (``-k Refusal`` in ``scripts/catalogs.sh``); :meth:`n_` is one with
    a count in it. A refusal is a :class:`~companion.rules.core.phrase.Phrase` raised: the
    rules never translate, the faces do, from :attr:`refused`."""

    def __init__(self, message: str, /, **params: Param) -> None:
        self.phrase = Phrase(message, tuple(params.items()))
        super().__init__(self.phrase.english())

    @classmethod
    def n_(cls, singular: str, plural: str, count: int, /, **params: Param) -> Refusal:
        """A refusal with a count in it (``%(count)s`` is ``count``): ``singular`` when it is
        one, ``plural`` otherwise (in English; other languages have their own forms)."""
        made = cls(singular)
        made.phrase = Phrase(singular, tuple(params.items()), plural, count)
        made.args = (made.phrase.english(),)
        return made

    @property
    def template(self) -> str:
        return self.phrase.template

    @property
    def params(self) -> dict[str, Param]:
        return dict(self.phrase.params)

    @property
    def refused(self) -> Refused:
        p = self.phrase
        return Refused(p.english(), p.template, p.params, p.plural, p.count)


def refusing(decide: Callable[[S, C], Sequence[E]], state: S, command: C) -> Sequence[E] | Refused:
    """The events ``decide`` finds for ``command``, or :class:`Refused` with the sentence of the
    :class:`Refusal` it raised."""
    try:
        return decide(state, command)
    except Refusal as refusal:
        return refusal.refused


class Game(Protocol[S, C, E]):
    """The interface of a game engine (see the module docstring)."""

    @property
    def name(self) -> str: ...

    def parse_command(self, data: Mapping[str, Any]) -> C: ...

    def command_to_dict(self, command: C) -> JSON: ...

    def decide(self, state: S, command: C) -> Sequence[E] | Refused: ...

    def evolve(self, state: S, event: E) -> S: ...

    def event_to_dict(self, event: E) -> JSON: ...

    def event_from_dict(self, data: Mapping[str, Any]) -> E: ...


@dataclass(frozen=True)
class Engine(Generic[S, C, E]):
    """A game's module functions gathered as a :class:`Game`."""

    name: str
    parse_command: Callable[[Mapping[str, Any]], C]
    command_to_dict: Callable[[C], JSON]
    decide: Callable[[S, C], Sequence[E] | Refused]
    evolve: Callable[[S, E], S]
    event_to_dict: Callable[[E], JSON]
    event_from_dict: Callable[[Mapping[str, Any]], E]


class EventCodec(Generic[E]):
    """JSON for a game's events: frozen dataclasses told apart by their ``kind`` field.
    Lists read back from JSON become tuples, as the events declare them."""

    def __init__(self, *classes: type[E]) -> None:
        self._types = {getattr(cls, "kind"): cls for cls in classes}  # noqa: B009

    def to_dict(self, event: E) -> JSON:
        if not dataclasses.is_dataclass(event) or isinstance(event, type):
            raise TypeError(f"{event!r} is not an event (a dataclass instance)")
        return dataclasses.asdict(event)

    def from_dict(self, data: Mapping[str, Any]) -> E:
        cls = self._types[data["kind"]]
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})


def fold(game: Game[S, C, E], state: S, events: Sequence[E]) -> S:
    for event in events:
        state = game.evolve(state, event)
    return state


@dataclass(frozen=True)
class Entry(Generic[C, E]):
    """One line of the history: an accepted command with its events, or an undo."""

    seq: int
    kind: str  # "command" or "undo"
    command: C | None = None
    events: tuple[E, ...] = ()
    reverts: int | None = None  # for "undo": the seq of the command it took back


@dataclass
class History(Generic[S, C, E]):
    """Accepted commands with their events, and undo as a stack of reverts.

    ``state`` is always the fold of the events of the commands that are not undone.
    States are never mutated, so a snapshot per command makes undo instant.
    """

    game: Game[S, C, E]
    initial: S
    entries: list[Entry[C, E]] = field(default_factory=list)
    _stack: list[tuple[int, S]] = field(default_factory=list)  # (seq, state before it)
    _state: S | None = None

    @property
    def state(self) -> S:
        return self.initial if self._state is None else self._state

    @property
    def next_seq(self) -> int:
        return len(self.entries) + 1

    def last_undoable(self) -> Entry[C, E] | None:
        """The command the next undo would take back, if any."""
        if not self._stack:
            return None
        return self.entries[self._stack[-1][0] - 1]

    def try_command(self, command: C) -> Sequence[E] | Refused:
        """What the command would do now, without recording it."""
        return self.game.decide(self.state, command)

    def record_command(self, command: C, events: Sequence[E]) -> Entry[C, E]:
        entry: Entry[C, E] = Entry(self.next_seq, "command", command, tuple(events))
        self._stack.append((entry.seq, self.state))
        self._state = fold(self.game, self.state, entry.events)
        self.entries.append(entry)
        return entry

    def undo_target(self, only: int | None = None) -> Entry[C, E] | Refused:
        """The command an undo would take back now. With ``only`` (the entry the person was
        asked about), refused when another command has become the last since."""
        target = self.last_undoable()
        if target is None:
            return Refusal("There is nothing to undo.").refused
        if only is not None and target.seq != only:
            return Refusal(
                "Nothing was undone: a move came in meanwhile, so the last move is no longer "
                "the one you were asked about; undo again to see what would be taken back."
            ).refused
        return target

    def record_undo(self, only: int | None = None) -> Entry[C, E] | Refused:
        target = self.undo_target(only)
        if isinstance(target, Refused):
            return target
        seq, before = self._stack.pop()
        entry: Entry[C, E] = Entry(self.next_seq, "undo", reverts=seq)
        self._state = before
        self.entries.append(entry)
        return entry

    def submit(self, command: C) -> Entry[C, E] | Refused:
        """Decide and, when accepted, record in one step (for in-memory use)."""
        outcome = self.try_command(command)
        if isinstance(outcome, Refused):
            return outcome
        return self.record_command(command, outcome)

    def replay_entry(self, entry: Entry[C, E]) -> None:
        """Fold a stored entry back in (used when a session is reopened)."""
        if entry.seq != self.next_seq:
            raise ValueError(f"history entry {entry.seq} is out of order")
        if entry.kind == "command":
            self._stack.append((entry.seq, self.state))
            self._state = fold(self.game, self.state, entry.events)
            self.entries.append(entry)
        elif entry.kind == "undo":
            if not self._stack or self._stack[-1][0] != entry.reverts:
                raise ValueError(f"history entry {entry.seq} reverts a command that is not last")
            self._state = self._stack.pop()[1]
            self.entries.append(entry)
        else:
            raise ValueError(f"history entry {entry.seq} has an unknown kind {entry.kind!r}")
