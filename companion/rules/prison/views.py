"""What each audience may see of a prison-break game (spec, "Who may see what").

Every screen, page, bot and report reads the game through these functions; nothing else
leaves the core. Each view is plain JSON-ready data, typed by the ``TypedDict`` of its shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any, Literal, TypedDict

from companion.rules.core.game import Entry
from companion.rules.prison.commands import Choice, command_to_dict
from companion.rules.prison.epilogue import OwnNight, WardenNight, own_part, warden_part
from companion.rules.prison.events import DayStarted, GameEnded, Outcome, PrisonEvent
from companion.rules.prison.state import Day, Phase, PrisonState, Status


class SearchRow(TypedDict):
    prisoner: str
    caught: bool


class AccusationRow(TypedDict):
    accuser: str
    accused: str
    result: Literal["shived", "shiv passed"]


class PublicDay(TypedDict):
    """A day as the whole room knows it."""

    day: int
    interviewed: list[str]
    searches: list[SearchRow]
    revealed: bool
    workers: list[str]
    nights_added: int
    accusations: list[AccusationRow]


class PrisonerRow(TypedDict):
    name: str
    status: Status
    shivs: int


class RulesView(TypedDict):
    nights_to_escape: int
    parole_tokens_to_win: int
    parole_tokens_per_day: int
    searches_per_day: int
    accusations_per_day: int
    max_days: int | None


class TableView(TypedDict):
    """The public view (:func:`table`)."""

    game: Literal["prison-break"]
    day: int
    phase: Phase
    nights_done: int
    nights_to_escape: int
    outcome: Outcome | None
    winners: list[str]
    warden: str
    prisoners: list[PrisonerRow]
    active: list[str]
    submitted: list[str]
    submitted_count: int
    not_interviewed: list[str]
    unsearched: list[str]
    searches_left: int
    may_accuse: list[str]
    rules: RulesView
    today: PublicDay
    history: list[PublicDay]


class PrisonerMe(TypedDict):
    name: str
    role: Literal["prisoner"]
    status: Status
    shivs: int
    parole_tokens: int
    choice: Choice | None
    interviewed_today: bool
    accusations_left: int
    epilogue: list[OwnNight] | None  # their own nights, once the game is over


class PrisonerView(TableView):
    """One prisoner's view (:func:`prisoner`)."""

    me: PrisonerMe


class WardenMe(TypedDict):
    name: str
    role: Literal["warden"]
    epilogue: list[WardenNight] | None  # their deals and searches, once the game is over


class DealRow(TypedDict):
    day: int
    prisoner: str


class WardenSecrets(TypedDict):
    """What the warden knows beyond the table: every parole token and deal."""

    parole_tokens: dict[str, int]
    deals_today: int
    deals_left_today: int
    deal_history: list[DealRow]


class WardenView(TableView, WardenSecrets):
    """The warden's view (:func:`warden`)."""

    me: WardenMe


class GmView(TableView, WardenSecrets):
    """The game master's view (:func:`gm`)."""

    sealed: bool
    choices: dict[str, Choice | None] | None


class StoryDay(PublicDay):
    """A day of the debrief (:func:`story`): its choices and deals too."""

    choices: dict[str, Choice]
    deals: list[str]


class PrisonerResult(TypedDict):
    status: Status
    parole_tokens: int
    shivs: int


class ScriptResult(TypedDict):
    """The final state of a game script (:func:`script_result`)."""

    day: int
    phase: Phase
    nights_done: int
    nights_to_escape: int
    outcome: Outcome | None
    winners: list[str]
    prisoners: dict[str, PrisonerResult]


def _public_day(day: Day) -> PublicDay:
    """A day as the whole room knows it: interviews happen in view, deals do not."""
    return {
        "day": day.number,
        "interviewed": [name for name, _ in day.interviews],
        "searches": [{"prisoner": name, "caught": caught} for name, caught in day.searches],
        "revealed": day.revealed,
        "workers": list(day.workers) if day.revealed else [],
        "nights_added": len(day.workers) if day.revealed else 0,
        "accusations": [
            {"accuser": a, "accused": b, "result": "shived" if shived else "shiv passed"}
            for a, b, shived in day.accusations
        ],
    }


