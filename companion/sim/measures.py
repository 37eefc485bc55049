"""What a finished prison break shows of how it was played, counted from its final state (which
keeps every day: choices, interviews, searches, accusations). The same counts serve the bots'
games and the real tables' games, so the two are set side by side on the same terms."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from companion.rules.prison.state import PrisonState


@dataclass
class Measures:
    """Counts summed over one game or many."""

    days: int = 0
    nights: int = 0  # nights of work completed (the escape's progress)
    prisoner_nights: int = 0  # an active prisoner at a day's planning
    work: int = 0  # ... who chose to work
    interviews: int = 0
    deals: int = 0
    searches: int = 0
    catches: int = 0  # searches that found a worker
    accusations: int = 0
    hits: int = 0  # accusations that shived a collaborator
    accusation_chances: int = 0  # an active prisoner holding a shiv when accusations opened

    def add(self, other: Measures) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Measures:
        return cls(**{f.name: int(data.get(f.name, 0)) for f in fields(cls)})


def measure(state: PrisonState) -> Measures:
    """The counts of one game from its state (meant for a finished game)."""
    m = Measures(days=state.day.number, nights=state.nights_done)
    out: set[str] = set()
    shivs = dict.fromkeys(state.roster, state.rules.shivs_per_prisoner)
    last = len(state.days) - 1
    for i, day in enumerate(state.days):
        active = [n for n in state.roster if n not in out]
        m.prisoner_nights += len(active)
        m.work += sum(1 for n in active if day.choice_of(n) == "work")
        m.interviews += len(day.interviews)
        m.deals += day.deals
        m.searches += len(day.searches)
        m.catches += sum(1 for _, caught in day.searches if caught)
        out |= {n for n, caught in day.searches if caught}
        # Accusations opened after the reveal, unless the reveal ended the game.
        opened = day.revealed and (i < last or state.outcome == "time_up")
        still = [n for n in state.roster if n not in out]
        if opened and len(still) > 1:
            m.accusation_chances += sum(1 for n in still if shivs[n] >= 1)
        for accuser, accused, shived in day.accusations:
            m.accusations += 1
            if shived:
                m.hits += 1
                out.add(accused)
                shivs[accused] = 0
            else:
                shivs[accuser] -= 1
                shivs[accused] += 1
    return m
