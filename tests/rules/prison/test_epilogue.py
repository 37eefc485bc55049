"""The epilogue (rules/prison/epilogue.py): what really happened, night by night, only once the
game is over; the same story as `companion replay`'s final state for the spec's examples."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.rules.core.game import History
from companion.rules.core.scripts import parse_commands, play_commands
from companion.rules.prison import GAME
from companion.rules.prison.engine import PRISON_BREAK, new_game
from companion.rules.prison.epilogue import (
    epilogue_view,
    nights,
    own_part,
    steps,
    warden_part,
)
from companion.rules.prison.epilogue_phrases import own_phrases, step_phrases, warden_phrases
from companion.rules.prison.scenario import with_overrides
from companion.session.prison.scenarios import load_scenario
from tests.conftest import EXAMPLES
from tests.prison_helpers import game, ok

SCRIPTS = sorted(
    p for p in EXAMPLES.glob("pb-*.json") if not p.name.endswith(".expected.json")
)


def played(path: Path) -> Any:
    data = json.loads(path.read_text())
    rules = load_scenario(data["scenario"])
    if data.get("rules"):
        rules = with_overrides(rules, data["rules"], "the script's rules")
    history = History(PRISON_BREAK, new_game(rules, data["warden"], data["prisoners"]))
    play_commands(history, parse_commands(PRISON_BREAK, data["commands"]))
    return history.state


def commands_by_day(path: Path, rejected: set[int]) -> list[list[dict[str, Any]]]:
    """The script's accepted moves, day by day, read from the script itself (no undo in it)."""
    data = json.loads(path.read_text())
    assert all(command["do"] != "undo" for command in data["commands"])
    days: list[list[dict[str, Any]]] = [[]]
    for index, command in enumerate(data["commands"]):
        if index in rejected:
            continue
        days[-1].append(command)
        if command["do"] == "end_day":
            days.append([])
    return days


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_the_epilogue_tells_the_final_state_replay_prints(path: Path) -> None:
    state = played(path)
    replayed = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    result = GAME.play_script(json.loads(path.read_text()), load_scenario)
    result["rejected"] = [{"index": r["index"]} for r in result["rejected"]]
    assert result == replayed  # the state played here is the one `companion replay` prints
    if replayed["phase"] != "over":
        assert (steps(state), epilogue_view(state, 99), warden_part(state)) == (0, None, None)
        assert all(own_part(state, n) is None for n in state.roster)
        return
    told = nights(state)
    view = epilogue_view(state, 99)
    assert view is not None and view["steps"] == len(told) + 1 and not view["held"]
    end = view["end"]
    assert end is not None
    assert (end["outcome"], end["winners"]) == (replayed["outcome"], replayed["winners"])
    assert told[-1]["nights_done"] == end["nights_done"] == replayed["nights_done"]
    tokens = Counter(d["prisoner"] for night in told for d in night["deals"])
    for name, final in replayed["prisoners"].items():
        assert tokens[name] == final["parole_tokens"]
        assert ({"prisoner": name, "tokens": tokens[name]} in end["tokens"]) == bool(tokens[name])
        caught = [s for night in told for s in night["searches"] if s["prisoner"] == name]
        assert any(s["caught"] for s in caught) == (final["status"] == "caught")
        shived = [a for night in told for a in night["accusations"] if a["accused"] == name]
        assert any(a["result"] == "shived" for a in shived) == (final["status"] == "shived")
    # Who worked which night, the deals and the searches, as the script itself made them.
    script_days = commands_by_day(path, {r["index"] for r in replayed["rejected"]})
    assert len(told) == len([d for d in script_days if d])
    for night, moves in zip(told, script_days, strict=False):
        chose: dict[str, str] = {}
        for m in moves:
            if m["do"] == "choose":
                chose[m["prisoner"]] = m["choice"]
        assert night["worked"] == [n for n in state.roster if chose.get(n) == "work"]
        in_game = night["worked"] + night["rested"]
        assert set(night["rested"]) == {n for n in in_game if chose.get(n, "rest") == "rest"}
        deals = [m["prisoner"] for m in moves if m["do"] == "interview" and m["deal"]]
        assert [d["prisoner"] for d in night["deals"]] == deals
        searched = [m["prisoner"] for m in moves if m["do"] == "search"]
        assert [s["prisoner"] for s in night["searches"]] == searched
        for s in night["searches"]:  # a search catches exactly those who chose to work
            assert s["caught"] == (chose.get(s["prisoner"]) == "work")
        accused = [(m["accuser"], m["accused"]) for m in moves if m["do"] == "accuse"]
        assert [(a["accuser"], a["accused"]) for a in night["accusations"]] == accused
    lines = [str(line) for _, said in step_phrases(view) for line in said]
    assert any("worked" in line or "chose to" in line for line in lines)


