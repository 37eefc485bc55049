"""What the room may see of a prison break: the one fold of the game and its stage.

:data:`ROOM` folds every happening the session logs (a command, an undo, a stage note) into a
:class:`PrisonRoom`: the stage (see :mod:`companion.rules.prison.stage`) and the game as the
room may see it (while a search's reveal is held, the game just before that search). The
session keeps it up to date row by row; the console, every phone and the board render it, and
:func:`stage_view` and the room views below are all that leaves it for the room.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, TypedDict, cast

from companion.rules.core.game import Entry
from companion.rules.core.room import Happening, Noted, Played, RoomRules, TakenBack
from companion.rules.prison.commands import (
    Accuse,
    ClosePlanning,
    EndDay,
    Interview,
    PrisonCommand,
    Search,
)
from companion.rules.prison.epilogue import EpilogueView, epilogue_view, steps
from companion.rules.prison.events import NightRevealed, PrisonEvent, Searched
from companion.rules.prison.stage import (
    STAGE,
    Clock,
    Reveal,
    Saw,
    SawKind,
    ShowEpilogue,
    ShowReveal,
    Stage,
    Step,
    act_from,
    act_on,
    reveal_of,
)
from companion.rules.prison.state import PrisonState, Status
from companion.rules.prison.views import (
    PrisonerView,
    TableView,
    WardenView,
    prisoner,
    table,
    warden,
)


@dataclass(frozen=True)
class PrisonRoom:
    """The stage, and the game as the room may see it now.

    ``ahead``: once the interview of the prisoner still in with the warden is recorded (a deal
    on the warden's phone while they talk, or the game master's record as they come back), the
    game with it; the room goes on seeing ``game``, the game before it, until the interview
    ends by the game master's hand (or a search), so that nothing the room sees tells a deal
    from none, nor when it was made. ``None``: nothing held."""

    stage: Stage
    game: PrisonState
    ahead: PrisonState | None = None

    @property
    def warden_game(self) -> PrisonState:
        """The game as the warden may see it: with the interview she has just recorded."""
        return self.ahead if self.ahead is not None else self.game

    def seat_view(self, role: SeatRole, name: str, now: float) -> SeatRoomView:
        """What the seat ``role`` ``name`` may see at ``now`` (epoch seconds): the room's game
        (the warden's with the interview she has just recorded) and stage."""
        game = self.warden_game if role == "warden" else self.game
        return seat_room_view(game, role, name, stage_view(self.stage, now))

    def board_view(self, phones: PhonesCount, now: float) -> BoardRoomView:
        """What the board shows at ``now``: the room's game and stage, the phones connected
        and the move just taken back."""
        return board_room_view(
            self.game, stage_view(self.stage, now), phones, taken_back_view(self.stage)
        )

    @property
    def held(self) -> Reveal | None:
        """The search whose reveal the room has not seen in full, if any."""
        reveal = self.stage.reveal
        return reveal if reveal is not None and reveal.held else None

    @property
    def nights_shown(self) -> int:
        """The nights of work the room has been shown: while a reveal is held, its night counts
        only once its step is shown (the game's own count has it from the search on)."""
        reveal = self.held
        nights = self.game.nights_done
        if reveal is not None and "night" in reveal.shown_steps:
            nights += len(reveal.workers or ())
        return nights

    def next_step(self, *, to_end: bool = False, at: float) -> ShowReveal | None:
        """The act that shows the room the next step of the held reveal (``to_end``: all of
        it); ``None`` when none is held."""
        reveal = self.held
        if reveal is None:
            return None
        return ShowReveal(at, reveal.hseq, len(reveal.steps) if to_end else reveal.shown + 1)

    def epilogue_next(self, *, to_end: bool = False, at: float) -> ShowEpilogue | None:
        """The act that shows the room the epilogue's next step (``to_end``: all of it);
        ``None`` before the end or once it is all shown."""
        total = steps(self.game)
        if self.held is not None or self.stage.epilogue >= total:
            return None
        return ShowEpilogue(at, total if to_end else self.stage.epilogue + 1)

    def reveal_of(self, hseq: int) -> Reveal | None:
        """Today's latest search's reveal, when it is the move ``hseq``."""
        reveal = self.stage.reveal
        return reveal if reveal is not None and reveal.hseq == hseq else None

    def saw(self, entry: Entry[PrisonCommand, PrisonEvent]) -> Saw | None:
        """What the room has been shown of the move ``entry`` (``None``: nothing, as a sealed
        choice or a search whose reveal has not begun)."""
        command = entry.command
        if isinstance(command, Search):
            if entry.seq not in self.stage.seen:
                return None
            reveal = self.reveal_of(entry.seq)
            shown = reveal.shown_steps if reveal else ("search", "result", "night")
            searched = next((e for e in entry.events if isinstance(e, Searched)), None)
            night = "night" in shown and any(isinstance(e, NightRevealed) for e in entry.events)
            return Saw(
                "search",
                command.prisoner,
                result="result" in shown,
                caught=searched is not None and searched.caught,
                night=night,
            )
        if isinstance(command, Interview):
            return Saw("interview", command.prisoner)
        if isinstance(command, ClosePlanning):
            return Saw("close_planning")
        if isinstance(command, Accuse):
            return Saw("accuse", command.accuser, accused=command.accused)
        if isinstance(command, EndDay):
            return Saw("end_day")
        return None  # a sealed choice

    def saw_the_end(self, hseq: int) -> bool:
        """Whether the room has been shown the end of the game that the move ``hseq`` brought:
        at once for a deal or the end of the day, after the last step of its reveal for a
        search."""
        reveal = self.reveal_of(hseq)
        return reveal is None or "outcome" in reveal.shown_steps


# ---- the fold ------------------------------------------------------------------------------


def _played(stage: Stage, happening: Played) -> Stage:
    entry = happening.entry
    command = entry.command
    if isinstance(command, ClosePlanning):
        return replace(stage, planning=None)
    if isinstance(command, Interview):
        recorded = (*stage.recorded_by, (command.prisoner, happening.by))
        stage = replace(stage, recorded_by=recorded)
        if stage.interview is not None and stage.interview.prisoner == command.prisoner:
            return replace(stage, interview=None)
        return stage
    if isinstance(command, Search):
        return replace(stage, interview=None, planning=None, reveal=reveal_of(entry))
    if isinstance(command, EndDay):
        return Stage(seen=stage.seen, day_ended=happening.at)
    return stage


def start(state: PrisonState) -> PrisonRoom:
    return PrisonRoom(Stage(), state)


def _held_interview(room: PrisonRoom, happening: Happening) -> tuple[str, str] | None:
    """(prisoner, by whom) when ``happening`` records the interview of the prisoner who is in
    with the warden (the room sees it only once the interview ends)."""
    if not isinstance(happening, Played) or room.held is not None:
        return None
    command, inside = happening.entry.command, room.stage.interview
    if not isinstance(command, Interview) or inside is None or inside.prisoner != command.prisoner:
        return None
    return command.prisoner, happening.by


def _still_held(room: PrisonRoom, stage: Stage) -> bool:
    """Whether a deal held from the room stays held with the stage now ``stage``: while the
    same prisoner is in (a pause or an extension leaves it held)."""
    before, now = room.stage.interview, stage.interview
    return now is not None and before is not None and now.prisoner == before.prisoner


def after(room: PrisonRoom, happening: Happening, state: PrisonState) -> PrisonRoom:
    """The room after ``happening``, with the game's ``state`` as it is after it."""
    held = _held_interview(room, happening)
    if held is not None:
        # nothing the room sees changes: the same game, the same stage (a notice of an undo
        # stays until the interview ends, as it would without a record)
        recorded = (*room.stage.recorded_by, held)
        return PrisonRoom(replace(room.stage, recorded_by=recorded), room.game, ahead=state)
    if room.ahead is not None:
        if isinstance(happening, Noted):
            act = act_from(happening.body) if happening.what == STAGE else None
            stage = act_on(room.stage, act) if act is not None else room.stage
            if _still_held(room, stage):  # a pause, an extension, a note of another kind
                cleared = stage if act is None else replace(stage, taken_back=None)
                return replace(room, stage=cleared, ahead=state)
        if isinstance(happening, TakenBack) and _undoes_held(room, happening):
            # the room never saw it: nothing to tell it of the undo
            return replace(room, ahead=None, game=state)
        # anything else ends the interview: the room sees its record with what ended it
        room = replace(room, game=room.ahead, ahead=None)
    stage = room.stage
    if isinstance(happening, Played):
        stage = replace(_played(stage, happening), taken_back=None)
    elif isinstance(happening, TakenBack):
        reverts = happening.entry.seq
        # what the room had seen of it, said on the board until the next change
        stage = replace(stage, taken_back=room.saw(happening.entry))
        if stage.reveal is not None and stage.reveal.hseq == reverts:
            stage = replace(stage, reveal=None, seen=stage.seen - {reverts})
    elif isinstance(happening, Noted) and happening.what == STAGE:
        act = act_from(happening.body)
        if act is not None:
            stage = replace(act_on(stage, act), taken_back=None)
    held_before = room.held
    new = PrisonRoom(stage, room.game)
    if new.held is None:
        new = replace(new, game=state)
    elif held_before is None or held_before.hseq != new.held.hseq:  # a search begins its reveal
        before = happening.before if isinstance(happening, Played) else room.game
        new = replace(new, game=before)
    # else still held: the room sees the game as it was before that search
    shown = min(new.stage.epilogue, steps(new.game))  # none before the end, nor after an undo
    if shown != new.stage.epilogue:
        new = replace(new, stage=replace(new.stage, epilogue=shown))
    return new


def _undoes_held(room: PrisonRoom, happening: TakenBack) -> bool:
    command, inside = happening.entry.command, room.stage.interview
    return isinstance(command, Interview) and inside is not None and (
        inside.prisoner == command.prisoner
    )


ROOM: RoomRules[PrisonState, PrisonRoom] = RoomRules(start, after)


# ---- what leaves it: the room's view of the stage, and each audience's view ----------------


class ClockView(TypedDict):
    seconds: float  # its whole length
    left: float  # seconds left when this view was made
    paused: bool


class InterviewView(TypedDict):
    prisoner: str
    clock: ClockView


class RevealView(TypedDict):
    """What the room has been shown of a search: each field only once its step is shown."""

    prisoner: str
    shown: list[Step]
    held: bool
    caught: bool | None
    workers: list[str] | None
    nights_added: int | None
    outcome: str | None
    winners: list[str]


class StageView(TypedDict):
    interview: InterviewView | None
    planning: ClockView | None
    reveal: RevealView | None
    epilogue: int  # the epilogue's steps shown (0 before the end)


def clock_view(clock: Clock, now: float) -> ClockView:
    return {
        "seconds": round(clock.seconds, 1),
        "left": round(clock.remaining(now), 1),
        "paused": clock.paused,
    }


def reveal_view(reveal: Reveal) -> RevealView:
    shown = list(reveal.shown_steps)
    night = "night" in shown and reveal.workers is not None
    return {
        "prisoner": reveal.prisoner,
        "shown": shown,
        "held": reveal.held,
        "caught": reveal.caught if "result" in shown else None,
        "workers": list(reveal.workers or ()) if night else None,
        "nights_added": len(reveal.workers or ()) if night else None,
        "outcome": reveal.outcome if "outcome" in shown else None,
        "winners": list(reveal.winners) if "outcome" in shown else [],
    }


def stage_view(stage: Stage, now: float) -> StageView:
    """The stage as anyone in the room may see it at ``now`` (the board, every phone)."""
    interview = stage.interview
    return {
        "interview": {"prisoner": interview.prisoner, "clock": clock_view(interview.clock, now)}
        if interview is not None
        else None,
        "planning": clock_view(stage.planning, now) if stage.planning is not None else None,
        "reveal": reveal_view(stage.reveal)
        if stage.reveal is not None and stage.reveal.shown
        else None,
        "epilogue": stage.epilogue,
    }


class PrisonerRoomView(PrisonerView):
    """A prisoner's view with the room's stage."""

    stage: StageView


class WardenRoomView(WardenView):
    """The warden's view with the room's stage."""

    stage: StageView


class PhonesCount(TypedDict):
    """How many of the seats (prisoners and warden) have a phone connected now."""

    connected: int
    seats: int


class TakenBackView(TypedDict):
    """What the room had seen of the move the game master just took back (nothing secret:
    an undone deal is an interview, an undone search only as far as its reveal went)."""

    kind: SawKind
    prisoner: str
    accused: str


class BoardRoomView(TableView):
    """The board's view: the table, the stage and the phones connected."""

    stage: StageView
    phones: PhonesCount
    epilogue: EpilogueView | None  # the steps shown, once the game is over
    taken_back: TakenBackView | None  # until the next change


def taken_back_view(stage: Stage) -> TakenBackView | None:
    saw = stage.taken_back
    if saw is None:
        return None
    return {"kind": saw.kind, "prisoner": saw.prisoner, "accused": saw.accused}


# Who sits at a seat of the prison break.
SeatRole = Literal["prisoner", "warden"]
SeatRoomView = PrisonerRoomView | WardenRoomView


def seat_game_view(state: PrisonState, role: SeatRole, name: str) -> PrisonerView | WardenView:
    """The one view of ``state`` a seat may have (spec, "Who may see what"): the warden's, or
    the prisoner ``name``'s."""
    return warden(state) if role == "warden" else prisoner(state, name)


def with_stage(game: PrisonerView | WardenView, stage: StageView) -> SeatRoomView:
    """A seat's view of the game (:func:`seat_game_view`) with the room's stage: a stream that
    made the game's view to see whether anything changed need not make it again."""
    return cast(SeatRoomView, {**game, "stage": stage})


def seat_room_view(
    state: PrisonState, role: SeatRole, name: str, stage: StageView
) -> SeatRoomView:
    """What the seat ``role`` ``name`` may see of ``state``, with ``stage``."""
    return with_stage(seat_game_view(state, role, name), stage)


def board_room_view(
    state: PrisonState,
    stage: StageView,
    phones: PhonesCount,
    taken_back: TakenBackView | None = None,
) -> BoardRoomView:
    shown = epilogue_view(state, stage["epilogue"])
    return BoardRoomView(
        **table(state), stage=stage, phones=phones, epilogue=shown, taken_back=taken_back
    )


class Shown(TypedDict):
    nights: int
    statuses: dict[str, Status]


def shown(view: PrisonerRoomView | WardenRoomView | BoardRoomView) -> Shown:
    """The nights and the prisoners' statuses as the room has been shown them: while a reveal
    is held, a view is of the game before the search, and its shown steps tell the rest."""
    reveal = view["stage"]["reveal"]
    nights = view["nights_done"]
    statuses = {p["name"]: p["status"] for p in view["prisoners"]}
    if reveal is not None and reveal["held"]:
        nights += reveal["nights_added"] or 0
        if reveal["caught"]:
            statuses[reveal["prisoner"]] = "caught"
    return {"nights": nights, "statuses": statuses}


def interview_by(room: PrisonRoom, name: str) -> str | None:
    """Who recorded ``name``'s interview today ("gm", or a seat's role), if anyone."""
    return next((by for who, by in reversed(room.stage.recorded_by) if who == name), None)
