"""Against a flood of joins: the doors close and open, and several players leave in one step
(one command in the log, so one undo brings them all back); a resumed session folds the same."""

from __future__ import annotations

from pathlib import Path

from companion.rules.core.game import Refused
from companion.rules.dilemma.commands import COMMAND_NAMES
from companion.rules.dilemma.engine import DILEMMA
from companion.rules.dilemma.events import Left
from companion.rules.dilemma.views import board, player
from companion.session.session import Session
from tests.dilemma_helpers import ok, refused, scenario, tournament


def test_the_new_commands_are_named_and_read_back_from_their_json() -> None:
    assert {"remove_many", "close_doors", "open_doors"} <= set(COMMAND_NAMES)
    for data in (
        {"do": "remove_many", "pids": ["p0", "p1"]},
        {"do": "close_doors"},
        {"do": "open_doors"},
    ):
        assert DILEMMA.command_to_dict(DILEMMA.parse_command(data)) == data


def test_closed_doors_refuse_joins_and_show_on_every_view() -> None:
    h = tournament(["Ann", "Bob"])
    assert board(h.state)["doors_closed"] is False
    ok(h, {"do": "close_doors"})
    said = refused(h, {"do": "join", "pid": "p9", "name": "Zed"})
    assert said == "The game master has closed the doors; nobody can join now."
    assert board(h.state)["doors_closed"] is True
    assert player(h.state, "p0")["doors_closed"] is True
    assert refused(h, {"do": "close_doors"}) == "The doors are already closed."
    ok(h, {"do": "remove", "pid": "p1"})  # the game master still acts on who is in
    ok(h, {"do": "bring_back", "pid": "p1"})
    ok(h, {"do": "open_doors"})
    assert refused(h, {"do": "open_doors"}) == "The doors are already open."
    ok(h, {"do": "join", "pid": "p9", "name": "Zed"})
    assert board(h.state)["players"] == ["Ann", "Bob", "Zed"]


def test_undoing_the_closing_opens_the_doors_again() -> None:
    h = tournament(["Ann"])
    ok(h, {"do": "close_doors"})
    h.record_undo()
    assert h.state.doors_closed is False
    ok(h, {"do": "join", "pid": "p9", "name": "Zed"})


def test_remove_many_is_one_command_that_one_undo_takes_back() -> None:
    names = ["Ann", "Bob", *(f"Flood {i}" for i in range(30))]
    h = tournament(names)
    flood = [f"p{i}" for i in range(2, 32)]
    entry = ok(h, {"do": "remove_many", "pids": flood})
    assert [e.pid for e in entry.events] == flood and all(isinstance(e, Left) for e in entry.events)
    assert board(h.state)["players"] == ["Ann", "Bob"]
    assert len(board(h.state)["left"]) == 30
    h.record_undo()
    assert board(h.state)["players"] == names and board(h.state)["left"] == []


def test_remove_many_refuses_all_when_one_is_unknown_or_gone() -> None:
    h = tournament(["Ann", "Bob", "Cy"])
    before = h.state
    assert "not in the tournament" in refused(h, {"do": "remove_many", "pids": ["p0", "zz"]})
    assert h.state is before
    ok(h, {"do": "remove", "pid": "p2"})
    before = h.state
    said = refused(h, {"do": "remove_many", "pids": ["p0", "p2"]})
    assert said == "Cy has left the tournament; the game master can bring them back."
    assert h.state is before
    said = refused(h, {"do": "remove_many", "pids": ["p0", "p0"]})  # listed twice
    assert "Ann has left" in said and h.state is before
    assert refused(h, {"do": "remove_many", "pids": []}) == "Pick at least one player to remove."


def test_remove_many_mid_round_hands_partners_to_the_house_like_single_removes() -> None:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    one, many = tournament(names), tournament(names)
    for h in (one, many):
        ok(h, {"do": "start_round", "seed": 3})
    (a, b), (c, d), (e, f) = one.state.current.pairs
    for pid in (a, c):
        ok(one, {"do": "remove", "pid": pid})
    ok(many, {"do": "remove_many", "pids": [a, c]})
    assert many.state == one.state
    assert many.state.current.partner(b) == "~house1" and many.state.current.partner(d) == "~house2"


def test_remove_many_reveals_once_when_the_last_choosers_leave() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee"])
    ok(h, {"do": "start_round", "seed": 7})
    (a, b), (c, d) = h.state.current.pairs
    ok(h, {"do": "choose", "pid": a, "choice": "silent"})
    ok(h, {"do": "choose", "pid": c, "choice": "betray"})
    entry = ok(h, {"do": "remove_many", "pids": [b, d]})
    kinds = [e.kind for e in entry.events]
    assert kinds[:2] == ["left", "left"] and kinds.count("round_revealed") == 1
    assert h.state.phase == "revealed"
    outcomes = {(o.a, o.b) for o in h.state.current.outcomes}
    assert outcomes == {(a, "~house1"), (c, "~house2")}


def test_remove_many_in_the_last_round_removes_all_before_the_end() -> None:
    h = tournament(["Ann", "Bob", "Cy", "Dee"], rounds=1)
    ok(h, {"do": "start_round", "seed": 7})
    (a, b), (c, d) = h.state.current.pairs
    ok(h, {"do": "choose", "pid": a, "choice": "silent"})
    ok(h, {"do": "choose", "pid": c, "choice": "silent"})
    ok(h, {"do": "remove_many", "pids": [b, d]})
    assert h.state.phase == "over" and sorted(board(h.state)["left"]) == sorted(
        [h.state.name(b), h.state.name(d)]
    )


def test_a_resumed_session_folds_the_same_doors_and_removals(tmp_path: Path) -> None:
    path = tmp_path / "flood.sqlite"
    s = Session.create(path, "dilemma", {"rules": scenario()})
    for i, name in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    s.submit({"do": "start_round", "seed": 11})
    for command in (
        {"do": "remove_many", "pids": ["p1", "p3", "p4"]},
        {"do": "close_doors"},
        {"do": "remove_many", "pids": ["p0"]},
    ):
        assert not isinstance(s.submit(command), Refused), command
    assert not isinstance(s.undo(), Refused)
    state = s.state
    s.close()
    again = Session.open(path)
    try:
        assert again.state == state
        assert again.state.doors_closed is True
        assert [p.present for p in again.state.players] == [True, False, True, False, False]
        assert "closed the doors" in refused(
            again.history, {"do": "join", "pid": "p9", "name": "Zed"}
        )
    finally:
        again.close()
