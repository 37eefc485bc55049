"""The epilogue: what really happened in a prison break, night by night, once the game is over.

A pure fold of the game's days (:class:`~companion.rules.prison.state.PrisonState`): each
night's workers and resters, the deals and the interviews without one (the log knows only
that none was made, and whether one was still left that day), the searches and why
they caught or missed, the night's work, the accusations and what decided them, then the end
(who won, every parole token). Nothing of it exists before the game is over (every function
below gives nothing then), so no view can carry it early; a game undone back to life has none
again.

The room steps through it like a held reveal (:class:`~companion.rules.prison.stage.
ShowEpilogue`, one step a night and the end): the board shows the steps the room has seen
(:func:`epilogue_view`), each phone its own player's part at once (:func:`own_part`,
:func:`warden_part`); :mod:`companion.rules.prison.epilogue_phrases` says them, so every face
and language says the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, TypedDict

from companion.rules.prison.commands import Choice
from companion.rules.prison.events import Outcome
from companion.rules.prison.state import Day, PrisonState

Result = Literal["shived", "shiv passed"]


class NightSearch(TypedDict):
    prisoner: str
    caught: bool  # caught: they had chosen to work; safe: to rest


class NightDeal(TypedDict):
    prisoner: str
    tokens: int  # their parole tokens after this deal (all they hold, not this deal's)
    named: list[str]  # whom they said was working (empty: nothing recorded)


class NightAccusation(TypedDict):
    accuser: str
    accused: str
    result: Result
    tokens: int  # the parole tokens the accused had taken by then (what decided it)


class OwnAccusation(TypedDict):
    """An accusation in a prisoner's own part: its result only (how many tokens the accused
    held is the warden's to know, and the board's once the epilogue shows it)."""

    accuser: str
    accused: str
    result: Result


class EpilogueNight(TypedDict):
    """One day and its night, as it really happened."""

    day: int
    worked: list[str]  # chose to work (the caught among them), in roster order
    rested: list[str]
    revealed: bool  # the night came (a parole ends the game before it)
    deals: list[NightDeal]
    no_deal: list[str]  # interviewed without a deal while one was still left that day
    none_left: list[str]  # interviewed once the day's deals were all made
    searches: list[NightSearch]
    nights_added: int
    nights_done: int  # after this night
    nights_to_escape: int
    accusations: list[NightAccusation]


class TokensRow(TypedDict):
    prisoner: str
    tokens: int


class EpilogueEnd(TypedDict):
    outcome: Outcome | None
    winners: list[str]
    nights_done: int
    nights_to_escape: int
    tokens: list[TokensRow]  # every prisoner who ever took a deal, in roster order


class EpilogueView(TypedDict):
    """What the room has been shown of the epilogue: the nights and the end, each only once
    its step is shown."""

    shown: int
    steps: int
    held: bool  # steps left to show
    nights: list[EpilogueNight]
    end: EpilogueEnd | None


class OwnNight(TypedDict):
    """One night of a prisoner's own part."""

    day: int
    choice: Choice
    revealed: bool
    deal: bool | None  # None: not interviewed (False: no deal; whether one was left that day
    # is not said: it would tell of others' deals before the board shows them)
    named: list[str]  # whom they named in their deal
    searched: bool
    caught: bool
    accused: list[OwnAccusation]  # made by them
    accused_by: list[OwnAccusation]  # of them


class WardenNight(TypedDict):
    """One night of the warden's own part."""

    day: int
    deals: list[str]
    no_deal: list[str]
    none_left: list[str]
    searches: list[NightSearch]


# ---- the facts -------------------------------------------------------------------------------


def _days(state: PrisonState) -> Iterator[tuple[Day, list[str], dict[str, int]]]:
    """Each day with who was in the game at its planning and everyone's parole tokens before
    it."""
    out: set[str] = set()
    tokens = dict.fromkeys(state.roster, 0)
    for d in state.days:
        yield d, [n for n in state.roster if n not in out], dict(tokens)
        for name, deal in d.interviews:
            tokens[name] += 1 if deal else 0
        out |= {name for name, caught in d.searches if caught}
        out |= {accused for _, accused, shived in d.accusations if shived}


def _without_deal(day: Day, limit: int) -> tuple[list[str], list[str]]:
    """A day's interviews without a deal: those while one was still left, and those once the
    day's deals were all made (none could be offered)."""
    made = 0
    left: list[str] = []
    none: list[str] = []
    for name, deal in day.interviews:
        if deal:
            made += 1
        else:
            (left if made < limit else none).append(name)
    return left, none


