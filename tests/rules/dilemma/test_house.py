"""The house player, its famous strategies, the rule for no answer and the debrief."""

from __future__ import annotations

import pytest

from companion.rules.dilemma.debrief import debrief
from companion.rules.dilemma.events import HouseChose
from companion.rules.dilemma.leaderboard import leaderboard
from companion.rules.dilemma.strategies import NAMES, play
from companion.rules.dilemma.views import board, player
from tests.dilemma_helpers import ok, refused, tournament


def test_five_players_never_sit_out_and_the_house_is_labelled_and_unranked() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee", "Eve"], rounds=5)
    faced = set()
    for n in range(5):
        ok(h, {"do": "start_round", "seed": n})
        r = h.state.current
        assert r.sitting_out == () and sorted(r.paired()) == sorted(
            ["p0", "p1", "p2", "p3", "p4", "~house1"]
        )
        faced.add(r.partner("~house1"))
        for pid in h.state.waiting():
            ok(h, {"do": "choose", "pid": pid, "choice": "betray"})
        assert not h.state.missed(h.state.current)
    assert len(faced) == 5  # each person met the house once, as the round robin goes
    names = [row["name"] for row in leaderboard(h.state)]
    assert sorted(names) == ["Ann", "Bob", "Cy", "Dee", "Eve"]  # ranked: people only
    view = board(h.state)
    assert view["house"]["rounds"] == 5 and view["house"]["name"] == "House (Tit for Tat)"
    for r in player(h.state, "p0")["me"]["rounds"]:
        assert r["house"] == (r["opponent"] == "House (Tit for Tat)")


def test_the_house_decides_from_its_seats_history_and_the_log_records_it() -> None:
    h = tournament(["Ann", "Bob", "Cy"], rounds=3)
    choices = []
    for n in range(3):
        entry = ok(h, {"do": "start_round", "seed": n})
        for pid in h.state.waiting():
            entry = ok(h, {"do": "choose", "pid": pid, "choice": "betray"})
        (chose,) = [e for e in entry.events if isinstance(e, HouseChose)]
        choices.append(chose.choice)
    assert choices == ["silent", "betray", "betray"]  # Tit for Tat: silent, then copies


def test_the_game_master_changes_the_house_between_rounds() -> None:
    h = tournament(["Ann", "Bob", "Cy"])
    ok(h, {"do": "set_house", "strategy": "always_betray"})
    ok(h, {"do": "start_round", "seed": 1})
    assert "between rounds" in refused(h, {"do": "set_house", "strategy": "random"})
    for pid in h.state.waiting():
        ok(h, {"do": "choose", "pid": pid, "choice": "silent"})
    facing = h.state.current.partner("~house1")
    assert h.state.months()[facing] == 12
    assert board(h.state)["house"]["name"] == "House (Always Betray)"


@pytest.mark.parametrize(
    ("strategy", "history", "expected"),
    [
        ("tit_for_tat", [], "silent"),
        ("tit_for_tat", [("silent", "betray")], "betray"),
        ("grim_trigger", [("silent", "betray"), ("betray", "silent")], "betray"),
        ("grim_trigger", [("silent", "silent")], "silent"),
        ("win_stay_lose_shift", [("betray", "silent")], "betray"),
        ("win_stay_lose_shift", [("betray", "betray")], "silent"),
        ("win_stay_lose_shift", [("silent", "betray")], "betray"),
        ("always_betray", [], "betray"),
        ("always_silent", [("silent", "betray")], "silent"),
    ],
)
def test_each_strategy_plays_as_named(strategy, history, expected) -> None:  # type: ignore[no-untyped-def]
    assert play(strategy, history, "x") == expected


def test_random_repeats_itself_from_the_same_seed() -> None:
    draws = {play("random", [], f"seed{n}") for n in range(20)}
    assert draws == {"silent", "betray"}
    assert play("random", [], "seed3") == play("random", [], "seed3")




def test_no_answer_may_serve_as_a_betrayal() -> None:
    h = tournament(["Ann", "Bob"], no_answer="betray")
    ok(h, {"do": "start_round", "seed": 1})
    ok(h, {"do": "choose", "pid": "p0", "choice": "silent"})
    ok(h, {"do": "close_round"})
    assert h.state.months() == {"p0": 12, "p1": 0}
    (o,) = board(h.state)["last"]["outcomes"]
    answered = {o["a"]: o["answered_a"], o["b"]: o["answered_b"]}
    assert answered == {"Ann": True, "Bob": False}


def test_the_debrief_replays_each_strategy_against_the_recorded_partners() -> None:
    h = tournament(["Ann", "Bob"], rounds=2)
    for n in range(2):
        ok(h, {"do": "start_round", "seed": n})
        ok(h, {"do": "choose", "pid": "p0", "choice": "betray"})
        ok(h, {"do": "choose", "pid": "p1", "choice": "silent"})
    d = board(h.state)["debrief"]
    assert d is not None and d == debrief(h.state)
    rows = {row["strategy"]: row for row in d["strategies"]}
    assert set(rows) == set(NAMES)
    # Ann betrayed twice, Bob stayed silent twice: seat by seat, per seat on average
    # Always Betray: in Ann's seat 0 + 0 (Bob silent), in Bob's 3 + 3 (Ann betrays)
    assert rows["always_betray"]["months"] == 3.0
    # Tit for Tat: Ann's seat 1 + 1; Bob's seat 12 then 3
    assert rows["tit_for_tat"]["months"] == (2 + 15) / 2
    assert rows["tit_for_tat"]["ahead"] == 0  # it never serves less than its partner
    assert d["people"] == (0 + 24) / 2


def test_a_resumed_session_holds_the_house_players_recorded_choices(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The house's choices are events in the log: reopening (as after kill -9) folds them
    back, and the state is the same, whatever the strategy now is."""
    from companion.session.session import Session
    from tests.dilemma_helpers import scenario

    path = tmp_path / "h.sqlite"
    s = Session.create(path, "dilemma", {"rules": scenario(rounds=3, house="random")})
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    for n in range(3):
        s.submit({"do": "start_round", "seed": 100 + n})
        for pid in s.state.waiting():
            s.submit({"do": "choose", "pid": pid, "choice": "silent"})
    before = (s.state.months(), s.state.house_history("~house1"))
    logged = [e for row in s.rows for e in row.body.get("events", []) if e["kind"] == "house_chose"]
    s.close()
    again = Session.open(path)
    try:
        assert (again.state.months(), again.state.house_history("~house1")) == before
        assert [m for m, _ in before[1]] == [e["choice"] for e in logged]
    finally:
        again.close()
