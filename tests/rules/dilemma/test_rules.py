"""The dilemma tournament: joining, rounds, scoring from the scenario, reveal and the end."""

from __future__ import annotations

import pytest

from companion.rules.core.game import MalformedCommand
from companion.rules.core.scenario import ScenarioError
from companion.rules.dilemma.engine import DILEMMA, check_scenario
from companion.rules.dilemma.leaderboard import leaderboard
from companion.rules.dilemma.views import board, explanation, gm, player
from tests.dilemma_helpers import ok, refused, scenario, tournament


def play_round(h, seed: int, choose: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    ok(h, {"do": "start_round", "seed": seed})
    for pid, choice in choose.items():
        if pid in h.state.current.paired():
            ok(h, {"do": "choose", "pid": pid, "choice": choice})


@pytest.mark.parametrize(
    ("a", "b", "months_a", "months_b"),
    [
        ("silent", "silent", 1, 1),
        ("betray", "betray", 3, 3),
        ("betray", "silent", 0, 12),
        ("silent", "betray", 12, 0),
    ],
)
def test_sentences_come_from_the_scenario(a: str, b: str, months_a: int, months_b: int) -> None:
    h = tournament(["Ann", "Bob"])
    play_round(h, 1, {"p0": a, "p1": b})
    months = h.state.months()
    assert (months["p0"], months["p1"]) == (months_a, months_b)
    assert h.state.phase == "revealed"


def test_other_sentences_in_the_scenario_change_the_score() -> None:
    sentences = {"both_silent": 2, "both_betray": 5, "betrayer": 1, "betrayed": 20}
    h = tournament(["Ann", "Bob"], sentences=sentences)
    play_round(h, 1, {"p0": "betray", "p1": "silent"})
    assert h.state.months() == {"p0": 1, "p1": 20}
    assert board(h.state)["sentences"]["betrayed"] == 20


def test_the_round_reveals_itself_when_the_last_player_chooses() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee"])
    ok(h, {"do": "start_round", "seed": 3})
    pids = h.state.current.paired()
    for pid in pids[:-1]:
        ok(h, {"do": "choose", "pid": pid, "choice": "silent"})
        assert h.state.phase == "choosing"
    ok(h, {"do": "choose", "pid": pids[-1], "choice": "betray"})
    assert h.state.phase == "revealed"
    assert sorted(h.state.months().values()) == [0, 1, 1, 12]


def test_a_player_may_change_their_mind_until_the_reveal() -> None:
    h = tournament(["Ann", "Bob"])
    ok(h, {"do": "start_round", "seed": 3})
    ok(h, {"do": "choose", "pid": "p0", "choice": "betray"})
    ok(h, {"do": "choose", "pid": "p0", "choice": "silent"})
    ok(h, {"do": "choose", "pid": "p1", "choice": "silent"})
    assert h.state.months() == {"p0": 1, "p1": 1}
    assert "No round is open" in refused(h, {"do": "choose", "pid": "p0", "choice": "betray"})


def test_closing_the_round_makes_the_silent_by_default() -> None:
    h = tournament(["Ann", "Bob"])
    ok(h, {"do": "start_round", "seed": 3})
    ok(h, {"do": "choose", "pid": "p0", "choice": "betray"})
    ok(h, {"do": "close_round"})
    last = board(h.state)["last"]
    assert last["closed_early"]
    (outcome,) = last["outcomes"]
    assert {outcome["a"]: outcome["answered_a"], outcome["b"]: outcome["answered_b"]} == {
        "Ann": True,
        "Bob": False,
    }
    assert h.state.months() == {"p0": 0, "p1": 12}


def test_no_answer_is_its_own_case_in_the_chart_and_the_silent_count() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee"])
    ok(h, {"do": "start_round", "seed": 3})
    ok(h, {"do": "choose", "pid": "p0", "choice": "betray"})
    ok(h, {"do": "choose", "pid": "p1", "choice": "silent"})
    ok(h, {"do": "close_round"})  # two never answered: served as silent, not chosen
    (row,) = board(h.state)["cooperation"]
    assert (row["silent"], row["betray"], row["no_answer"], row["choices"]) == (1, 1, 2, 4)
    # the silent share is of the choices made, as the phones say: a no answer is not counted
    assert row["rate"] == 0.5
    silent = {r["name"]: r["silent"] for r in leaderboard(h.state)}
    assert silent == {"Ann": 0, "Bob": 1, "Cy": 0, "Dee": 0}
    assert "2 times a player gave no answer and served as if silent." in explanation(h.state)


def test_an_odd_room_plays_the_house_player_and_nobody_sits_out() -> None:
    h = tournament(["Ann", "Bob", "Cy"])
    play_round(h, 9, {"p0": "betray", "p1": "betray", "p2": "betray"})
    r = h.state.current
    assert r.sitting_out == () and "~house1" in r.paired()
    (facing,) = [p for p in r.paired() if r.partner(p) == "~house1"]
    assert h.state.months()[facing] == 0  # Tit for Tat opens silent
    assert h.state.name("~house1") == "House (Tit for Tat)"
    assert [row["name"] for row in leaderboard(h.state)] == ["Ann", "Bob", "Cy"]
    house = board(h.state)["house"]
    assert house is not None and (house["name"], house["rounds"]) == ("House (Tit for Tat)", 1)
    (outcome,) = [o for o in board(h.state)["last"]["outcomes"] if o["house_a"] or o["house_b"]]
    assert "House (Tit for Tat)" in (outcome["a"], outcome["b"])


def test_a_round_missed_is_served_as_the_rounds_mean() -> None:
    h = tournament(["Ann", "Bob"], sitting_out=2)
    play_round(h, 9, {"p0": "silent", "p1": "silent"})
    ok(h, {"do": "join", "pid": "late", "name": "Late"})
    assert h.state.months()["late"] == 2  # a number in the scenario is served as it is


def test_the_last_round_ends_the_tournament_with_chart_and_explanation() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee"], rounds=2)
    play_round(h, 1, {"p0": "silent", "p1": "silent", "p2": "silent", "p3": "silent"})
    assert h.state.phase == "revealed"
    play_round(h, 2, {"p0": "betray", "p1": "betray", "p2": "betray", "p3": "silent"})
    view = board(h.state)
    assert view["phase"] == "over"
    assert [row["rate"] for row in view["cooperation"]] == [1.0, 0.25]
    text = view["explanation"]
    assert "betrayal dominates" in text and "0 months instead of 1" in text
    assert "2 pairs stayed silent together" in text
    assert "over" in refused(h, {"do": "start_round", "seed": 5})
    assert "over" in refused(h, {"do": "join", "pid": "late", "name": "Late"})


def test_the_game_master_may_finish_early_between_rounds() -> None:
    h = tournament(["Ann", "Bob"])
    assert "No round" in refused(h, {"do": "finish"})
    ok(h, {"do": "start_round", "seed": 1})
    assert "still open" in refused(h, {"do": "finish"})
    ok(h, {"do": "close_round"})
    ok(h, {"do": "finish"})
    assert board(h.state)["ended_early"] and h.state.phase == "over"


def test_leaderboard_ranks_least_months_first_and_shares_ties() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee"])
    ok(h, {"do": "start_round", "seed": 4})
    (a, b), (c, d) = h.state.current.pairs
    for pid, choice in ((a, "betray"), (b, "silent"), (c, "betray"), (d, "betray")):
        ok(h, {"do": "choose", "pid": pid, "choice": choice})
    rows = leaderboard(h.state)
    assert [(r["rank"], r["months"]) for r in rows] == [(1, 0), (2, 3), (2, 3), (4, 12)]
    assert rows[0]["name"] == h.state.name(a)


@pytest.mark.parametrize(
    "names",
    [["Dee", "Émile", "José"], ["Player 1", "Player 2", "Player 10", "Player 11"]],
)
def test_ties_on_the_leaderboard_are_in_reading_order(names: list[str]) -> None:
    h = tournament(list(reversed(names)))
    assert [row["name"] for row in leaderboard(h.state)] == names


def test_joining_is_checked_and_names_stay_unique() -> None:
    h = tournament(["Ann"])
    assert "already taken" in refused(h, {"do": "join", "pid": "x", "name": "ANN"})
    assert "Type a name first" in refused(h, {"do": "join", "pid": "x", "name": ""})
    assert "Type a name first" in refused(h, {"do": "join", "pid": "x", "name": "   "})
    assert "at most 40" in refused(h, {"do": "join", "pid": "x", "name": "A" * 41})
    assert "id is taken" in refused(h, {"do": "join", "pid": "p0", "name": "Zed"})
    assert "at least 2 players" in refused(h, {"do": "start_round", "seed": 1})
    with pytest.raises(MalformedCommand, match="pid"):
        DILEMMA.parse_command({"do": "join", "pid": "no spaces", "name": "Zed"})
    with pytest.raises(MalformedCommand, match="unknown command"):
        DILEMMA.parse_command({"do": "dance"})
    with pytest.raises(MalformedCommand, match="choice"):
        DILEMMA.parse_command({"do": "choose", "pid": "p0", "choice": "confess"})


def test_the_room_has_a_limit() -> None:
    h = tournament(["Ann", "Bob"], max_players=2)
    assert "full" in refused(h, {"do": "join", "pid": "x", "name": "Cy"})


def test_rename_remove_and_bring_back() -> None:
    h = tournament(["Ann", "Bob", "Cy"])
    ok(h, {"do": "rename", "pid": "p2", "name": "Cyril"})
    assert board(h.state)["players"] == ["Ann", "Bob", "Cyril"]
    assert "taken" in refused(h, {"do": "rename", "pid": "p2", "name": "bob"})
    ok(h, {"do": "remove", "pid": "p1"})
    assert board(h.state)["players"] == ["Ann", "Cyril"] and board(h.state)["left"] == ["Bob"]
    assert "has left" in refused(h, {"do": "remove", "pid": "p1"})
    assert "has left" in refused(h, {"do": "choose", "pid": "p1", "choice": "silent"})
    ok(h, {"do": "bring_back", "pid": "p1"})
    assert "still in" in refused(h, {"do": "bring_back", "pid": "p1"})
    assert "not in the tournament" in refused(h, {"do": "remove", "pid": "nobody"})


def test_a_player_who_leaves_mid_round_frees_their_partner() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee"])
    ok(h, {"do": "start_round", "seed": 7})
    (a, b), (c, d) = h.state.current.pairs
    ok(h, {"do": "choose", "pid": b, "choice": "betray"})
    ok(h, {"do": "remove", "pid": a})
    assert h.state.current.sitting_out == () and h.state.current.partner(b) == "~house1"
    ok(h, {"do": "choose", "pid": c, "choice": "silent"})
    ok(h, {"do": "choose", "pid": d, "choice": "silent"})
    assert h.state.phase == "revealed"  # b's choice stands against the house, which opens silent
    months = h.state.months()
    assert months[b] == 0 and months[a] == 0 and months[c] == months[d] == 1
    assert [r["name"] for r in leaderboard(h.state)][-1] == h.state.name(a)
    assert leaderboard(h.state)[-1]["rank"] is None


def test_the_last_pair_leaving_reveals_nothing_but_the_round_can_close() -> None:
    h = tournament(["Ann", "Bob"])
    ok(h, {"do": "start_round", "seed": 7})
    ok(h, {"do": "remove", "pid": "p0"})
    assert h.state.current.pairs == (("p1", "~house1"),)
    ok(h, {"do": "close_round"})
    months = h.state.months()
    assert (months["p0"], months["p1"]) == (0, 1)


def test_a_late_joiner_waits_for_the_next_round() -> None:
    h = tournament(["Ann", "Bob"])
    ok(h, {"do": "start_round", "seed": 7})
    ok(h, {"do": "join", "pid": "late", "name": "Late"})
    assert gm(h.state)["roster"][-1]["doing"] == "joins next round"
    assert "sits out" in refused(h, {"do": "choose", "pid": "late", "choice": "silent"})


def test_a_round_missed_is_served_as_a_round_sat_out() -> None:
    """Joining late (or coming back) is no way to a shorter sentence: a player in the
    tournament who took no part in a revealed round serves the sitting-out months for it."""
    h = tournament(["Ann", "Bob", "Cy", "Dee"])
    ok(h, {"do": "start_round", "seed": 7})
    ok(h, {"do": "join", "pid": "late", "name": "Late"})
    (a, b), (x, y) = h.state.current.pairs
    ok(h, {"do": "choose", "pid": a, "choice": "betray"})
    ok(h, {"do": "choose", "pid": b, "choice": "betray"})
    ok(h, {"do": "choose", "pid": x, "choice": "betray"})
    ok(h, {"do": "choose", "pid": y, "choice": "silent"})
    months = h.state.months()
    # the round's mean: (3 + 3 + 0 + 12) / 4 = 4.5, rounded half up
    assert months["late"] == 5 and months[a] == months[b] == 3
    rows = {row["name"]: row for row in leaderboard(h.state)}
    assert rows["Late"]["rounds"] == 0
    assert player(h.state, "late")["me"]["rounds"] == [
        {
            "round": 1,
            "opponent": None,
            "mine": None,
            "theirs": None,
            "served_as": None,
            "theirs_served_as": None,
            "months": 5,
            "house": False,
            "strategy": None,
        }
    ]
    # Round 2: a player removed mid-round and brought back serves it as sat out too; one
    # removed for good is out of the leaderboard and serves nothing more.
    ok(h, {"do": "start_round", "seed": 8})
    (c, d), (e, f) = [pair for pair in h.state.current.pairs if "~house1" not in pair][:2]
    ok(h, {"do": "remove", "pid": c})
    ok(h, {"do": "bring_back", "pid": c})
    ok(h, {"do": "remove", "pid": e})
    for pid in h.state.waiting():
        ok(h, {"do": "choose", "pid": pid, "choice": "silent"})
    before = months
    months = h.state.months()
    # everyone who played stayed silent against a silent house: a mean of 1
    assert h.state.current.sitting_out_months == 1
    assert months[c] == before[c] + 1 and months[d] == before[d] + 1
    assert months[e] == before[e] and months[f] == before[f] + 1


def test_a_players_view_shows_whom_they_face_and_their_own_rounds() -> None:
    h = tournament(["Ann", "Bob", "Cy"])
    ok(h, {"do": "start_round", "seed": 2})
    (a, b), (c, d) = h.state.current.pairs
    if "~house1" in (a, b):
        (a, b), (c, d) = (c, d), (a, b)
    out = c if d == "~house1" else d
    me = player(h.state, a)["me"]
    assert me["facing"] == h.state.name(b) and me["choice"] is None
    assert player(h.state, out)["me"]["facing_house"]
    ok(h, {"do": "choose", "pid": out, "choice": "silent"})
    ok(h, {"do": "choose", "pid": a, "choice": "betray"})
    assert player(h.state, a)["me"]["choice"] == "betray"
    ok(h, {"do": "choose", "pid": b, "choice": "silent"})
    me = player(h.state, a)["me"]
    assert me["rounds"] == [
        {
            "round": 1,
            "opponent": h.state.name(b),
            "mine": "betray",
            "theirs": "silent",
            "served_as": "betray",
            "theirs_served_as": "silent",
            "months": 0,
            "house": False,
            "strategy": None,
        }
    ]
    assert player(h.state, out)["me"]["rounds"][0]["house"]
    assert player(h.state, "nobody")["me"] is None


def test_undo_takes_back_a_reveal() -> None:
    h = tournament(["Ann", "Bob"])
    ok(h, {"do": "start_round", "seed": 7})
    ok(h, {"do": "choose", "pid": "p0", "choice": "betray"})
    ok(h, {"do": "choose", "pid": "p1", "choice": "silent"})
    h.record_undo()
    assert h.state.phase == "choosing"
    assert h.state.waiting() == ["p1"]
    assert h.state.months() == {"p0": 0, "p1": 0}


def test_scenario_checks_say_what_is_wrong() -> None:
    assert "5 rounds" in check_scenario(scenario(), "dilemma.toml")
    with pytest.raises(ScenarioError, match="no dilemma"):
        bad = scenario(
            sentences={"both_silent": 4, "both_betray": 3, "betrayer": 0, "betrayed": 12}
        )
        check_scenario(bad, "x.toml")
    with pytest.raises(ScenarioError, match="unknown key 'roundz'"):
        check_scenario({**scenario(), "roundz": 3}, "x.toml")
    with pytest.raises(ScenarioError, match="'rounds' to '5'"):
        check_scenario(scenario(rounds="5"), "x.toml")
    with pytest.raises(ScenarioError, match="missing the key 'sentences.betrayed'"):
        check_scenario(
            scenario(sentences={"both_silent": 1, "both_betray": 3, "betrayer": 0}), "x.toml"
        )


def test_the_scenarios_command_validates_the_file() -> None:
    from companion.session.scenario_files import check_scenario_file
    from tests.conftest import ROOT

    assert "two-prisoner dilemma" in check_scenario_file(ROOT / "scenarios" / "dilemma.toml")


def test_the_lecture_hall_scenario_takes_1000_with_a_timer() -> None:
    """The shipped default stops at 300; the hall's scenario is the same game for 1,000, timed."""
    import tomllib

    from companion.rules.dilemma.scenario import DilemmaRules
    from tests.conftest import ROOT

    def load(name: str) -> DilemmaRules:
        with (ROOT / "scenarios" / name).open("rb") as handle:
            return DilemmaRules.model_validate(tomllib.load(handle))

    hall, room = load("dilemma-hall.toml"), load("dilemma.toml")
    assert (hall.max_players, room.max_players) == (1000, 300)
    assert hall.round_seconds == 60
    assert hall.sentences == room.sentences and hall.rounds == room.rounds


def test_explanation_uses_the_numbers() -> None:
    h = tournament(["Ann", "Bob"])
    text = explanation(h.state)
    assert "3 instead of 12" in text


def test_when_the_last_one_waited_for_leaves_the_round_reveals_itself() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee"])
    ok(h, {"do": "start_round", "seed": 7})
    (a, b), (c, d) = h.state.current.pairs
    for pid in (a, b, c):
        ok(h, {"do": "choose", "pid": pid, "choice": "silent"})
    ok(h, {"do": "remove", "pid": d})
    assert h.state.phase == "revealed"  # c's choice stands against the house
    assert h.state.months() == {a: 1, b: 1, c: 1, d: 0, "~house1": 1}
    assert h.state.current.sitting_out == ()
