"""The tournament's session and how the room shows it now (:class:`RoomState`): the peek, the
room's QR code and links, each phone as last heard, the round's timer from the room fold;
and the results screen drawn from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.language import Language
from companion.rules.dilemma.finale import FinaleView, finale_view, next_step
from companion.rules.dilemma.phrases import explanation
from companion.rules.dilemma.room import RoundTimer, TimerOff
from companion.rules.dilemma.views import GmView, gm
from companion.session.dilemma import DilemmaSession
from companion.session.dilemma.seats import Origin, origins
from companion.tui.common.presence import Presence
from companion.tui.dilemma.screens import FinalScreen


@dataclass
class RoomState:
    """The tournament's session and how the room shows it now."""

    session: DilemmaSession
    qr: str  # the room's QR code, or what stands in its place (starting, no phone server)
    qr_columns: int = 0
    join_url: str | None = None
    board_url: str | None = None
    peeking: bool = False
    qr_choice: bool | None = None  # None: shown when there is room, or in the lobby
    shown_final: bool = False  # the results came up once by themselves
    presence: Presence = field(default_factory=dict)  # each player's phone, as last heard

    def view(self) -> GmView:
        return gm(self.session.state, peek=self.peeking)

    def origins(self) -> dict[str, Origin]:
        """Where and when each seat was taken (the game master's alone, from the file)."""
        return origins(self.session)

    def timer(self) -> RoundTimer | None:
        """The open round's timer, from the room fold (it survives a resume)."""
        r = self.session.state.open_round()
        return None if r is None else self.session.room.timer(r.number)

    def timer_off(self) -> bool:
        """The open round had a timer, turned off since (its reveal was undone)."""
        r = self.session.state.open_round()
        return r is not None and self.session.room.timer_off(r.number)

    def turn_timer_off(self, number: int) -> bool:
        """Round ``number``, open again after its reveal was undone, has no timer from now on
        (its deadline has passed): ``True`` if it had one."""
        if self.session.room.timer(number) is None:
            return False
        self.session.stage(TimerOff(number))
        return True

    def round_seconds(self) -> int | None:
        """Seconds per round for the rounds to come (the scenario's, or the console's)."""
        return self.session.room.seconds

    def qr_shown(self, narrow: bool) -> bool:
        """The room's QR code is on screen: as the game master chose (s), else always when
        there is room beside it, and on a narrow terminal while players are joining."""
        if self.qr_choice is not None:
            return self.qr_choice
        return not narrow or self.session.state.phase == "lobby"


def final_screen(room: RoomState, lang: Language) -> FinalScreen:
    """The results, with why betrayal dominates in ``lang``, and the finale the game master
    steps the room through."""
    v = room.view()

    def finale() -> FinaleView | None:
        return finale_view(room.session.state, room.session.room.finale)

    def step(to_end: bool) -> bool:
        act = next_step(room.session.state, room.session.room.finale, to_end=to_end)
        if act is None:
            return False
        room.session.stage(act)
        return True

    return FinalScreen(v, lang.say(explanation(room.session.state)), finale, step)