def nights(state: PrisonState) -> list[EpilogueNight]:
    """Every night as it really happened (empty before the game is over)."""
    if not state.over:
        return []
    out: list[EpilogueNight] = []
    done = 0
    for d, active, before in _days(state):
        if not active and not d.interviews and not d.searches:
            continue  # a day the game never reached (none is, after a game's end)
        tokens = dict(before)
        deals: list[NightDeal] = []
        for name, deal in d.interviews:
            if deal:
                tokens[name] += 1
                said = next((list(n) for who, n in d.named if who == name), [])
                deals.append({"prisoner": name, "tokens": tokens[name], "named": said})
        done += len(d.workers) if d.revealed else 0
        no_deal, none_left = _without_deal(d, state.rules.parole_tokens_per_day)
        out.append(
            {
                "day": d.number,
                "worked": [n for n in active if d.choice_of(n) == "work"],
                "rested": [n for n in active if d.choice_of(n) == "rest"],
                "revealed": d.revealed,
                "deals": deals,
                "no_deal": no_deal,
                "none_left": none_left,
                "searches": [{"prisoner": n, "caught": c} for n, c in d.searches],
                "nights_added": len(d.workers) if d.revealed else 0,
                "nights_done": done,
                "nights_to_escape": state.rules.nights_to_escape,
                "accusations": [
                    {
                        "accuser": a,
                        "accused": b,
                        "result": "shived" if shived else "shiv passed",
                        "tokens": tokens[b],
                    }
                    for a, b, shived in d.accusations
                ],
            }
        )
    return out


def steps(state: PrisonState) -> int:
    """How many steps the epilogue has: one a night and the end (0 before the end)."""
    return len(nights(state)) + 1 if state.over else 0


def end(state: PrisonState) -> EpilogueEnd:
    return {
        "outcome": state.outcome,
        "winners": list(state.winners),
        "nights_done": state.nights_done,
        "nights_to_escape": state.rules.nights_to_escape,
        "tokens": [
            {"prisoner": p.name, "tokens": p.parole_tokens}
            for p in state.prisoners.values()
            if p.parole_tokens
        ],
    }


def epilogue_view(state: PrisonState, shown: int) -> EpilogueView | None:
    """The first ``shown`` steps of the epilogue, for the board (``None`` before the end)."""
    if not state.over:
        return None
    all_nights = nights(state)
    total = len(all_nights) + 1
    shown = max(0, min(shown, total))
    return {
        "shown": shown,
        "steps": total,
        "held": shown < total,
        "nights": all_nights[:shown],
        "end": end(state) if shown == total else None,
    }


def own_part(state: PrisonState, name: str) -> list[OwnNight] | None:
    """A prisoner's own nights (``None`` before the end)."""
    if not state.over:
        return None
    out: list[OwnNight] = []
    for night in nights(state):
        if name not in night["worked"] and name not in night["rested"]:
            continue  # out of the game by then
        own_deal = next((d for d in night["deals"] if d["prisoner"] == name), None)
        deal = None if own_deal is None else True
        if deal is None and (name in night["no_deal"] or name in night["none_left"]):
            deal = False
        search = next((s for s in night["searches"] if s["prisoner"] == name), None)
        accusations: list[OwnAccusation] = [
            {"accuser": a["accuser"], "accused": a["accused"], "result": a["result"]}
            for a in night["accusations"]
        ]
        out.append(
            {
                "day": night["day"],
                "choice": "work" if name in night["worked"] else "rest",
                "revealed": night["revealed"],
                "deal": deal,
                "named": [] if own_deal is None else own_deal["named"],
                "searched": search is not None,
                "caught": search is not None and search["caught"],
                "accused": [a for a in accusations if a["accuser"] == name],
                "accused_by": [a for a in accusations if a["accused"] == name],
            }
        )
    return out


def warden_part(state: PrisonState) -> list[WardenNight] | None:
    """The warden's own nights: the deals made, the searches (``None`` before the end)."""
    if not state.over:
        return None
    out: list[WardenNight] = []
    for d in state.days:
        no_deal, none_left = _without_deal(d, state.rules.parole_tokens_per_day)
        out.append(
            {
                "day": d.number,
                "deals": [n for n, deal in d.interviews if deal],
                "no_deal": no_deal,
                "none_left": none_left,
                "searches": [{"prisoner": n, "caught": c} for n, c in d.searches],
            }
        )
    return out
