"""Every rule and ruling (R1-R6) of So Long Sucker, one behaviour per test."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

import pytest

from companion.rules.core.game import History, Refused
from companion.rules.sucker.engine import SO_LONG_SUCKER, SetupError, initial_state
from companion.rules.sucker.state import Awaiting, SuckerState
from companion.rules.sucker.views import script_result, table

FOUR = "Ann:red,Bo:blue,Cat:green,Dan:yellow"


def setup(players: str = FOUR, chips: int = 7, first: str = "Ann") -> dict[str, Any]:
    seats = [dict(zip(("name", "color"), p.split(":"), strict=True)) for p in players.split(",")]
    return {"players": seats, "chips_per_player": chips, "first": first}


def game(players: str = FOUR, chips: int = 7, first: str = "Ann", **changes: Any) -> History:
    """A game, optionally put straight into a position (holdings, piles, awaiting, ...)."""
    state = initial_state(setup(players, chips, first))
    if "holdings" in changes:
        held = changes["holdings"].items()
        changes["holdings"] = MappingProxyType(
            {n: MappingProxyType({c: k for c, k in h.items() if k}) for n, h in held}
        )
    if "piles" in changes:
        changes["piles"] = MappingProxyType({k: tuple(v) for k, v in changes["piles"].items()})
        changes.setdefault("next_pile", max(changes["piles"], default=0) + 1)
    for key in ("dead", "givers"):
        if key in changes:
            changes[key] = MappingProxyType(changes[key])
    return History(SO_LONG_SUCKER, replace(state, **changes))


def ok(h: History, **command: Any) -> None:
    result = h.submit(SO_LONG_SUCKER.parse_command(command))
    assert not isinstance(result, Refused), result.reason


def refused(h: History, **command: Any) -> str:
    before = h.state
    result = h.submit(SO_LONG_SUCKER.parse_command(command))
    assert isinstance(result, Refused), f"{command} was accepted"
    assert h.state == before
    assert result.reason.endswith(".") and "\n" not in result.reason
    return result.reason


def awaiting(h: History) -> tuple[str, str | None]:
    return h.state.awaiting.what, h.state.awaiting.player


def conserved(s: SuckerState) -> bool:
    return s.chips_in_play() + sum(s.dead.values()) == len(s.seats) * s.chips_per_player


# ---- setup ----------------------------------------------------------------------------------


def test_setup_gives_each_player_their_chips_and_the_first_mover_the_move() -> None:
    s = initial_state(setup(chips=5, first="Cat"))
    assert dict(s.holdings["Bo"]) == {"blue": 5}
    assert s.awaiting == Awaiting("play", "Cat")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (setup("Ann:red"), "2 to 6 players"),
        (setup("A:red,B:blue,C:green,D:yellow,E:pink,F:grey,G:white"), "2 to 6 players"),
        (setup("Ann:red,Bo:red"), "color 'red' is used twice"),
        (setup("Ann:red,ann:blue"), "name 'ann' is used twice"),
        (setup(chips=0), "chips_per_player"),
        (setup(first="Zed"), "first mover 'Zed'"),
        ({"players": [{"name": "Ann"}, {"name": "Bo", "color": "b"}], "first": "Ann"}, "exactly"),
    ],
)
def test_a_bad_setup_is_refused_in_one_sentence(data: dict[str, Any], words: str) -> None:
    with pytest.raises(SetupError, match=words) as caught:
        initial_state(data)
    assert str(caught.value).endswith(".")


# ---- a move -----------------------------------------------------------------------------------


def test_piles_are_numbered_in_order_and_a_number_is_never_reused() -> None:
    h = game("Ann:red,Bo:blue", holdings={"Ann": {"red": 7, "blue": 1}, "Bo": {"blue": 6}},
             piles={1: ["blue"]})
    ok(h, do="play", player="Ann", color="blue", pile=1)  # capture: pile 1 goes to Bo
    ok(h, do="kill", player="Bo", color="blue")
    assert 1 not in h.state.piles
    ok(h, do="play", player="Bo", color="blue", pile="new")
    assert list(h.state.piles) == [2]


def test_only_the_player_to_move_plays_and_only_a_chip_they_hold() -> None:
    h = game()
    assert "Ann's move, not Bo's" in refused(h, do="play", player="Bo", color="blue", pile="new")
    assert "holds no blue chip" in refused(h, do="play", player="Ann", color="blue", pile="new")
    assert "no color 'pink'" in refused(h, do="play", player="Ann", color="pink", pile="new")
    assert "no pile 3" in refused(h, do="play", player="Ann", color="red", pile=3)
    assert "no player called 'Zed'" in refused(h, do="play", player="Zed", color="red", pile=3)


def test_the_mover_chooses_among_players_whose_color_is_not_in_the_pile() -> None:
    h = game()
    ok(h, do="play", player="Ann", color="red", pile="new")
    assert awaiting(h) == ("next", "Ann")
    ok(h, do="next", player="Cat")
    assert awaiting(h) == ("play", "Cat")
    ok(h, do="play", player="Cat", color="green", pile=1)
    reason = refused(h, do="next", player="Cat")
    assert "color green is already in pile 1; choose Bo or Dan" in reason
    assert "color red is already in pile 1" in refused(h, do="next", player="Ann")


def test_r2_the_first_mover_cannot_pass_to_themselves() -> None:
    h = game()
    ok(h, do="play", player="Ann", color="red", pile="new")
    assert "already in pile 1" in refused(h, do="next", player="Ann")


def test_r1_when_exactly_one_player_qualifies_the_move_passes_without_a_choice() -> None:
    h = game(piles={1: ["red", "blue"]}, awaiting=Awaiting("play", "Cat"))
    ok(h, do="play", player="Cat", color="green", pile=1)
    assert awaiting(h) == ("play", "Dan")
    assert h.state.givers["Dan"] == "Cat"
    assert "Nobody can name the next player" in refused(h, do="next", player="Dan")


def test_a_prisoner_played_on_a_pile_without_the_movers_color_lets_them_choose_themselves() -> None:
    h = game(holdings={"Ann": {"red": 6, "green": 1}, "Bo": {"blue": 7}, "Cat": {"green": 6},
                       "Dan": {"yellow": 7}}, piles={1: ["yellow"]})
    ok(h, do="play", player="Ann", color="green", pile=1)
    assert awaiting(h) == ("next", "Ann")
    ok(h, do="next", player="Ann")
    assert awaiting(h) == ("play", "Ann")
    assert "Ann" not in h.state.givers  # R6: passing to oneself makes no giver


def test_when_every_color_is_in_the_pile_the_deepest_most_recent_chip_moves_next() -> None:
    h = game(piles={1: ["red", "blue", "green", "yellow"]}, awaiting=Awaiting("play", "Ann"))
    ok(h, do="play", player="Ann", color="red", pile=1)
    assert awaiting(h) == ("play", "Bo")  # red's topmost is now on top; blue lies deepest
    assert h.state.givers["Bo"] == "Ann"


def test_defeated_players_colors_are_ignored_in_the_order_of_play() -> None:
    h = game(piles={1: ["blue", "red", "green"]}, defeated=("Dan",),
             holdings={"Ann": {"red": 6}, "Bo": {"blue": 6}, "Cat": {"green": 6}, "Dan": {}},
             awaiting=Awaiting("play", "Ann"))
    ok(h, do="play", player="Ann", color="red", pile=1)
    assert awaiting(h) == ("play", "Bo")  # all live colors are in: no choice, yellow ignored


# ---- captures ---------------------------------------------------------------------------------


def test_a_capture_goes_to_the_player_of_the_color_not_to_the_one_who_played_it() -> None:
    h = game(holdings={"Ann": {"red": 6, "blue": 1}, "Bo": {"blue": 5}, "Cat": {"green": 6},
                       "Dan": {"yellow": 7}}, piles={1: ["green", "red", "blue"]})
    ok(h, do="play", player="Ann", color="blue", pile=1)
    assert awaiting(h) == ("kill", "Bo")
    assert "captured by Bo, not Ann" in refused(h, do="kill", player="Ann", color="red")
    assert "holds no yellow chip" in refused(h, do="kill", player="Bo", color="yellow")
    assert "Nobody can play a chip" in refused(h, do="play", player="Bo", color="blue", pile="new")
    ok(h, do="kill", player="Bo", color="green")
    s = h.state
    assert dict(s.dead) == {"green": 1}
    assert dict(s.holdings["Bo"]) == {"blue": 7, "red": 1}
    assert s.piles == {} and awaiting(h) == ("play", "Bo")
    assert s.givers["Bo"] == "Ann"
    assert conserved(s)


def test_the_capturer_may_kill_a_chip_of_their_own_color() -> None:
    holdings = {"Ann": {"red": 7}, "Bo": {"blue": 6}, "Cat": {"green": 6}, "Dan": {"yellow": 7}}
    h = game(holdings=holdings, piles={1: ["green", "blue"]}, awaiting=Awaiting("play", "Bo"))
    ok(h, do="play", player="Bo", color="blue", pile=1)
    ok(h, do="kill", player="Bo", color="blue")
    assert dict(h.state.holdings["Bo"]) == {"blue": 6, "green": 1}
    assert dict(h.state.dead) == {"blue": 1}


def test_r4_a_capture_by_a_defeated_color_kills_the_pile_and_the_move_rebounds() -> None:
    h = game(holdings={"Ann": {"red": 7, "yellow": 2}, "Bo": {"blue": 6}, "Cat": {"green": 7},
                       "Dan": {}}, defeated=("Dan",), piles={1: ["blue", "yellow"]},
             givers={"Ann": "Cat"}, dead={"yellow": 4})
    ok(h, do="play", player="Ann", color="yellow", pile=1)
    s = h.state
    assert s.piles == {} and dict(s.dead) == {"blue": 1, "yellow": 6}
    assert awaiting(h) == ("play", "Ann") and s.givers["Ann"] == "Cat"
    assert conserved(s)


def test_r4_an_empty_handed_rebound_is_defeated_and_the_move_goes_to_the_giver_before() -> None:
    h = game(holdings={"Ann": {"yellow": 1}, "Bo": {"blue": 7}, "Cat": {"green": 7}, "Dan": {}},
             defeated=("Dan",), piles={1: ["yellow"]}, givers={"Ann": "Cat"})
    ok(h, do="play", player="Ann", color="yellow", pile=1)
    assert h.state.defeated == ("Dan", "Ann")
    assert awaiting(h) == ("play", "Cat")


# ---- prisoners --------------------------------------------------------------------------------


def test_prisoners_may_be_killed_or_transferred_at_any_moment_but_not_ones_own_color() -> None:
    h = game(holdings={"Ann": {"red": 7, "blue": 2}, "Bo": {"blue": 5}, "Cat": {"green": 7},
                       "Dan": {"yellow": 7}})
    ok(h, do="play", player="Ann", color="red", pile="new")
    assert awaiting(h) == ("next", "Ann")
    ok(h, do="transfer", player="Ann", color="blue", to="Cat")  # while a choice is open
    ok(h, do="kill_prisoner", player="Ann", color="blue")
    assert dict(h.state.holdings["Ann"]) == {"red": 6}
    assert dict(h.state.holdings["Cat"]) == {"green": 7, "blue": 1}
    assert dict(h.state.dead) == {"blue": 1}
    assert "own color" in refused(h, do="transfer", player="Ann", color="red", to="Bo")
    assert "own color" in refused(h, do="kill_prisoner", player="Ann", color="red")
    assert "holds no blue prisoner" in refused(h, do="kill_prisoner", player="Ann", color="blue")
    assert "to themselves" in refused(h, do="transfer", player="Cat", color="blue", to="Cat")
    ok(h, do="transfer", player="Cat", color="blue", to="Bo")  # back to its owner's supply
    assert dict(h.state.holdings["Bo"]) == {"blue": 6}
    assert awaiting(h) == ("next", "Ann") and conserved(h.state)


def test_r5_chips_go_to_live_players_only() -> None:
    h = game(holdings={"Ann": {"red": 5, "blue": 2}, "Bo": {"blue": 5}, "Cat": {"green": 7},
                       "Dan": {}}, defeated=("Dan",))
    assert "chips go to live players only" in refused(
        h, do="transfer", player="Ann", color="blue", to="Dan"
    )


def test_a_mover_who_gives_away_their_last_chip_is_in_need_of_rescue() -> None:
    h = game(holdings={"Ann": {"blue": 1}, "Bo": {"blue": 4, "red": 2}, "Cat": {"green": 7},
                     "Dan": {"yellow": 7}})
    ok(h, do="transfer", player="Ann", color="blue", to="Bo")
    assert awaiting(h) == ("rescue", "Ann")


# ---- defeat and rescue ------------------------------------------------------------------------


def in_need(**changes: Any) -> History:
    """Ann gives the move to Cat, who holds nothing; Ann and Bo hold prisoners."""
    holdings = {"Ann": {"red": 4, "green": 2}, "Bo": {"blue": 5, "green": 3},
                "Cat": {}, "Dan": {"yellow": 7}}
    h = game(holdings=changes.pop("holdings", holdings), **changes)
    ok(h, do="play", player="Ann", color="red", pile="new")
    ok(h, do="next", player="Cat")
    return h


def test_a_player_given_the_move_without_chips_awaits_rescue_from_holders_of_prisoners() -> None:
    h = in_need()
    assert awaiting(h) == ("rescue", "Cat")
    assert table(h.state)["awaiting"]["pending"] == ["Ann", "Bo"]
    assert "Nobody can play a chip" in refused(h, do="play", player="Cat", color="green", pile=1)


def test_r3_any_transfer_to_the_player_in_need_is_a_rescue_and_they_must_move() -> None:
    h = in_need()
    ok(h, do="refuse", player="Bo")
    ok(h, do="transfer", player="Bo", color="green", to="Cat")  # even after refusing
    assert awaiting(h) == ("play", "Cat")
    ok(h, do="play", player="Cat", color="green", pile="new")
    assert awaiting(h) == ("next", "Cat")


def test_defeat_is_final_once_every_holder_of_prisoners_has_refused() -> None:
    h = in_need()
    ok(h, do="refuse", player="Ann")
    assert "already refused" in refused(h, do="refuse", player="Ann")
    assert "holds no prisoners" in refused(h, do="refuse", player="Dan")
    assert "awaiting rescue" in refused(h, do="refuse", player="Cat")
    assert awaiting(h) == ("rescue", "Cat")
    ok(h, do="refuse", player="Bo")
    assert h.state.defeated == ("Cat",)
    assert awaiting(h) == ("play", "Ann")  # the move returns to who gave it
    ok(h, do="play", player="Ann", color="red", pile="new")
    assert "Cat is defeated" in refused(h, do="next", player="Cat")
    assert "chips go to live players only" in refused(
        h, do="transfer", player="Bo", color="green", to="Cat"
    )


def test_r5_a_holder_who_kills_or_gives_away_all_prisoners_no_longer_counts() -> None:
    h = in_need()
    ok(h, do="refuse", player="Ann")
    ok(h, do="kill_prisoner", player="Bo", color="green")
    ok(h, do="kill_prisoner", player="Bo", color="green")
    assert awaiting(h) == ("rescue", "Cat")
    ok(h, do="transfer", player="Bo", color="green", to="Dan")  # Dan now holds a prisoner
    assert awaiting(h) == ("rescue", "Cat")
    assert h.state.rescuers_pending() == ["Dan"]
    ok(h, do="kill_prisoner", player="Dan", color="green")
    assert h.state.defeated == ("Cat",)


def test_r5_with_nobody_holding_prisoners_defeat_is_immediate() -> None:
    holdings = {"Ann": {"red": 7}, "Bo": {"blue": 7}, "Cat": {}, "Dan": {"yellow": 7}}
    h = in_need(holdings=holdings)
    assert h.state.defeated == ("Cat",)
    assert awaiting(h) == ("play", "Ann")


def test_cascading_defeat_goes_back_along_the_givers() -> None:
    # Bo gave Ann the move; Ann gives it to Cat with her last chip; nobody holds prisoners.
    holdings = {"Ann": {"red": 1}, "Bo": {"blue": 7}, "Cat": {}, "Dan": {"yellow": 7}}
    h = game(holdings=holdings, givers={"Ann": "Bo"})
    ok(h, do="play", player="Ann", color="red", pile="new")
    ok(h, do="next", player="Cat")
    assert h.state.defeated == ("Cat", "Ann")
    assert awaiting(h) == ("play", "Bo")


def test_the_spec_cascade_ends_the_game_with_the_last_live_player() -> None:
    h = game("Ann:red,Bo:blue,Cat:green", chips=1)
    ok(h, do="play", player="Ann", color="red", pile="new")
    ok(h, do="next", player="Bo")
    ok(h, do="play", player="Bo", color="blue", pile="new")
    ok(h, do="next", player="Ann")
    assert h.state.defeated == ("Ann", "Bo") and h.state.winner == "Cat"
    assert awaiting(h) == ("over", None)
    assert "game is over" in refused(h, do="play", player="Cat", color="green", pile="new")
    h.record_undo()
    assert h.state.winner is None and awaiting(h) == ("next", "Bo")


def test_r6_the_giver_is_the_last_other_player_who_gave_the_move() -> None:
    holdings = {"Ann": {"red": 6}, "Bo": {"blue": 1, "red": 1}, "Cat": {}, "Dan": {"yellow": 7}}
    h = game(holdings=holdings, givers={"Bo": "Ann"}, awaiting=Awaiting("play", "Bo"))
    ok(h, do="play", player="Bo", color="red", pile="new")
    ok(h, do="next", player="Bo")  # to himself: Ann stays his giver
    assert h.state.givers["Bo"] == "Ann"
    ok(h, do="play", player="Bo", color="blue", pile="new")
    ok(h, do="next", player="Cat")  # Cat holds nothing and nobody holds prisoners
    assert h.state.defeated == ("Cat", "Bo")
    assert awaiting(h) == ("play", "Ann")


def rebound_into_defeat(givers: dict[str, str]) -> History:
    """Cat plays her last chip, a blue, on blue: defeated Bo's color kills the pile (R4)."""
    holdings = {"Ann": {"red": 7}, "Bo": {}, "Cat": {"blue": 1}, "Dan": {"yellow": 7}}
    h = game(holdings=holdings, defeated=("Bo",), givers=givers, piles={1: ["blue"]},
             awaiting=Awaiting("play", "Cat"))
    ok(h, do="play", player="Cat", color="blue", pile=1)
    assert h.state.defeated == ("Bo", "Cat")
    return h


def test_r6_a_defeated_giver_is_skipped_back_to_the_nearest_live_one() -> None:
    h = rebound_into_defeat({"Cat": "Bo", "Bo": "Ann"})
    assert awaiting(h) == ("play", "Ann")


def test_r6_with_no_live_giver_the_move_goes_to_the_next_live_player_in_seating() -> None:
    h = rebound_into_defeat({"Cat": "Bo", "Bo": "Cat"})
    assert awaiting(h) == ("play", "Dan")
    h = rebound_into_defeat({})
    assert awaiting(h) == ("play", "Dan")


def test_the_winner_may_hold_no_chips() -> None:
    h = game("Ann:red,Bo:blue", chips=1)
    ok(h, do="play", player="Ann", color="red", pile="new")
    assert awaiting(h) == ("play", "Bo")  # R1
    ok(h, do="play", player="Bo", color="blue", pile="new")
    assert h.state.winner == "Bo" and h.state.chips_held("Bo") == 0
    assert script_result(h.state)["awaiting"] == {"what": "over", "player": None}