def test_nothing_of_it_before_the_end_and_nothing_after_an_undo_back_to_life() -> None:
    h = game(nights_to_escape=2)
    for name, choice in [("Ada", "work"), ("Ben", "work"), ("Cy", "rest"), ("Dee", "rest")]:
        ok(h, do="choose", prisoner=name, choice=choice)
        assert steps(h.state) == 0
    ok(h, do="close_planning")
    ok(h, do="interview", prisoner="Dee", deal=True)
    assert (epilogue_view(h.state, 5), own_part(h.state, "Dee"), warden_part(h.state)) == (
        None,
        None,
        None,
    )
    ok(h, do="search", prisoner="Cy")
    assert h.state.over and h.state.outcome == "escape"
    assert steps(h.state) == 2
    view = epilogue_view(h.state, 1)
    assert view is not None and view["held"] and view["end"] is None
    [(head, said)] = step_phrases(view)
    assert str(head) == "Night 1"
    assert [str(s) for s in said] == [
        "Ada and Ben worked.",
        "Cy and Dee rested.",
        "Dee took the warden's deal: their first parole token.",
        "The warden searched Cy's cell, but Cy had chosen to rest: safe.",
        "2 nights of work: 2 of 2.",
    ]
    assert [str(s) for s in own_phrases(own_part(h.state, "Dee") or [])] == [
        "Night 1: you rested and you took a deal."
    ]
    assert [str(s) for s in warden_phrases(warden_part(h.state) or [])] == [
        "Night 1: you made a deal with Dee and you searched Cy's cell and found nothing."
    ]
    ok(h, do="undo")
    assert not h.state.over
    assert (steps(h.state), epilogue_view(h.state, 9), own_part(h.state, "Ada")) == (0, None, None)


def test_a_catch_an_informant_shived_and_a_passed_shiv_are_told_with_their_reason() -> None:
    h = game(nights_to_escape=9, max_days=2)
    for name in h.state.active():
        ok(h, do="choose", prisoner=name, choice="work" if name == "Ada" else "rest")
    ok(h, do="close_planning")
    ok(h, do="interview", prisoner="Ben", deal=True)
    ok(h, do="interview", prisoner="Cy", deal=False)
    ok(h, do="search", prisoner="Ada")
    ok(h, do="accuse", accuser="Dee", accused="Cy")  # no tokens: Dee's shiv passes to Cy
    ok(h, do="end_day")
    for name in h.state.active():
        ok(h, do="choose", prisoner=name, choice="rest")
    ok(h, do="close_planning")
    ok(h, do="search", prisoner="Ben")
    ok(h, do="accuse", accuser="Cy", accused="Ben")  # Ben took a deal: shived
    ok(h, do="end_day")
    assert h.state.over and h.state.outcome == "time_up"
    view = epilogue_view(h.state, 3)
    assert view is not None
    told = [[str(s) for s in said] for _, said in step_phrases(view)]
    assert "The warden searched Ada's cell and caught Ada working." in told[0]
    # Ben took the day's one deal first: none could be offered to Cy, who turned nobody down
    assert "Cy could get no deal: the warden had made the day's deals already." in told[0]
    assert not any("turned" in line for step in told for line in step)
    assert (
        "Dee accused Cy, who had never taken a deal: the shiv passed to Cy." in told[0]
    )
    assert "Nobody took a deal." in told[1]
    assert "Cy accused Ben, who had taken 1 parole token: shived." in told[1]
    assert told[2] == [
        "Winners: Wendy.",
        "Nights of work: 0 of 9.",
        "Parole tokens at the end: Ben 1.",
    ]
    assert [str(s) for s in own_phrases(own_part(h.state, "Cy") or [])] == [
        # not "no deal was left": that would tell Cy of Ben's deal before the board does
        "Night 1: you rested, you made no deal and Dee accused you and their shiv "
        "passed to you.",
        "Night 2: you rested and you accused Ben, who was shived.",
    ]
    assert [str(s) for s in own_phrases(own_part(h.state, "Ada") or [])] == [
        "Night 1: you worked and the warden caught you working."
    ]  # out of the game after night 1: no night 2 of their own


def test_an_interview_without_a_deal_says_only_what_the_log_knows_and_tokens_add_up() -> None:
    """The log knows that no deal was made (not who refused), and whether one was still left
    that day; a deal's tokens are the total its taker then held."""
    h = game(nights_to_escape=9, max_days=2, parole_tokens_to_win=5)
    for _day in (1, 2):
        for name in h.state.active():
            ok(h, do="choose", prisoner=name, choice="rest")
        ok(h, do="close_planning")
        ok(h, do="interview", prisoner="Ada", deal=False)  # a deal was still left
        ok(h, do="interview", prisoner="Ben", deal=True)
        ok(h, do="interview", prisoner="Cy", deal=False)  # none was left
        ok(h, do="search", prisoner="Dee")
        ok(h, do="end_day")
    view = epilogue_view(h.state, 9)
    assert view is not None
    told = [[str(s) for s in said] for _, said in step_phrases(view)]
    assert told[0][2:5] == [
        "Ben took the warden's deal: their first parole token.",
        "Ada made no deal with the warden.",
        "Cy could get no deal: the warden had made the day's deals already.",
    ]
    assert "Ben took the warden's deal: 2 parole tokens in all." in told[1]
    assert [str(s) for s in own_phrases(own_part(h.state, "Ada") or [])][0] == (
        "Night 1: you rested and you made no deal."
    )
    assert [str(s) for s in warden_phrases(warden_part(h.state) or [])][0] == (
        "Night 1: you made a deal with Ben, no deal with Ada, no deal was left for Cy and "
        "you searched Dee's cell and found nothing."
    )
