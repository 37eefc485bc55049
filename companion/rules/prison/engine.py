"""The prison break: each command is checked against the state and refused with a reason or
turned into events (rules: ``docs/rules/prison-break.md``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.rules.core.game import Engine, Refusal, Refused, refusing
from companion.rules.core.words import N_
from companion.rules.prison.commands import (
    Accuse,
    Choose,
    ClosePlanning,
    EndDay,
    Interview,
    PrisonCommand,
    Search,
    command_to_dict,
    parse_command,
)
from companion.rules.prison.events import (
    Accused,
    ChoiceMade,
    DayStarted,
    Escaped,
    GameEnded,
    InformantNamed,
    Interviewed,
    NightRevealed,
    Paroled,
    PlanningClosed,
    PrisonEvent,
    Searched,
    event_from_dict,
    event_to_dict,
)
from companion.rules.prison.state import PrisonState, evolve, new_game

# A command out of its phase, one whole sentence per command and phase it is refused in
# (the game being over is refused before any command is looked at).
_OUT_OF_PHASE: dict[str, dict[str, str]] = {
    "choose": {
        "interviews": N_(
            "You can choose work or rest only during planning; it is the interviews now."
        ),
        "search": N_("You can choose work or rest only during planning; it is the search now."),
        "accusations": N_(
            "You can choose work or rest only during planning; it is the accusations now."
        ),
    },
    "close": {
        "interviews": N_("You can close planning only during planning; it is the interviews now."),
        "search": N_("You can close planning only during planning; it is the search now."),
        "accusations": N_(
            "You can close planning only during planning; it is the accusations now."
        ),
    },
    "interview": {
        "planning": N_(
            "You can interview a prisoner only during the interviews; it is planning now."
        ),
        "search": N_(
            "You can interview a prisoner only during the interviews; it is the search now."
        ),
        "accusations": N_(
            "You can interview a prisoner only during the interviews; it is the accusations now."
        ),
    },
    "search": {
        "planning": N_(
            "You can search a cell only during the interviews or the search; it is planning now."
        ),
        "accusations": N_(
            "You can search a cell only during the interviews or the search; "
            "it is the accusations now."
        ),
    },
    "accuse": {
        "planning": N_("You can accuse someone only during the accusations; it is planning now."),
        "interviews": N_(
            "You can accuse someone only during the accusations; it is the interviews now."
        ),
        "search": N_("You can accuse someone only during the accusations; it is the search now."),
    },
    "end_day": {
        "planning": N_("You can end the day only during the accusations; it is planning now."),
        "interviews": N_(
            "You can end the day only during the accusations; it is the interviews now."
        ),
        "search": N_("You can end the day only during the accusations; it is the search now."),
    },
}
_PHASES_FOR = {
    "choose": ("planning",),
    "close": ("planning",),
    "interview": ("interviews",),
    "search": ("interviews", "search"),
    "accuse": ("accusations",),
    "end_day": ("accusations",),
}

# Someone out of the game, by their part in the command and how they left it.
_OUT: dict[tuple[str, str], str] = {
    ("", "caught"): N_("%(name)s is caught and out of the game."),
    ("", "shived"): N_("%(name)s is shived and out of the game."),
    ("", "paroled"): N_("%(name)s is paroled and out of the game."),
    ("", "escaped"): N_("%(name)s is escaped and out of the game."),
    ("accuser", "caught"): N_("%(name)s (the accuser) is caught and out of the game."),
    ("accuser", "shived"): N_("%(name)s (the accuser) is shived and out of the game."),
    ("accuser", "paroled"): N_("%(name)s (the accuser) is paroled and out of the game."),
    ("accuser", "escaped"): N_("%(name)s (the accuser) is escaped and out of the game."),
    ("accused", "caught"): N_("%(name)s (the accused) is caught and out of the game."),
    ("accused", "shived"): N_("%(name)s (the accused) is shived and out of the game."),
    ("accused", "paroled"): N_("%(name)s (the accused) is paroled and out of the game."),
    ("accused", "escaped"): N_("%(name)s (the accused) is escaped and out of the game."),
}


def _phase(state: PrisonState, doing: str) -> None:
    if state.phase not in _PHASES_FOR[doing]:
        raise Refusal(_OUT_OF_PHASE[doing][state.phase])


def _active(state: PrisonState, name: str, role: str = "") -> None:
    prisoner = state.prisoners.get(name)
    if prisoner is None:
        raise Refusal(
            "There is no prisoner called %(name)s; check the spelling against the roster.",
            name=repr(name),
        )
    if not prisoner.active:
        raise Refusal(_OUT[role, prisoner.status], name=name)


def _choose(state: PrisonState, cmd: Choose) -> list[PrisonEvent]:
    _phase(state, "choose")
    _active(state, cmd.prisoner)
    return [ChoiceMade(cmd.prisoner, cmd.choice)]


def _close_planning(state: PrisonState, cmd: ClosePlanning) -> list[PrisonEvent]:
    _phase(state, "close")
    return [PlanningClosed()]


def _interview(state: PrisonState, cmd: Interview) -> list[PrisonEvent]:
    _phase(state, "interview")
    _active(state, cmd.prisoner)
    day = state.day
    if cmd.prisoner not in state.not_interviewed():
        raise Refusal("%(name)s was already interviewed today.", name=cmd.prisoner)
    limit = state.rules.parole_tokens_per_day
    if cmd.deal and day.deals >= limit:
        raise Refusal.n_(
            "The warden has already made %(count)s deal today, "
            "the most allowed; any other interview today ends without a deal.",
            "The warden has already made %(count)s deals today, "
            "the most allowed; any other interview today ends without a deal.",
            limit,
        )
    _named(state, cmd)
    events: list[PrisonEvent] = [Interviewed(cmd.prisoner, cmd.deal)]
    if cmd.named:
        events.append(InformantNamed(cmd.prisoner, tuple(cmd.named)))
    tokens = state.prisoners[cmd.prisoner].parole_tokens + (1 if cmd.deal else 0)
    if cmd.deal and tokens >= state.rules.parole_tokens_to_win:
        events += [Paroled(cmd.prisoner), GameEnded("parole", (cmd.prisoner, state.warden))]
    return events


def _named(state: PrisonState, cmd: Interview) -> None:
    """Whom an informant names: only with a deal, other prisoners still in, each once."""
    if cmd.named and not cmd.deal:
        raise Refusal(
            "%(name)s took no deal, so there is nobody they named; record names only with a deal.",
            name=cmd.prisoner,
        )
    active = set(state.active()) - {cmd.prisoner}
    for i, name in enumerate(cmd.named):
        if name not in active or name in cmd.named[:i]:
            raise Refusal(
                "%(informant)s cannot name %(name)s: name each other prisoner still in the "
                "game at most once.",
                informant=cmd.prisoner,
                name=name,
            )


def _reveal(state: PrisonState, caught_now: str | None) -> list[PrisonEvent]:
    """The night's work after the day's last search (spec, phase 4)."""
    day = state.day
    caught = {name for name, was in day.searches if was}
    if caught_now:
        caught.add(caught_now)
    still_in = [n for n in state.active() if n not in caught]
    workers = tuple(n for n in still_in if day.choice_of(n) == "work")
    events: list[PrisonEvent] = [NightRevealed(workers)]
    if state.nights_done + len(workers) >= state.rules.nights_to_escape and still_in:
        events += [Escaped(tuple(still_in)), GameEnded("escape", tuple(still_in))]
    elif not still_in:
        events.append(GameEnded("all_caught", (state.warden,)))
    return events


def _search(state: PrisonState, cmd: Search) -> list[PrisonEvent]:
    _phase(state, "search")
    _active(state, cmd.prisoner)
    if cmd.prisoner not in state.unsearched():
        raise Refusal(
            "%(name)s's cell was already searched today; pick another cell.", name=cmd.prisoner
        )
    caught = state.day.choice_of(cmd.prisoner) == "work"
    events: list[PrisonEvent] = [Searched(cmd.prisoner, caught)]
    if state.searches_left() <= 1:  # this was the day's last search (or the last cell)
        events += _reveal(state, cmd.prisoner if caught else None)
    return events


def _accuse(state: PrisonState, cmd: Accuse) -> list[PrisonEvent]:
    _phase(state, "accuse")
    _active(state, cmd.accuser, "accuser")
    _active(state, cmd.accused, "accused")
    if cmd.accuser == cmd.accused:
        raise Refusal(
            "%(name)s cannot accuse themselves; pick another prisoner.", name=cmd.accuser
        )
    accuser = state.prisoners[cmd.accuser]
    if accuser.shivs < 1:
        raise Refusal("%(name)s holds no shiv, so cannot accuse anyone.", name=cmd.accuser)
    if state.accusations_left(cmd.accuser) < 1:
        made = state.rules.accusations_per_day
        raise Refusal.n_(
            "%(name)s has already made %(count)s accusation today, the most allowed.",
            "%(name)s has already made %(count)s accusations today, the most allowed.",
            made,
            name=cmd.accuser,
        )
    shived = state.prisoners[cmd.accused].parole_tokens > 0
    events: list[PrisonEvent] = [Accused(cmd.accuser, cmd.accused, shived)]
    return events


def _end_day(state: PrisonState, cmd: EndDay) -> list[PrisonEvent]:
    _phase(state, "end_day")
    limit = state.rules.max_days
    if limit is not None and state.day.number >= limit:
        return [GameEnded("time_up", (state.warden,))]
    return [DayStarted(state.day.number + 1)]


_HANDLERS: dict[type[Any], Callable[[PrisonState, Any], list[PrisonEvent]]] = {
    Choose: _choose,
    ClosePlanning: _close_planning,
    Interview: _interview,
    Search: _search,
    Accuse: _accuse,
    EndDay: _end_day,
}


def decide(state: PrisonState, command: PrisonCommand) -> Sequence[PrisonEvent] | Refused:
    if state.over:
        return Refusal("The game is over; only undo is possible now.").refused
    return refusing(_HANDLERS[type(command)], state, command)


PRISON_BREAK: Engine[PrisonState, PrisonCommand, PrisonEvent] = Engine(
    name="prison-break",
    parse_command=parse_command,
    command_to_dict=command_to_dict,
    decide=decide,
    evolve=evolve,
    event_to_dict=event_to_dict,
    event_from_dict=event_from_dict,
)

__all__ = ["PRISON_BREAK", "decide", "evolve", "new_game"]
