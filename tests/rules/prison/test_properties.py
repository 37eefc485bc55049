"""Property-based tests: random streams of legal and illegal commands keep every invariant.

The strategies and the secret-changing helpers here serve tests/rules/test_conformance.py too,
which checks the log's replay, undo, the codecs and the views' secrets for every game."""

from __future__ import annotations

import dataclasses
import json
from types import MappingProxyType

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.core.game import History, Refused
from companion.rules.prison.commands import parse_command
from companion.rules.prison.engine import PRISON_BREAK, new_game
from companion.rules.prison.state import PrisonState
from companion.rules.prison.views import choosers_only, gm, prisoner, prisoner_me, table, warden
from tests.conftest import examples
from tests.prison_helpers import rules

NAMES = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"]
OUT = {"caught", "shived", "paroled", "escaped"}

name = st.sampled_from([*NAMES, "Zed"])
command = st.one_of(
    st.builds(
        lambda n, c: {"do": "choose", "prisoner": n, "choice": c},
        name,
        st.sampled_from(["work", "rest"]),
    ),
    st.just({"do": "close_planning"}),
    st.builds(lambda n, d: {"do": "interview", "prisoner": n, "deal": d}, name, st.booleans()),
    st.builds(lambda n: {"do": "search", "prisoner": n}, name),
    st.builds(lambda a, b: {"do": "accuse", "accuser": a, "accused": b}, name, name),
    st.just({"do": "end_day"}),
    st.just({"do": "undo"}),
)


def _steer(state: PrisonState, nudge: tuple[int, int], cmd: dict) -> dict:
    """Mostly a command that fits the phase (so games get somewhere), sometimes the raw one."""
    nudge, pick = nudge
    if nudge >= 8:
        return cmd
    active = state.active() or ["Ada"]
    a, b = active[pick % len(active)], active[(pick + 1 + nudge) % len(active)]
    phase = state.phase
    if phase == "planning":
        if nudge < 6:
            return {"do": "choose", "prisoner": a, "choice": "work" if nudge % 2 else "rest"}
        return {"do": "close_planning"}
    if phase == "interviews" and nudge < 5:
        return {"do": "interview", "prisoner": a, "deal": nudge % 2 == 0}
    if phase in ("interviews", "search"):
        return {"do": "search", "prisoner": a}
    if phase == "accusations":
        return {"do": "accuse", "accuser": a, "accused": b} if nudge < 4 else {"do": "end_day"}
    return {"do": "undo"} if nudge < 2 else cmd


steered = st.lists(
    st.tuples(st.tuples(st.integers(0, 9), st.integers(0, 5)), command), min_size=10, max_size=80
)

game_setup = st.fixed_dictionaries(
    {
        "count": st.integers(4, 6),
        "nights_to_escape": st.integers(1, 8),
        "parole_tokens_to_win": st.integers(1, 3),
        "parole_tokens_per_day": st.integers(0, 2),
        "searches_per_day": st.integers(1, 3),
        "shivs_per_prisoner": st.integers(0, 2),
        "accusations_per_day": st.integers(0, 2),
        "max_days": st.one_of(st.none(), st.integers(1, 4)),
    }
)
SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def start(setup: dict) -> History:
    setup = dict(setup)
    count = setup.pop("count")
    r = rules(min_prisoners=4, max_prisoners=6, **setup)
    return History(PRISON_BREAK, new_game(r, "Wendy", NAMES[:count]))


def step(h: History, cmd: dict) -> object:
    if cmd["do"] == "undo":
        return h.record_undo()
    return h.submit(parse_command(cmd))


def check_forward(before: PrisonState, after: PrisonState) -> None:
    """Invariants of one accepted, non-undo command."""
    for n, p in before.prisoners.items():
        if p.status in OUT:
            assert after.prisoners[n].status == p.status, "out stays out"
    assert after.nights_done >= before.nights_done
    assert after.day.number >= before.day.number
    shived_now = [
        n
        for n, p in after.prisoners.items()
        if p.status == "shived" and before.prisoners[n].status != "shived"
    ]
    lost = sum(before.prisoners[n].shivs for n in shived_now)
    total = lambda s: sum(p.shivs for p in s.prisoners.values())  # noqa: E731
    assert total(after) == total(before) - lost, "shivs only move, or leave with a shived prisoner"


