"""The tournament's finale: its steps (the podium, the house player under each strategy it
played, the famous strategies, everyone's place, the results as a whole), stepped through by
``finale`` notes the room folds, and shown none of again once an undo brings the tournament
back to life."""

from __future__ import annotations

from pathlib import Path

from companion.rules.dilemma.finale import finale_view, houses, next_step, steps
from companion.rules.dilemma.leaderboard import house
from companion.session.session import Session
from tests.dilemma_helpers import ok, scenario, tournament


def played(h, rounds: int) -> None:  # type: ignore[no-untyped-def]
    for n, strategy in zip(range(rounds), ["tit_for_tat", "always_betray", "tit_for_tat"],
                           strict=False):
        ok(h, {"do": "set_house", "strategy": strategy})
        ok(h, {"do": "start_round", "seed": n})
        for k, pid in enumerate(h.state.waiting()):
            ok(h, {"do": "choose", "pid": pid, "choice": "betray" if k % 2 else "silent"})


def test_the_finale_has_its_steps_once_the_tournament_is_over() -> None:
    h = tournament(["Ann", "Bob", "Cy"], rounds=3)
    assert steps(h.state) == [] and finale_view(h.state, 0) is None
    played(h, 3)
    assert h.state.phase == "over"
    assert steps(h.state) == ["podium", "house", "strategies", "leaderboard", "end"]
    view = finale_view(h.state, 0)
    assert view is not None and view["step"] is None  # the results as a whole, as always
    assert [finale_view(h.state, n)["step"] for n in range(1, 6)] == [  # type: ignore[index]
        "podium", "house", "strategies", "leaderboard", None]
    podium = view["podium"]
    assert podium and all(row["rank"] <= 3 for row in podium)
    # the house under each strategy it played, its rounds and months adding up to its record
    rows = houses(h.state)
    assert [r["strategy"] for r in rows] == ["tit_for_tat", "always_betray"]
    record = house(h.state)
    assert sum(r["rounds"] for r in rows) == record["rounds"] == 3
    assert sum(r["months"] for r in rows) == record["months"]
    assert next_step(h.state, 0).shown == 1  # type: ignore[union-attr]
    assert next_step(h.state, 2, to_end=True).shown == 5  # type: ignore[union-attr]
    assert next_step(h.state, 5) is None


def test_an_even_room_has_no_house_step() -> None:
    h = tournament(["Ann", "Bob"], rounds=1)
    played(h, 1)
    assert steps(h.state) == ["podium", "strategies", "leaderboard", "end"]


def test_the_room_folds_the_finale_and_an_undo_to_life_starts_it_again(tmp_path: Path) -> None:
    s = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=1)})
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    s.submit({"do": "start_round", "seed": 1})
    for pid in s.state.waiting():
        s.submit({"do": "choose", "pid": pid, "choice": "silent"})
    assert s.state.phase == "over" and s.room.finale == 0
    for _ in range(2):
        act = next_step(s.state, s.room.finale)
        assert act is not None
        s.stage(act)
    assert s.room.finale == 2
    s.close()
    again = Session.open(tmp_path / "w.sqlite")  # read back from the log
    assert again.room.finale == 2
    again.undo(by="gm")  # the last choice and the end taken back
    assert again.state.phase == "choosing" and again.room.finale == 0
    again.close()
