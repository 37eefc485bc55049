"""What each audience may see of a prison-break game (spec, "Who may see what").

Every screen, page, bot and report reads the game through these functions; nothing else
leaves the core. Each view is plain JSON-ready data.
"""

from __future__ import annotations

from typing import Any

from companion.rules.prison.state import Day, PrisonState

View = dict[str, Any]


def _public_day(day: Day) -> View:
    """A day as the whole room knows it: interviews happen in view, deals do not."""
    return {
        "day": day.number,
        "interviewed": [name for name, _ in day.interviews],
        "searches": [{"prisoner": name, "caught": caught} for name, caught in day.searches],
        "revealed": day.revealed,
        "workers": list(day.workers) if day.revealed else [],
        "nights_added": len(day.workers) if day.revealed else 0,
        "accusations": [
            {"accuser": a, "accused": b, "result": "shived" if shived else "shiv passed"}
            for a, b, shived in day.accusations
        ],
    }


def table(state: PrisonState) -> View:
    """The public view: what anyone in the room, or the projector, may see."""
    rules = state.rules
    day = state.day
    return {
        "game": "prison-break",
        "day": day.number,
        "phase": state.phase,
        "nights_done": state.nights_done,
        "nights_to_escape": rules.nights_to_escape,
        "outcome": state.outcome,
        "winners": list(state.winners),
        "warden": state.warden,
        "prisoners": [
            {"name": p.name, "status": p.status, "shivs": p.shivs} for p in state.prisoners.values()
        ],
        "active": state.active(),
        "submitted": [n for n in state.active() if n in day.choices]
        if state.phase == "planning"
        else [],
        "submitted_count": sum(1 for n in state.active() if n in day.choices),
        "not_interviewed": state.not_interviewed(),
        "unsearched": state.unsearched(),
        "searches_left": state.searches_left(),
        "may_accuse": state.may_accuse(),
        "rules": {
            "nights_to_escape": rules.nights_to_escape,
            "parole_tokens_to_win": rules.parole_tokens_to_win,
            "parole_tokens_per_day": rules.parole_tokens_per_day,
            "searches_per_day": rules.searches_per_day,
            "accusations_per_day": rules.accusations_per_day,
            "max_days": rules.max_days,
        },
        "today": _public_day(day),
        "history": [_public_day(d) for d in state.past],
    }


def prisoner(state: PrisonState, name: str) -> View:
    """One prisoner's private view: the table plus their own choice and parole tokens."""
    me = state.prisoners[name]
    view = table(state)
    day = state.day
    choice = day.choices.get(name) if state.phase == "planning" else day.choice_of(name)
    view["me"] = {
        "name": name,
        "role": "prisoner",
        "status": me.status,
        "shivs": me.shivs,
        "parole_tokens": me.parole_tokens,
        "choice": choice,
        "interviewed_today": any(n == name for n, _ in state.day.interviews),
        "accusations_left": state.accusations_left(name),
    }
    return view


def warden(state: PrisonState) -> View:
    """The warden's view: the table plus every parole token (the warden gave them)."""
    view = table(state)
    day = state.day
    view["me"] = {"name": state.warden, "role": "warden"}
    view["parole_tokens"] = {p.name: p.parole_tokens for p in state.prisoners.values()}
    view["deals_today"] = day.deals
    view["deals_left_today"] = max(0, state.rules.parole_tokens_per_day - day.deals)
    view["deal_history"] = [
        {"day": d.number, "prisoner": n} for d in state.days for n, deal in d.interviews if deal
    ]
    return view


def gm(state: PrisonState, *, peek: bool = False) -> View:
    """The game master's view. Tonight's choices stay sealed until the search, unless the
    game master explicitly peeks (the session logs each peek)."""
    view = warden(state)
    del view["me"]
    sealed = state.phase in ("planning", "interviews", "search") and not state.day.revealed
    view["sealed"] = sealed and not peek
    if not sealed or peek:
        closed = state.phase != "planning"
        view["choices"] = {
            n: state.day.choice_of(n) if closed else state.day.choices.get(n)
            for n in state.roster
            if n in state.day.choices or n in state.active()
        }
    else:
        view["choices"] = None
    view["submitted"] = [n for n in state.active() if n in state.day.choices]
    return view


def story(state: PrisonState) -> list[View] | None:
    """The full story for the debrief, every night's choices and every deal; only once the
    game is over (``None`` before)."""
    if not state.over:
        return None
    out = []
    for d in state.days:
        out.append(
            {
                **_public_day(d),
                "choices": {n: d.choice_of(n) for n in state.roster if n in d.choices},
                "deals": [n for n, deal in d.interviews if deal],
            }
        )
    return out


def script_result(state: PrisonState) -> View:
    """The final state in the shape of the game-script contract (spec, "Game scripts")."""
    return {
        "day": state.day.number,
        "phase": state.phase,
        "nights_done": state.nights_done,
        "nights_to_escape": state.rules.nights_to_escape,
        "outcome": state.outcome,
        "winners": list(state.winners),
        "prisoners": {
            p.name: {"status": p.status, "parole_tokens": p.parole_tokens, "shivs": p.shivs}
            for p in state.prisoners.values()
        },
    }