def check_always(s: PrisonState) -> None:
    assert s.day.deals <= s.rules.parole_tokens_per_day
    assert all(d.deals <= s.rules.parole_tokens_per_day for d in s.past)
    assert all(p.parole_tokens <= s.rules.parole_tokens_to_win for p in s.prisoners.values())
    assert (s.outcome is None) == (s.phase != "over")
    if s.outcome == "escape":
        assert s.nights_done >= s.rules.nights_to_escape


@SETTINGS
@given(game_setup, steered)
def test_random_streams_keep_the_invariants(
    setup: dict, commands: list[tuple[tuple[int, int], dict]]
) -> None:
    h = start(setup)
    for nudge, raw in commands:
        cmd = _steer(h.state, nudge, raw)
        before = h.state
        result = step(h, cmd)
        if isinstance(result, Refused):
            assert h.state is before, "a refusal changes nothing"
            assert result.reason.endswith(".")
            continue
        if cmd["do"] != "undo":
            check_forward(before, h.state)
        check_always(h.state)


COUNTS = ("submitted", "submitted_count")


@SETTINGS
@given(game_setup, steered)
def test_choosers_only_names_every_prisoner_whose_view_changed(
    setup: dict, commands: list[tuple[tuple[int, int], dict]]
) -> None:
    """What the prison's fan-out skips on its word: for every prisoner it leaves out, their
    own part is the same, and the table differs at most in who has chosen."""
    h = start(setup)
    for nudge, raw in commands:
        cmd = _steer(h.state, nudge, raw)
        before = h.state
        if isinstance(step(h, cmd), Refused):
            assert choosers_only(before, h.state) == frozenset()
            continue
        after = h.state
        chose = choosers_only(before, after)
        if cmd["do"] == "choose" and not before.over:
            assert chose is not None, "a choice alone is told as a choice"
            assert chose <= {cmd["prisoner"]}
        if chose is None:
            continue
        for n in after.prisoners:
            if n not in chose:
                assert prisoner_me(before, n) == prisoner_me(after, n), n
        was, now = table(before), table(after)
        assert {k: v for k, v in was.items() if k not in COUNTS} == {
            k: v for k, v in now.items() if k not in COUNTS
        }
        for n in chose:  # and whom it names did change their choice
            assert prisoner_me(before, n)["choice"] != prisoner_me(after, n)["choice"], n


def _views(s: PrisonState) -> dict[str, str]:
    out = {"table": table(s), "warden": warden(s), "gm": gm(s)}
    out |= {f"prisoner:{n}": prisoner(s, n) for n in s.roster}
    return {k: json.dumps(v, sort_keys=True) for k, v in out.items()}


def _flip_choice(s: PrisonState, who: str) -> PrisonState:
    choices = dict(s.day.choices)
    choices[who] = "rest" if s.day.choice_of(who) == "work" else "work"
    return dataclasses.replace(s, day=dataclasses.replace(s.day, choices=MappingProxyType(choices)))


def _more_tokens(s: PrisonState, who: str) -> PrisonState:
    ps = dict(s.prisoners)
    ps[who] = dataclasses.replace(ps[who], parole_tokens=ps[who].parole_tokens + 1)
    return dataclasses.replace(s, prisoners=MappingProxyType(ps))


def _flip_deals(s: PrisonState, who: str) -> PrisonState:
    def flip(day):  # type: ignore[no-untyped-def]
        talks = tuple((n, not d if n == who else d) for n, d in day.interviews)
        return dataclasses.replace(day, interviews=talks)

    return dataclasses.replace(s, day=flip(s.day), past=tuple(flip(d) for d in s.past))
