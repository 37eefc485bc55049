"""The prison break's state, and ``evolve``: the state is a fold of the events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal

from companion.rules.prison.commands import Choice
from companion.rules.prison.events import (
    Accused,
    ChoiceMade,
    DayStarted,
    Escaped,
    GameEnded,
    InformantNamed,
    Interviewed,
    NightRevealed,
    Outcome,
    Paroled,
    PlanningClosed,
    PrisonEvent,
    Searched,
)
from companion.rules.prison.scenario import PrisonRules

Status = Literal["active", "caught", "shived", "paroled", "escaped"]
Phase = Literal["planning", "interviews", "search", "accusations", "over"]


@dataclass(frozen=True)
class Prisoner:
    name: str
    status: Status = "active"
    parole_tokens: int = 0
    shivs: int = 0

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True)
class Day:
    """Everything that happened on one day; secrets included (views decide who sees what)."""

    number: int
    choices: Mapping[str, Choice] = field(default_factory=lambda: MappingProxyType({}))
    interviews: tuple[tuple[str, bool], ...] = ()  # (prisoner, deal)
    searches: tuple[tuple[str, bool], ...] = ()  # (prisoner, caught)
    revealed: bool = False
    workers: tuple[str, ...] = ()  # worked and were not caught (public after the reveal)
    accusations: tuple[tuple[str, str, bool], ...] = ()  # (accuser, accused, shived)
    named: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (informant, whom they named)

    @property
    def deals(self) -> int:
        return sum(1 for _, deal in self.interviews if deal)

    def choice_of(self, name: str) -> Choice:
        """R3: a prisoner who has not chosen rests."""
        return self.choices.get(name, "rest")


@dataclass(frozen=True)
class PrisonState:
    rules: PrisonRules
    warden: str
    prisoners: Mapping[str, Prisoner]  # in roster order
    day: Day
    phase: Phase = "planning"
    nights_done: int = 0
    past: tuple[Day, ...] = ()
    outcome: Outcome | None = None
    winners: tuple[str, ...] = ()

    @property
    def roster(self) -> tuple[str, ...]:
        return tuple(self.prisoners)

    def active(self) -> list[str]:
        return list(self._active)

    @cached_property
    def _active(self) -> tuple[str, ...]:
        """The active prisoners in roster order, found once per state (a view asks for them
        several times, every view at every change)."""
        return tuple(p.name for p in self.prisoners.values() if p.active)

    def not_interviewed(self) -> list[str]:
        """Active prisoners not yet interviewed today (each is interviewed at most once)."""
        done = {name for name, _ in self.day.interviews}
        return [n for n in self.active() if n not in done]

    def unsearched(self) -> list[str]:
        """Active prisoners whose cells were not searched today."""
        done = {name for name, _ in self.day.searches}
        return [n for n in self.active() if n not in done]

    def searches_left(self) -> int:
        """Cells the warden may still search today."""
        made = len(self.day.searches)
        return max(0, min(self.rules.searches_per_day - made, len(self.unsearched())))

    def accusations_left(self, name: str) -> int:
        made = sum(1 for who, _, _ in self.day.accusations if who == name)
        return max(0, self.rules.accusations_per_day - made)

    def may_accuse(self) -> list[str]:
        """Who may accuse now: active, holding a shiv, under the daily limit, with someone
        else left to accuse."""
        active = self.active()
        if self.phase != "accusations" or len(active) < 2:
            return []
        return [
            n for n in active if self.prisoners[n].shivs >= 1 and self.accusations_left(n) > 0
        ]

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def days(self) -> tuple[Day, ...]:
        return (*self.past, self.day)


def new_game(rules: PrisonRules, warden: str, prisoners: list[str]) -> PrisonState:
    return PrisonState(
        rules=rules,
        warden=warden,
        prisoners=MappingProxyType(
            {name: Prisoner(name, shivs=rules.shivs_per_prisoner) for name in prisoners}
        ),
        day=Day(1),
    )


# ---- the fold -----------------------------------------------------------------------------


def _with_prisoner(state: PrisonState, name: str, **changes: Any) -> Mapping[str, Prisoner]:
    prisoners = dict(state.prisoners)
    prisoners[name] = replace(prisoners[name], **changes)
    return MappingProxyType(prisoners)


def evolve(state: PrisonState, event: PrisonEvent) -> PrisonState:
    day = state.day
    if isinstance(event, ChoiceMade):
        choices = MappingProxyType({**day.choices, event.prisoner: event.choice})
        return replace(state, day=replace(day, choices=choices))
    if isinstance(event, PlanningClosed):
        return replace(state, phase="interviews")
    if isinstance(event, Interviewed):
        day = replace(day, interviews=(*day.interviews, (event.prisoner, event.deal)))
        prisoners = state.prisoners
        if event.deal:
            tokens = state.prisoners[event.prisoner].parole_tokens + 1
            prisoners = _with_prisoner(state, event.prisoner, parole_tokens=tokens)
        return replace(state, day=day, prisoners=prisoners)
    if isinstance(event, InformantNamed):
        return replace(state, day=replace(day, named=(*day.named, (event.informant, event.named))))
    if isinstance(event, Paroled):
        return replace(state, prisoners=_with_prisoner(state, event.prisoner, status="paroled"))
    if isinstance(event, Searched):
        day = replace(day, searches=(*day.searches, (event.prisoner, event.caught)))
        prisoners = state.prisoners
        if event.caught:
            prisoners = _with_prisoner(state, event.prisoner, status="caught")
        return replace(state, day=day, prisoners=prisoners, phase="search")
    if isinstance(event, NightRevealed):
        day = replace(day, revealed=True, workers=event.workers)
        return replace(
            state,
            day=day,
            nights_done=state.nights_done + len(event.workers),
            phase="accusations",
        )
    if isinstance(event, Escaped):
        prisoners = dict(state.prisoners)
        for name in event.prisoners:
            prisoners[name] = replace(prisoners[name], status="escaped")
        return replace(state, prisoners=MappingProxyType(prisoners))
    if isinstance(event, Accused):
        day = replace(
            day, accusations=(*day.accusations, (event.accuser, event.accused, event.shived))
        )
        accuser = state.prisoners[event.accuser]
        accused = state.prisoners[event.accused]
        prisoners = dict(state.prisoners)
        if event.shived:
            prisoners[event.accused] = replace(accused, status="shived", shivs=0)
        else:
            prisoners[event.accuser] = replace(accuser, shivs=accuser.shivs - 1)
            prisoners[event.accused] = replace(accused, shivs=accused.shivs + 1)
        return replace(state, day=day, prisoners=MappingProxyType(prisoners))
    if isinstance(event, DayStarted):
        return replace(state, past=(*state.past, day), day=Day(event.number), phase="planning")
    if isinstance(event, GameEnded):
        return replace(state, phase="over", outcome=event.outcome, winners=event.winners)
    raise TypeError(f"unknown event {event!r}")
