"""Commands each game refuses, one per way the rules can refuse (where a game can reach it):
each case builds a game, drives it into place and returns the ``Refused`` its last command or
undo gets. Read by ``tests/test_refusals.py``; only the engines' public commands are used."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.rules.core.game import History, Refused
from companion.rules.core.names import said
from companion.rules.core.roster import RosterError, check_name, check_roster
from companion.rules.dilemma.engine import DILEMMA
from companion.rules.prison.commands import parse_command
from companion.rules.sucker.engine import SO_LONG_SUCKER, initial_state
from companion.rules.sucker.state import Awaiting
from tests.dilemma_helpers import tournament
from tests.prison_helpers import game as prison_game
from tests.prison_helpers import ok as prison_ok

Case = Callable[[], Refused]
CASES: dict[str, Case] = {}
# The names, colors and piles the cases use: not messages, so left out of a translation's words.
NAMES = [
    *("Ada", "Ben", "Cy", "Dee", "Wendy", "Zed"),
    *("Ann", "Bo", "Cat", "Dan", "red", "blue", "green", "yellow", "pink"),
    *("A" * 41, "A" * 20, "ada", repr("Z\x07ed"), repr("Z\u202eed"), said("\u0301\u0301")),
    *(said("Ze" + "\u0332" * 5 + "d"), repr("Hоuse"), "Аda", "Gardien"),
]


def case(name: str) -> Callable[[Case], Case]:
    def register(build: Case) -> Case:
        CASES[name] = build
        return build

    return register


def _refused(result: Any) -> Refused:
    assert isinstance(result, Refused), f"{result} was accepted"
    return result


# ---- the prison break -----------------------------------------------------------------------


def prison(**changes: Any) -> History[Any, Any, Any]:
    return prison_game(**changes)


def said(h: History[Any, Any, Any], **command: Any) -> Refused:
    return _refused(h.submit(parse_command(command)))


def planned(h: History[Any, Any, Any], work: tuple[str, ...] = ()) -> History[Any, Any, Any]:
    for name in h.state.active():
        prison_ok(h, do="choose", prisoner=name, choice="work" if name in work else "rest")
    prison_ok(h, do="close_planning")
    return h


def accusing(work: tuple[str, ...] = (), deal: str | None = None) -> History[Any, Any, Any]:
    """Day one's accusations, after a search of Dee's cell (Ada works when named)."""
    h = planned(prison(), work)
    if deal:
        prison_ok(h, do="interview", prisoner=deal, deal=True)
    prison_ok(h, do="search", prisoner="Dee")
    return h


def searching() -> History[Any, Any, Any]:
    """Two searches a day: the search phase after the first one (of Dee's cell)."""
    h = planned(prison(searches_per_day=2))
    prison_ok(h, do="search", prisoner="Dee")
    return h


def caught_ada() -> History[Any, Any, Any]:
    """Day two's planning: Ada was caught working on day one."""
    h = planned(prison(), work=("Ada",))
    prison_ok(h, do="search", prisoner="Ada")
    prison_ok(h, do="end_day")
    return h


def shived_ben() -> History[Any, Any, Any]:
    """Day one's accusations: Ben took a deal and Cy shived him."""
    h = accusing(deal="Ben")
    prison_ok(h, do="accuse", accuser="Cy", accused="Ben")
    return h


_PHASES = {
    "planning": prison,
    "interviews": lambda: planned(prison()),
    "search": searching,
    "accusations": accusing,
}
_COMMANDS: dict[str, dict[str, Any]] = {
    "choose": {"do": "choose", "prisoner": "Ada", "choice": "work"},
    "close": {"do": "close_planning"},
    "interview": {"do": "interview", "prisoner": "Ada", "deal": False},
    "search": {"do": "search", "prisoner": "Ada"},
    "accuse": {"do": "accuse", "accuser": "Ada", "accused": "Ben"},
    "end_day": {"do": "end_day"},
}
_ALLOWED = {
    "choose": ("planning",),
    "close": ("planning",),
    "interview": ("interviews",),
    "search": ("interviews", "search"),
    "accuse": ("accusations",),
    "end_day": ("accusations",),
}


def _out_of_phase(phase: str, command: dict[str, Any]) -> Case:
    return lambda: said(_PHASES[phase](), **command)


for _doing, _command in _COMMANDS.items():
    for _phase in _PHASES:
        if _phase not in _ALLOWED[_doing]:
            case(f"prison-{_doing}-in-{_phase}")(_out_of_phase(_phase, _command))


@case("prison-unknown-prisoner")
def _() -> Refused:
    return said(prison(), do="choose", prisoner="Zed", choice="work")


@case("prison-caught")
def _() -> Refused:
    return said(caught_ada(), do="choose", prisoner="Ada", choice="rest")


@case("prison-caught-accuser")
def _() -> Refused:
    h = caught_ada()
    planned(h)
    prison_ok(h, do="search", prisoner="Dee")
    return said(h, do="accuse", accuser="Ada", accused="Ben")


@case("prison-caught-accused")
def _() -> Refused:
    h = caught_ada()
    planned(h)
    prison_ok(h, do="search", prisoner="Dee")
    return said(h, do="accuse", accuser="Ben", accused="Ada")


@case("prison-shived")
def _() -> Refused:
    h = shived_ben()
    prison_ok(h, do="end_day")
    return said(h, do="choose", prisoner="Ben", choice="rest")


@case("prison-shived-accuser")
def _() -> Refused:
    return said(shived_ben(), do="accuse", accuser="Ben", accused="Ada")


@case("prison-shived-accused")
def _() -> Refused:
    return said(shived_ben(), do="accuse", accuser="Dee", accused="Ben")


@case("prison-interviewed-twice")
def _() -> Refused:
    h = planned(prison())
    prison_ok(h, do="interview", prisoner="Ben", deal=False)
    return said(h, do="interview", prisoner="Ben", deal=False)


@case("prison-named-without-a-deal")
def _() -> Refused:
    return said(planned(prison()), do="interview", prisoner="Ben", deal=False, named=["Ada"])


@case("prison-named-the-informant")
def _() -> Refused:
    return said(planned(prison()), do="interview", prisoner="Ben", deal=True, named=["Ben"])


@case("prison-one-deal")
def _() -> Refused:
    h = planned(prison())
    prison_ok(h, do="interview", prisoner="Ben", deal=True)
    return said(h, do="interview", prisoner="Cy", deal=True)


@case("prison-two-deals")
def _() -> Refused:
    h = planned(prison(parole_tokens_per_day=2))
    prison_ok(h, do="interview", prisoner="Ben", deal=True)
    prison_ok(h, do="interview", prisoner="Cy", deal=True)
    return said(h, do="interview", prisoner="Dee", deal=True)


@case("prison-searched-twice")
def _() -> Refused:
    return said(searching(), do="search", prisoner="Dee")


@case("prison-self-accusation")
def _() -> Refused:
    return said(accusing(), do="accuse", accuser="Ben", accused="Ben")


@case("prison-no-shiv")
def _() -> Refused:
    h = accusing()
    prison_ok(h, do="accuse", accuser="Cy", accused="Dee")
    return said(h, do="accuse", accuser="Cy", accused="Ada")


@case("prison-one-accusation")
def _() -> Refused:
    h = accusing()
    prison_ok(h, do="accuse", accuser="Cy", accused="Dee")
    prison_ok(h, do="accuse", accuser="Dee", accused="Ada")
    return said(h, do="accuse", accuser="Dee", accused="Ben")


@case("prison-two-accusations")
def _() -> Refused:
    h = planned(prison(accusations_per_day=2, parole_tokens_per_day=2))
    prison_ok(h, do="interview", prisoner="Ben", deal=True)
    prison_ok(h, do="interview", prisoner="Dee", deal=True)
    prison_ok(h, do="search", prisoner="Ada")
    prison_ok(h, do="accuse", accuser="Cy", accused="Ben")
    prison_ok(h, do="accuse", accuser="Cy", accused="Dee")
    return said(h, do="accuse", accuser="Cy", accused="Ada")


@case("prison-over")
def _() -> Refused:
    h = planned(prison(parole_tokens_to_win=1))
    prison_ok(h, do="interview", prisoner="Ben", deal=True)
    return said(h, do="search", prisoner="Ada")


@case("prison-nothing-to-undo")
def _() -> Refused:
    return _refused(prison().record_undo())


@case("prison-undo-after-a-move-came-in")
def _() -> Refused:
    h = prison()
    prison_ok(h, do="choose", prisoner="Ada", choice="work")
    asked = h.entries[-1].seq
    prison_ok(h, do="choose", prisoner="Ben", choice="work")
    return _refused(h.record_undo(only=asked))


# ---- So Long Sucker --------------------------------------------------------------------------

FOUR = "Ann:red,Bo:blue,Cat:green,Dan:yellow"


def sucker(**changes: Any) -> History[Any, Any, Any]:
    """Ann, Bo, Cat and Dan with 7 chips each, Ann to play; or a position given by ``changes``."""
    seats = [dict(zip(("name", "color"), p.split(":"), strict=True)) for p in FOUR.split(",")]
    state = initial_state({"players": seats, "chips_per_player": 7, "first": "Ann"})
    if "holdings" in changes:
        changes["holdings"] = MappingProxyType(
            {n: MappingProxyType(h) for n, h in changes["holdings"].items()}
        )
    if "piles" in changes:
        changes["piles"] = MappingProxyType({k: tuple(v) for k, v in changes["piles"].items()})
        changes.setdefault("next_pile", max(changes["piles"], default=0) + 1)
    return History(SO_LONG_SUCKER, replace(state, **changes))


def move(h: History[Any, Any, Any], **command: Any) -> Refused | None:
    result = h.submit(SO_LONG_SUCKER.parse_command(command))
    return result if isinstance(result, Refused) else None


def sucker_said(h: History[Any, Any, Any], **command: Any) -> Refused:
    return _refused(h.submit(SO_LONG_SUCKER.parse_command(command)))


def naming() -> History[Any, Any, Any]:
    """Ann played red on a new pile and must name who moves next (Bo, Cat or Dan)."""
    h = sucker()
    assert move(h, do="play", player="Ann", color="red", pile="new") is None
    return h


def killing() -> History[Any, Any, Any]:
    """Bo played red on Ann's red: Ann captured pile 1 (red, blue, red, red)."""
    h = sucker(
        piles={1: ["red", "blue", "red"]},
        awaiting=Awaiting("play", "Bo"),
        holdings={
            "Ann": {"red": 5},
            "Bo": {"blue": 6, "red": 1},
            "Cat": {"green": 7},
            "Dan": {"yellow": 7},
        },
    )
    assert move(h, do="play", player="Bo", color="red", pile=1) is None
    assert h.state.awaiting.what == "kill"
    return h


RESCUE_HOLDINGS = {
    "Ann": {"red": 5, "blue": 2},
    "Bo": {},
    "Cat": {"green": 6, "yellow": 1},
    "Dan": {"yellow": 6},
}


def rescuing(refused: tuple[str, ...] = ()) -> History[Any, Any, Any]:
    """Bo holds no chips and awaits rescue from Ann or Cat."""
    return sucker(holdings=RESCUE_HOLDINGS, awaiting=Awaiting("rescue", "Bo", refused=refused))


_AWAITS = {"play": sucker, "next": naming, "kill": killing, "rescue": rescuing}
_MOVES: dict[str, dict[str, Any]] = {
    "play": {"do": "play", "player": "Ann", "color": "red", "pile": "new"},
    "next": {"do": "next", "player": "Bo"},
    "kill": {"do": "kill", "player": "Ann", "color": "red"},
    "rescue": {"do": "refuse", "player": "Ann"},
}


def _not_now(awaiting: str, command: dict[str, Any]) -> Case:
    return lambda: sucker_said(_AWAITS[awaiting](), **command)


for _doing, _command in _MOVES.items():
    for _awaiting in _AWAITS:
        if _awaiting != _doing:
            case(f"sucker-{_doing}-while-awaiting-{_awaiting}")(_not_now(_awaiting, _command))


@case("sucker-unknown-player")
def _() -> Refused:
    return sucker_said(sucker(), do="play", player="Zed", color="red", pile="new")


@case("sucker-defeated-player")
def _() -> Refused:
    h = sucker(defeated=("Dan",), awaiting=Awaiting("play", "Dan"))
    return sucker_said(h, do="play", player="Dan", color="yellow", pile="new")


@case("sucker-not-their-move")
def _() -> Refused:
    return sucker_said(sucker(), do="play", player="Bo", color="blue", pile="new")


@case("sucker-unknown-color")
def _() -> Refused:
    return sucker_said(sucker(), do="play", player="Ann", color="pink", pile="new")


@case("sucker-color-not-held")
def _() -> Refused:
    h = sucker(holdings={**RESCUE_HOLDINGS, "Bo": {"blue": 7}})
    return sucker_said(h, do="play", player="Ann", color="green", pile="new")


@case("sucker-no-piles-yet")
def _() -> Refused:
    return sucker_said(sucker(), do="play", player="Ann", color="red", pile=3)


@case("sucker-unknown-pile")
def _() -> Refused:
    h = sucker(piles={1: ["blue"], 2: ["green"]})
    return sucker_said(h, do="play", player="Ann", color="red", pile=3)


@case("sucker-next-already-in-the-pile")
def _() -> Refused:
    return sucker_said(naming(), do="next", player="Ann")


@case("sucker-kill-by-another")
def _() -> Refused:
    return sucker_said(killing(), do="kill", player="Bo", color="red")


@case("sucker-kill-a-color-not-in-the-pile")
def _() -> Refused:
    return sucker_said(killing(), do="kill", player="Ann", color="green")


@case("sucker-transfer-own-color")
def _() -> Refused:
    return sucker_said(sucker(), do="transfer", player="Ann", color="red", to="Bo")


@case("sucker-kill-own-color")
def _() -> Refused:
    return sucker_said(sucker(), do="kill_prisoner", player="Ann", color="red")


@case("sucker-no-such-prisoner")
def _() -> Refused:
    return sucker_said(sucker(), do="transfer", player="Ann", color="blue", to="Bo")


@case("sucker-transfer-to-nobody")
def _() -> Refused:
    return sucker_said(rescuing(), do="transfer", player="Ann", color="blue", to="Zed")


@case("sucker-transfer-to-themselves")
def _() -> Refused:
    return sucker_said(rescuing(), do="transfer", player="Ann", color="blue", to="Ann")


@case("sucker-transfer-to-the-defeated")
def _() -> Refused:
    h = sucker(holdings=RESCUE_HOLDINGS, defeated=("Dan",))
    return sucker_said(h, do="transfer", player="Ann", color="blue", to="Dan")


@case("sucker-refuse-own-rescue")
def _() -> Refused:
    return sucker_said(rescuing(), do="refuse", player="Bo")


@case("sucker-refuse-twice")
def _() -> Refused:
    return sucker_said(rescuing(refused=("Ann",)), do="refuse", player="Ann")


@case("sucker-refuse-without-prisoners")
def _() -> Refused:
    return sucker_said(rescuing(), do="refuse", player="Dan")


@case("sucker-over")
def _() -> Refused:
    h = sucker(awaiting=Awaiting("over", None), winner="Ann")
    return sucker_said(h, do="play", player="Ann", color="red", pile="new")


# ---- the dilemma warm-up ----------------------------------------------------------------------


def dilemma(names: tuple[str, ...] = ("Ada", "Ben", "Cy"), **rules: Any) -> History[Any, Any, Any]:
    return tournament(list(names), **rules)


def dilemma_said(h: History[Any, Any, Any], **command: Any) -> Refused:
    return _refused(h.submit(DILEMMA.parse_command(command)))


def dilemma_ok(h: History[Any, Any, Any], **command: Any) -> History[Any, Any, Any]:
    result = h.submit(DILEMMA.parse_command(command))
    assert not isinstance(result, Refused), result.reason
    return h


def in_round() -> History[Any, Any, Any]:
    return dilemma_ok(dilemma(), do="start_round", seed=7)


def over() -> History[Any, Any, Any]:
    h = dilemma_ok(in_round(), do="close_round")
    return dilemma_ok(h, do="finish")


@case("dilemma-empty-name")
def _() -> Refused:
    return dilemma_said(dilemma(), do="join", pid="p9", name="  ")


@case("dilemma-long-name")
def _() -> Refused:
    return dilemma_said(dilemma(), do="join", pid="p9", name="A" * 41)


@case("dilemma-name-with-spaces")
def _() -> Refused:
    return dilemma_said(dilemma(), do="join", pid="p9", name=" Zed")


@case("dilemma-name-with-a-control-character")
def _() -> Refused:
    return dilemma_said(dilemma(), do="join", pid="p9", name="Z\x07ed")


@case("dilemma-name-like-the-house")
def _() -> Refused:
    return dilemma_said(dilemma(), do="join", pid="p9", name="Hоuse")  # a Cyrillic "о"


@case("dilemma-name-like-the-staff")
def _() -> Refused:
    return dilemma_said(dilemma(), do="join", pid="p9", name="Gardien")


@case("dilemma-name-taken-by-a-look-alike")
def _() -> Refused:
    return dilemma_said(dilemma(), do="join", pid="p9", name="Аda")  # a Cyrillic "А"


@case("dilemma-name-taken")
def _() -> Refused:
    return dilemma_said(dilemma(), do="rename", pid="p1", name="ada")


@case("dilemma-id-taken")
def _() -> Refused:
    return dilemma_said(dilemma(), do="join", pid="p0", name="Zed")


@case("dilemma-full")
def _() -> Refused:
    return dilemma_said(dilemma(("Ada", "Ben"), max_players=2), do="join", pid="p9", name="Zed")


@case("dilemma-full-to-come-back")
def _() -> Refused:
    h = dilemma_ok(dilemma(("Ada", "Ben"), max_players=2), do="remove", pid="p0")
    dilemma_ok(h, do="join", pid="p9", name="Zed")
    return dilemma_said(h, do="bring_back", pid="p0")


@case("dilemma-unknown-player")
def _() -> Refused:
    return dilemma_said(in_round(), do="choose", pid="p9", choice="silent")


@case("dilemma-left")
def _() -> Refused:
    h = dilemma_ok(in_round(), do="remove", pid="p0")
    return dilemma_said(h, do="choose", pid="p0", choice="silent")


@case("dilemma-still-in")
def _() -> Refused:
    return dilemma_said(dilemma(), do="bring_back", pid="p1")


@case("dilemma-round-still-open")
def _() -> Refused:
    return dilemma_said(in_round(), do="start_round", seed=8)


@case("dilemma-too-few-players")
def _() -> Refused:
    return dilemma_said(dilemma(("Ada",)), do="start_round", seed=7)


@case("dilemma-choose-without-a-round")
def _() -> Refused:
    return dilemma_said(dilemma(), do="choose", pid="p0", choice="silent")


@case("dilemma-sits-out")
def _() -> Refused:
    h = dilemma_ok(in_round(), do="join", pid="p9", name="Zed")
    return dilemma_said(h, do="choose", pid="p9", choice="silent")


@case("dilemma-close-without-a-round")
def _() -> Refused:
    return dilemma_said(dilemma(), do="close_round")


@case("dilemma-house-during-a-round")
def _() -> Refused:
    return dilemma_said(in_round(), do="set_house", strategy="always_betray")


@case("dilemma-finish-during-a-round")
def _() -> Refused:
    return dilemma_said(in_round(), do="finish")


@case("dilemma-finish-before-any-round")
def _() -> Refused:
    return dilemma_said(dilemma(), do="finish")


@case("dilemma-doors-closed")
def _() -> Refused:
    return dilemma_said(dilemma_ok(dilemma(), do="close_doors"), do="join", pid="p9", name="Zed")


@case("dilemma-doors-already-closed")
def _() -> Refused:
    return dilemma_said(dilemma_ok(dilemma(), do="close_doors"), do="close_doors")


@case("dilemma-doors-already-open")
def _() -> Refused:
    return dilemma_said(dilemma(), do="open_doors")


@case("dilemma-remove-nobody")
def _() -> Refused:
    return dilemma_said(dilemma(), do="remove_many", pids=[])


@case("dilemma-remove-many-with-an-unknown-player")
def _() -> Refused:
    return dilemma_said(dilemma(), do="remove_many", pids=["p0", "p9"])


@case("dilemma-remove-many-with-one-gone")
def _() -> Refused:
    h = dilemma_ok(dilemma(), do="remove", pid="p1")
    return dilemma_said(h, do="remove_many", pids=["p0", "p1"])


_AFTER_THE_END: dict[str, dict[str, Any]] = {
    "join": {"do": "join", "pid": "p9", "name": "Zed"},
    "leave": {"do": "remove", "pid": "p0"},
    "leave-many": {"do": "remove_many", "pids": ["p0", "p1"]},
    "come-back": {"do": "bring_back", "pid": "p0"},
    "start": {"do": "start_round", "seed": 8},
    "house": {"do": "set_house", "strategy": "always_betray"},
    "finish": {"do": "finish"},
}


def _after_the_end(command: dict[str, Any]) -> Case:
    return lambda: dilemma_said(over(), **command)


for _name, _command in _AFTER_THE_END.items():
    case(f"dilemma-{_name}-after-the-end")(_after_the_end(_command))


# ---- a roster's names (the console's set-up screen, a phone's name) ---------------------------


def roster_said(check: Callable[[], object]) -> Refused:
    try:
        check()
    except RosterError as error:
        return error.refused
    raise AssertionError(f"{check} was accepted")


_BAD_NAMES: dict[str, object] = {
    "text": 7,
    "empty": " ",
    "long": "A" * 41,
    "spaces": " Zed",
    "control": "Z\x07ed",
    "invisible": "Z\u202eed",
    "blank": "\u0301\u0301",
    "marks": "Ze" + "\u0332" * 5 + "d",
}


def _bad_name(what: str, name: object) -> Case:
    return lambda: roster_said(lambda: check_name(name, what))


def _bad_listed_name(name: object) -> Case:
    return lambda: roster_said(lambda: check_roster("Wendy", ["Ada", name, "Cy", "Dee"], 4, 4))


for _check, _name in _BAD_NAMES.items():
    for _what in ("warden", "prisoner", "player"):
        case(f"roster-{_what}-{_check}")(_bad_name(_what, _name))
    case(f"roster-listed-prisoner-{_check}")(_bad_listed_name(_name))


@case("roster-not-a-list")
def _() -> Refused:
    return roster_said(lambda: check_roster("Wendy", "Ada, Ben", 4, 4))


@case("roster-name-twice")
def _() -> Refused:
    return roster_said(lambda: check_roster("Wendy", ["Ada", "Ben", "ada", "Dee"], 4, 4))


@case("roster-not-exactly-the-size")
def _() -> Refused:
    return roster_said(lambda: check_roster("Wendy", ["Ada", "Ben", "Cy"], 4, 4))


@case("roster-not-in-the-range")
def _() -> Refused:
    return roster_said(lambda: check_roster("Wendy", ["Ada", "Ben", "Cy"], 4, 8))