def table(state: PrisonState) -> TableView:
    """The public view: what anyone in the room, or the projector, may see."""
    rules = state.rules
    day = state.day
    return {
        "game": "prison-break",
        "day": day.number,
        "phase": state.phase,
        "nights_done": state.nights_done,
        "nights_to_escape": rules.nights_to_escape,
        "outcome": state.outcome,
        "winners": list(state.winners),
        "warden": state.warden,
        "prisoners": [
            {"name": p.name, "status": p.status, "shivs": p.shivs} for p in state.prisoners.values()
        ],
        "active": state.active(),
        "submitted": [n for n in state.active() if n in day.choices]
        if state.phase == "planning"
        else [],
        "submitted_count": sum(1 for n in state.active() if n in day.choices),
        "not_interviewed": state.not_interviewed(),
        "unsearched": state.unsearched(),
        "searches_left": state.searches_left(),
        "may_accuse": state.may_accuse(),
        "rules": {
            "nights_to_escape": rules.nights_to_escape,
            "parole_tokens_to_win": rules.parole_tokens_to_win,
            "parole_tokens_per_day": rules.parole_tokens_per_day,
            "searches_per_day": rules.searches_per_day,
            "accusations_per_day": rules.accusations_per_day,
            "max_days": rules.max_days,
        },
        "today": _public_day(day),
        "history": [_public_day(d) for d in state.past],
    }


def prisoner_me(state: PrisonState, name: str) -> PrisonerMe:
    """A prisoner's own part of their view (:func:`prisoner` is the table and this): what a
    prisoner's stream adds to the table it shares with every other prisoner."""
    me = state.prisoners[name]
    day = state.day
    choice = day.choices.get(name) if state.phase == "planning" else day.choice_of(name)
    return {
        "name": name,
        "role": "prisoner",
        "status": me.status,
        "shivs": me.shivs,
        "parole_tokens": me.parole_tokens,
        "choice": choice,
        "interviewed_today": any(n == name for n, _ in day.interviews),
        "accusations_left": state.accusations_left(name),
        "epilogue": own_part(state, name),
    }


# What differs between two states when only some prisoners chose (ChoiceMade): the day's choices.
_GAME_PARTS = tuple(f.name for f in fields(PrisonState) if f.name != "day")
_DAY_PARTS = tuple(f.name for f in fields(Day) if f.name != "choices")


def choosers_only(before: PrisonState, after: PrisonState) -> frozenset[str] | None:
    """The prisoners whose own choice tonight is all that differs between two states, or
    ``None`` when anything else differs (or the game is over). For every other prisoner,
    :func:`prisoner_me` is then the same in both states, and :func:`table` differs at most in
    who has chosen (``submitted`` and ``submitted_count``): what a page-by-page fan-out may
    tell from the two states alone, instead of making every prisoner's view again to compare."""
    if before is after:
        return frozenset()
    if before.over or after.over:
        return None
    if any(getattr(before, part) != getattr(after, part) for part in _GAME_PARTS):
        return None
    was, now = before.day, after.day
    if any(getattr(was, part) != getattr(now, part) for part in _DAY_PARTS):
        return None
    return frozenset(
        n for n in {*was.choices, *now.choices} if was.choices.get(n) != now.choices.get(n)
    )


def prisoner(state: PrisonState, name: str) -> PrisonerView:
    """One prisoner's private view: the table plus their own choice and parole tokens."""
    return {**table(state), "me": prisoner_me(state, name)}


def _warden_secrets(state: PrisonState) -> WardenSecrets:
    deals = state.day.deals
    return {
        "parole_tokens": {p.name: p.parole_tokens for p in state.prisoners.values()},
        "deals_today": deals,
        "deals_left_today": max(0, state.rules.parole_tokens_per_day - deals),
        "deal_history": [
            {"day": d.number, "prisoner": n} for d in state.days for n, deal in d.interviews if deal
        ],
    }


