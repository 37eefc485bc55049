"""The classic two-prisoner dilemma as a room-wide warm-up tournament.

Players join by name; each round pairs them up (:mod:`companion.rules.dilemma.pairing`), each
chooses SILENT or BETRAY in secret, and when all have chosen (or the game master closes the
round) the sentences of the scenario are revealed. The least total time served leads.
Each command is decided against the state: refused with one sentence, or turned into events.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from companion.rules.core.game import Engine, Refusal, Refused, refusing
from companion.rules.core.names import reads_as
from companion.rules.core.roster import RosterError, check_name, name_keys
from companion.rules.core.words import N_
from companion.rules.dilemma.commands import (
    BringBack,
    Choose,
    CloseDoors,
    CloseRound,
    DilemmaCommand,
    Finish,
    Join,
    OpenDoors,
    Remove,
    RemoveMany,
    Rename,
    SetHouse,
    StartRound,
    command_to_dict,
    parse_command,
)
from companion.rules.dilemma.events import (
    CameBack,
    Chose,
    DilemmaEvent,
    DoorsClosed,
    DoorsOpened,
    Ended,
    HouseChose,
    HouseSet,
    Joined,
    Left,
    Outcome,
    Renamed,
    RoundRevealed,
    RoundStarted,
    event_from_dict,
    event_to_dict,
)
from companion.rules.dilemma.pairing import draw
from companion.rules.dilemma.scenario import DilemmaRules, check_scenario
from companion.rules.dilemma.state import (
    HOUSE,
    HOUSE_WORDS,
    STAFF_WORDS,
    DilemmaState,
    Round,
    evolve,
    is_house,
    new_state,
)
from companion.rules.dilemma.strategies import play


def _player(state: DilemmaState, pid: str, *, present: bool | None = True) -> str:
    p = state.player(pid)
    if p is None:
        raise Refusal("That player is not in the tournament; join again from the room's QR code.")
    if present is True and not p.present:
        raise Refusal(
            "%(name)s has left the tournament; the game master can bring them back.", name=p.name
        )
    if present is False and p.present:
        raise Refusal("%(name)s is still in the tournament.", name=p.name)
    return p.name


# Every join compares the name with every player's: their keys are worked out once (a hall
# of 1,000 made half a million keys in its join rush).
_keys = lru_cache(maxsize=4096)(name_keys)


def _name(state: DilemmaState, name: str, pid: str | None = None) -> str:
    if not name.strip():  # said to whoever types it, a player on a phone or the game master
        raise Refusal("Type a name first.")
    try:
        check_name(name, "player")
    except RosterError as error:
        if not error.template:  # not a message (a kind of name the rules do not list)
            raise Refusal(str(error)) from None
        raise Refusal(error.template, **error.params) from None
    if any(reads_as(name, word) for word in HOUSE_WORDS):
        raise Refusal(
            "The name %(name)s reads like the house player's; add an initial or pick another.",
            name=repr(name),
        )
    if any(reads_as(name, word) for word in STAFF_WORDS):
        raise Refusal(
            "The name %(name)s reads like the game master's or the warden's; pick another name.",
            name=repr(name),
        )
    keys = name_keys(name)
    for p in state.players:
        if p.pid != pid and not keys.isdisjoint(_keys(p.name)):
            raise Refusal(
                "The name %(name)s is already taken; add an initial or pick another.",
                name=repr(name),
            )
    return name


_OVER = {
    "join": N_("The tournament is over; nobody can join now."),
    "leave": N_("The tournament is over; nobody can leave now."),
    "come back": N_("The tournament is over; nobody can come back now."),
    "start a round": N_("The tournament is over; nobody can start a round now."),
    "change the house player": N_(
        "The tournament is over; nobody can change the house player now."
    ),
    "finish it again": N_("The tournament is over; nobody can finish it again now."),
}


def _not_over(state: DilemmaState, doing: str) -> None:
    if state.phase == "over":
        raise Refusal(_OVER[doing])


def _join(state: DilemmaState, cmd: Join) -> list[DilemmaEvent]:
    _not_over(state, "join")
    if state.player(cmd.pid) is not None:
        raise Refusal("That player id is taken; join again.")
    if state.doors_closed:
        raise Refusal("The game master has closed the doors; nobody can join now.")
    _name(state, cmd.name)
    if len(state.present()) >= state.rules.max_players:
        raise Refusal(
            "The tournament is full (%(most)s players); watch the board.",
            most=state.rules.max_players,
        )
    return [Joined(pid=cmd.pid, name=cmd.name)]


def _rename(state: DilemmaState, cmd: Rename) -> list[DilemmaEvent]:
    _player(state, cmd.pid, present=None)
    if state.name(cmd.pid) == cmd.name:
        return []
    return [Renamed(pid=cmd.pid, name=_name(state, cmd.name, cmd.pid))]


def _left(state: DilemmaState, pid: str) -> Left:
    """``pid`` leaves: their partner in an open round, if any, faces a new house seat."""
    _player(state, pid)
    r = state.open_round()
    partner = r.partner(pid) if r is not None else None
    house = None
    if r is not None and partner is not None and not is_house(partner):
        taken = set(r.paired())
        house = next(f"{HOUSE}{k}" for k in range(1, len(taken) + 2) if f"{HOUSE}{k}" not in taken)
    return Left(pid=pid, partner=partner, house=house)


def _leaving(state: DilemmaState, pids: Sequence[str]) -> list[DilemmaEvent]:
    """Each of ``pids`` leaves in turn (each ``Left`` folded before the next is decided); when
    one of them was paired and nobody is left to choose, the round is revealed."""
    events: list[DilemmaEvent] = []
    paired = False
    for pid in pids:
        left = _left(state, pid)
        paired = paired or left.partner is not None
        events.append(left)
        state = evolve(state, left)
    current = state.open_round()
    if paired and current is not None and current.pairs and not state.waiting():
        events += _reveal(state, current, closed_early=False)  # they were the last to choose
    return events


def _remove(state: DilemmaState, cmd: Remove) -> list[DilemmaEvent]:
    _not_over(state, "leave")
    return _leaving(state, [cmd.pid])


def _remove_many(state: DilemmaState, cmd: RemoveMany) -> list[DilemmaEvent]:
    _not_over(state, "leave")
    if not cmd.pids:
        raise Refusal("Pick at least one player to remove.")
    return _leaving(state, cmd.pids)


def _close_doors(state: DilemmaState, cmd: CloseDoors) -> list[DilemmaEvent]:
    if state.doors_closed:
        raise Refusal("The doors are already closed.")
    return [DoorsClosed()]


def _open_doors(state: DilemmaState, cmd: OpenDoors) -> list[DilemmaEvent]:
    if not state.doors_closed:
        raise Refusal("The doors are already open.")
    return [DoorsOpened()]


def _bring_back(state: DilemmaState, cmd: BringBack) -> list[DilemmaEvent]:
    _not_over(state, "come back")
    _player(state, cmd.pid, present=False)
    if len(state.present()) >= state.rules.max_players:
        raise Refusal(
            "The tournament is full (%(most)s players).", most=state.rules.max_players
        )
    return [CameBack(pid=cmd.pid)]


def _start_round(state: DilemmaState, cmd: StartRound) -> list[DilemmaEvent]:
    if state.phase == "choosing":
        raise Refusal("This round is still open; close it first.")
    _not_over(state, "start a round")
    players = state.present()
    need = max(2, state.rules.min_players)
    if len(players) < need:
        raise Refusal(
            "A round needs at least %(need)s players; %(joined)s joined so far.",
            need=need,
            joined=len(players),
        )
    if len(players) % 2:  # the house player takes the empty seat: nobody sits out
        players = [*players, f"{HOUSE}1"]
    pairing = draw(
        players, state.met(), state.sat_out(), state.plan, state.plan_step, random.Random(cmd.seed)
    )
    return [
        RoundStarted(
            number=len(state.rounds) + 1,
            pairs=pairing.pairs,
            sitting_out=pairing.sitting_out,
            plan=pairing.plan,
            plan_step=pairing.plan_step,
            seed=cmd.seed,
        )
    ]


def _sitting_out_months(state: DilemmaState, outcomes: list[Outcome]) -> int:
    """A missed round's months: the scenario's number, or the mean of the months the people
    who played the round served, rounded half up (a missed round neither rewards nor punishes)."""
    rule = state.rules.sitting_out
    if rule != "mean":
        return rule
    served = [
        months
        for o in outcomes
        for pid, months in ((o.a, o.months_a), (o.b, o.months_b))
        if not is_house(pid)
    ]
    return (2 * sum(served) + len(served)) // (2 * len(served)) if served else 0


def house_choices(state: DilemmaState, r: Round) -> list[HouseChose]:
    """The house player's choice in each of its seats, from that seat's earlier rounds only."""
    return [
        HouseChose(
            seat=seat,
            choice=play(state.house, state.house_history(seat), f"{r.seed}:{r.number}:{seat}"),
            strategy=state.house,
        )
        for seat in r.paired()
        if is_house(seat)
    ]


def _reveal(
    state: DilemmaState, r: Round, closed_early: bool, timed_out: bool = False
) -> list[DilemmaEvent]:
    s = state.rules.sentences
    events: list[DilemmaEvent] = []
    for chose in house_choices(state, r):
        events.append(chose)
        state = evolve(state, chose)
    r = state.current or r
    outcomes = []
    silence = state.rules.no_answer
    for a, b in r.pairs:
        ca, cb = r.choices.get(a, silence), r.choices.get(b, silence)
        outcomes.append(
            Outcome(
                a=a,
                b=b,
                choice_a=ca,
                choice_b=cb,
                months_a=s.months(ca, cb),
                months_b=s.months(cb, ca),
                answered_a=a in r.choices,
                answered_b=b in r.choices,
            )
        )
    events.append(
        RoundRevealed(
            number=r.number,
            outcomes=tuple(outcomes),
            sitting_out_months=_sitting_out_months(state, outcomes),
            closed_early=closed_early,
            timed_out=timed_out,
        )
    )
    if r.number >= state.rules.rounds:
        events.append(Ended(early=False))
    return events


def _choose(state: DilemmaState, cmd: Choose) -> list[DilemmaEvent]:
    name = _player(state, cmd.pid)
    r = state.open_round()
    if r is None:
        raise Refusal("No round is open; wait for the game master to start the next one.")
    if r.partner(cmd.pid) is None:
        raise Refusal("%(name)s sits out this round; wait for the next one.", name=name)
    if r.choices.get(cmd.pid) == cmd.choice:
        return []
    events: list[DilemmaEvent] = [Chose(pid=cmd.pid, choice=cmd.choice)]
    after = evolve(state, events[0])
    if after.all_chosen():
        current = after.current
        assert current is not None
        events += _reveal(after, current, closed_early=False)
    return events


def _close_round(state: DilemmaState, cmd: CloseRound) -> list[DilemmaEvent]:
    r = state.open_round()
    if r is None:
        raise Refusal("No round is open; start one first.")
    return _reveal(state, r, closed_early=bool(state.waiting()), timed_out=cmd.timed_out)


def _set_house(state: DilemmaState, cmd: SetHouse) -> list[DilemmaEvent]:
    _not_over(state, "change the house player")
    if state.phase == "choosing":
        raise Refusal("A round is open; change the house player between rounds.")
    if state.house == cmd.strategy:
        return []
    return [HouseSet(strategy=cmd.strategy)]


def _finish(state: DilemmaState, cmd: Finish) -> list[DilemmaEvent]:
    if state.phase == "choosing":
        raise Refusal("A round is still open; close it first, then finish.")
    _not_over(state, "finish it again")
    if not state.rounds:
        raise Refusal("No round has been played yet; start one first.")
    return [Ended(early=True)]


_HANDLERS: dict[type[Any], Callable[[DilemmaState, Any], list[DilemmaEvent]]] = {
    Join: _join,
    Rename: _rename,
    Remove: _remove,
    RemoveMany: _remove_many,
    CloseDoors: _close_doors,
    OpenDoors: _open_doors,
    BringBack: _bring_back,
    StartRound: _start_round,
    Choose: _choose,
    CloseRound: _close_round,
    SetHouse: _set_house,
    Finish: _finish,
}


def decide(state: DilemmaState, command: DilemmaCommand) -> Sequence[DilemmaEvent] | Refused:
    return refusing(_HANDLERS[type(command)], state, command)


DILEMMA: Engine[DilemmaState, DilemmaCommand, DilemmaEvent] = Engine(
    name="dilemma",
    parse_command=parse_command,
    command_to_dict=command_to_dict,
    decide=decide,
    evolve=evolve,
    event_to_dict=event_to_dict,
    event_from_dict=event_from_dict,
)


def initial_state(setup: Mapping[str, Any]) -> DilemmaState:
    """The first state from a session setup ``{"scenario": ..., "rules": {...}}``."""
    return new_state(DilemmaRules.model_validate(setup["rules"]))


__all__ = ["DILEMMA", "check_scenario", "decide", "evolve", "initial_state"]
