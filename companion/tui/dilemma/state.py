"""The tournament's session and how the room shows it now (:class:`RoomState`): the peek, the
room's QR code and links, each phone as last heard, the round's timer from the session's notes;
and the results screen drawn from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.language import Language
from companion.rules.dilemma.state import DilemmaState
from companion.rules.dilemma.timer import (
    RoundTimer,
    round_seconds,
    round_timer,
    timer_off,
    timer_off_note,
)
from companion.rules.dilemma.views import gm
from companion.session.dilemma_seats import Origin, origins
from companion.session.session import Session
from companion.tui.common.presence import Presence
from companion.tui.dilemma.screens import FinalScreen
from companion.tui.dilemma.words import View, explanation


@dataclass
class RoomState:
    """The tournament's session and how the room shows it now."""

    session: Session
    qr: str  # the room's QR code, or what stands in its place (starting, no phone server)
    qr_columns: int = 0
    join_url: str | None = None
    board_url: str | None = None
    peeking: bool = False
    qr_choice: bool | None = None  # None: shown when there is room, or in the lobby
    shown_final: bool = False  # the results came up once by themselves
    presence: Presence = field(default_factory=dict)  # each player's phone, as last heard

    def view(self) -> View:
        return gm(self.session.state, peek=self.peeking)

    def origins(self) -> dict[str, Origin]:
        """Where and when each seat was taken (the game master's alone, from the file)."""
        return origins(self.session)

    def timer(self) -> RoundTimer | None:
        """The open round's timer, from the session's notes (it survives a resume)."""
        r = self.session.state.open_round()
        if r is None:
            return None
        return round_timer((row.body for row in self.session.notes("round_timer")), r.number)

    def timer_off(self) -> bool:
        """The open round had a timer, turned off since (its reveal was undone)."""
        r = self.session.state.open_round()
        notes = (row.body for row in self.session.notes("round_timer"))
        return r is not None and timer_off(notes, r.number)

    def turn_timer_off(self, number: int) -> bool:
        """Round ``number``, open again after its reveal was undone, has no timer from now on
        (its deadline has passed): ``True`` if it had one."""
        notes = (row.body for row in self.session.notes("round_timer"))
        if round_timer(notes, number) is None:
            return False
        self.session.note("round_timer", **timer_off_note(number))
        return True

    def round_seconds(self) -> int | None:
        """Seconds per round for the rounds to come (the scenario's, or the console's)."""
        notes = (row.body for row in self.session.notes("round_seconds"))
        return round_seconds(self.session.state.rules.round_seconds, notes)

    def qr_shown(self, narrow: bool) -> bool:
        """The room's QR code is on screen: as the game master chose (s), else always when
        there is room beside it, and on a narrow terminal while players are joining."""
        if self.qr_choice is not None:
            return self.qr_choice
        return not narrow or self.session.state.phase == "lobby"


def tally(state: DilemmaState) -> dict[str, int]:
    """The tournament's pairs by what they chose (both silent, both betrayed, one each) and the
    choices nobody made, for the final explanation."""
    counts = {"both_silent": 0, "both_betray": 0, "mixed": 0, "unanswered": 0}
    for r in state.rounds:
        for o in r.outcomes:
            counts["unanswered"] += (not o.answered_a) + (not o.answered_b)
            if o.choice_a == o.choice_b:
                counts["both_silent" if o.choice_a == "silent" else "both_betray"] += 1
            else:
                counts["mixed"] += 1
    return counts


def final_screen(room: RoomState, lang: Language) -> FinalScreen:
    """The results, with why betrayal dominates in ``lang``."""
    v = room.view()
    return FinalScreen(v, explanation(lang, v["sentences"], tally(room.session.state)))