def warden(state: PrisonState) -> WardenView:
    """The warden's view: the table plus every parole token (the warden gave them)."""
    return {
        **table(state),
        "me": {"name": state.warden, "role": "warden", "epilogue": warden_part(state)},
        **_warden_secrets(state),
    }


def gm(state: PrisonState, *, peek: bool = False) -> GmView:
    """The game master's view. Tonight's choices stay sealed until the search, unless the
    game master explicitly peeks (the session logs each peek)."""
    sealed = state.phase in ("planning", "interviews", "search") and not state.day.revealed
    choices: dict[str, Choice | None] | None = None
    if not sealed or peek:
        closed = state.phase != "planning"
        choices = {
            n: state.day.choice_of(n) if closed else state.day.choices.get(n)
            for n in state.roster
            if n in state.day.choices or n in state.active()
        }
    return {
        **table(state),
        "submitted": [n for n in state.active() if n in state.day.choices],
        **_warden_secrets(state),
        "sealed": sealed and not peek,
        "choices": choices,
    }


def story(state: PrisonState) -> list[StoryDay] | None:
    """The full story for the debrief, every night's choices and every deal; only once the
    game is over (``None`` before)."""
    if not state.over:
        return None
    out: list[StoryDay] = []
    for d in state.days:
        out.append(
            {
                **_public_day(d),
                "choices": {n: d.choice_of(n) for n in state.roster if n in d.choices},
                "deals": [n for n, deal in d.interviews if deal],
            }
        )
    return out


class MoveRow(TypedDict):
    """One line of the record (:func:`record`): a move made, or an undo that took one back."""

    seq: int  # its entry in the history
    day: int  # the day the move was made on (an undo: the day of the move it took back)
    kind: Literal["move", "undo"]
    move: dict[str, str]  # the move's ``do`` and who it names; never a choice or a deal
    undone: bool  # a move: taken back since; an undo: always
    ended: Outcome | None  # the end of the game the move brought (an undo: the one it took back)


_WHO = ("prisoner", "accuser", "accused")


def record(entries: Sequence[Entry[Any, PrisonEvent]]) -> list[MoveRow]:
    """Every move of the history in the order it was made, undone ones included, and each undo
    where it was made: what happened, as it happened, spoiler-free (no choice, no deal). The
    day of an undo is the day of the move it took back."""
    taken_back = {e.reverts for e in entries if e.kind == "undo"}
    rows: dict[int, MoveRow] = {}
    out: list[MoveRow] = []
    day = 1
    standing: list[tuple[int, int]] = []  # (seq, the day before it), as the history's stack
    for entry in entries:
        if entry.kind == "command" and entry.command is not None:
            data = command_to_dict(entry.command)
            ended = next((e.outcome for e in entry.events if isinstance(e, GameEnded)), None)
            row: MoveRow = {
                "seq": entry.seq,
                "day": day,
                "kind": "move",
                "move": {k: str(v) for k, v in data.items() if k == "do" or k in _WHO},
                "undone": entry.seq in taken_back,
                "ended": ended,
            }
            rows[entry.seq] = row
            out.append(row)
            standing.append((entry.seq, day))
            for event in entry.events:
                if isinstance(event, DayStarted):
                    day = event.number
        elif entry.kind == "undo" and entry.reverts in rows:
            while standing and standing[-1][0] != entry.reverts:
                standing.pop()
            if standing:
                day = standing.pop()[1]
            made = rows[entry.reverts]
            out.append(
                {
                    "seq": entry.seq,
                    "day": made["day"],
                    "kind": "undo",
                    "move": dict(made["move"]),
                    "undone": True,
                    "ended": made["ended"],
                }
            )
    return out


def script_result(state: PrisonState) -> ScriptResult:
    """The final state in the shape of the game-script contract (spec, "Game scripts")."""
    return {
        "day": state.day.number,
        "phase": state.phase,
        "nights_done": state.nights_done,
        "nights_to_escape": state.rules.nights_to_escape,
        "outcome": state.outcome,
        "winners": list(state.winners),
        "prisoners": {
            p.name: {"status": p.status, "parole_tokens": p.parole_tokens, "shivs": p.shivs}
            for p in state.prisoners.values()
        },
    }
