"""The prison break: each command is checked against the state and refused with a reason or
turned into events (rules: ``docs/rules/prison-break.md``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.rules.core.game import Engine, Refusal, Refused, refusing
from companion.rules.core.words import joined, plural
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

PHASE_WORDS = {
    "planning": "planning",
    "interviews": "the interviews",
    "search": "the search",
    "accusations": "the accusations",
    "over": "the end of the game",
}


def _phase(state: PrisonState, *allowed: str, doing: str) -> None:
    if state.phase not in allowed:
        wanted = joined([PHASE_WORDS[p] for p in allowed], last="or")
        now = PHASE_WORDS[state.phase]
        raise Refusal(f"You can {doing} only during {wanted}; it is {now} now.")


def _active(state: PrisonState, name: str, role: str = "") -> None:
    prisoner = state.prisoners.get(name)
    if prisoner is None:
        raise Refusal(
            f"There is no prisoner called {name!r}; check the spelling against the roster."
        )
    if not prisoner.active:
        who = f"{name} ({role})" if role else name
        raise Refusal(f"{who} is {prisoner.status} and out of the game.")


def _choose(state: PrisonState, cmd: Choose) -> list[PrisonEvent]:
    _phase(state, "planning", doing="choose work or rest")
    _active(state, cmd.prisoner)
    return [ChoiceMade(cmd.prisoner, cmd.choice)]


def _close_planning(state: PrisonState, cmd: ClosePlanning) -> list[PrisonEvent]:
    _phase(state, "planning", doing="close planning")
    return [PlanningClosed()]


def _interview(state: PrisonState, cmd: Interview) -> list[PrisonEvent]:
    _phase(state, "interviews", doing="interview a prisoner")
    _active(state, cmd.prisoner)
    day = state.day
    if cmd.prisoner not in state.not_interviewed():
        raise Refusal(f"{cmd.prisoner} was already interviewed today.")
    limit = state.rules.parole_tokens_per_day
    if cmd.deal and day.deals >= limit:
        raise Refusal(
            f"The warden has already made {plural(limit, 'deal')} today, "
            "the most allowed; any other interview today ends without a deal."
        )
    events: list[PrisonEvent] = [Interviewed(cmd.prisoner, cmd.deal)]
    tokens = state.prisoners[cmd.prisoner].parole_tokens + (1 if cmd.deal else 0)
    if cmd.deal and tokens >= state.rules.parole_tokens_to_win:
        events += [Paroled(cmd.prisoner), GameEnded("parole", (cmd.prisoner, state.warden))]
    return events


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
    _phase(state, "interviews", "search", doing="search a cell")
    _active(state, cmd.prisoner)
    if cmd.prisoner not in state.unsearched():
        raise Refusal(f"{cmd.prisoner}'s cell was already searched today; pick another cell.")
    caught = state.day.choice_of(cmd.prisoner) == "work"
    events: list[PrisonEvent] = [Searched(cmd.prisoner, caught)]
    if state.searches_left() <= 1:  # this was the day's last search (or the last cell)
        events += _reveal(state, cmd.prisoner if caught else None)
    return events


def _accuse(state: PrisonState, cmd: Accuse) -> list[PrisonEvent]:
    _phase(state, "accusations", doing="accuse someone")
    _active(state, cmd.accuser, "the accuser")
    _active(state, cmd.accused, "the accused")
    if cmd.accuser == cmd.accused:
        raise Refusal(f"{cmd.accuser} cannot accuse themselves; pick another prisoner.")
    accuser = state.prisoners[cmd.accuser]
    if accuser.shivs < 1:
        raise Refusal(f"{cmd.accuser} holds no shiv, so cannot accuse anyone.")
    if state.accusations_left(cmd.accuser) < 1:
        made = state.rules.accusations_per_day
        raise Refusal(
            f"{cmd.accuser} has already made {plural(made, 'accusation')} today, the most allowed."
        )
    shived = state.prisoners[cmd.accused].parole_tokens > 0
    events: list[PrisonEvent] = [Accused(cmd.accuser, cmd.accused, shived)]
    return events


def _end_day(state: PrisonState, cmd: EndDay) -> list[PrisonEvent]:
    _phase(state, "accusations", doing="end the day")
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
        return Refused("The game is over; only undo is possible now.")
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
