"""The referee's short move entry (pure) and the ``companion sucker`` command's set-up."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.cli.sucker import make_setup, open_or_create, parse_players
from companion.errors import UserError
from companion.language import language
from companion.rules.core.game import History
from companion.rules.sucker.engine import SO_LONG_SUCKER, initial_state
from companion.rules.sucker.views import color_keys, table
from companion.tui.sucker.entry import EntryError, hint, moves, parse_entry
from companion.tui.sucker.piles import no_piles

SETUP = {
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"},
                {"name": "Cat", "color": "green"}, {"name": "Dan", "color": "white"}],
    "chips_per_player": 3,
    "first": "Ann",
}


def history(*commands: dict[str, Any]) -> History:
    h = History(SO_LONG_SUCKER, initial_state(SETUP))
    for command in commands:
        h.submit(SO_LONG_SUCKER.parse_command(command))
    return h


def parsed(view: Any, text: str) -> Any:
    """What the entry made of ``text``, as a script would state it (or ``"undo"``)."""
    command = parse_entry(language(), view, text)
    return command if command == "undo" else SO_LONG_SUCKER.command_to_dict(command)


def entry(h: History, text: str) -> Any:
    return parsed(table(h.state), text)


def test_every_color_is_typed_and_shown_by_its_first_letter() -> None:
    assert table(history().state)["keys"] == {"red": "R", "blue": "B", "green": "G", "white": "W"}
    assert color_keys(["Gold", "navy"]) == {"Gold": "G", "navy": "N"}


def test_playing_a_chip() -> None:
    h = history()
    assert entry(h, "r n") == {"do": "play", "player": "Ann", "color": "red", "pile": "new"}
    assert entry(h, "RED 3")["pile"] == 3
    assert entry(h, "w new")["color"] == "white"
    with pytest.raises(EntryError, match="'x' is not a color here"):
        entry(h, "x 1")
    with pytest.raises(EntryError, match="Say where"):
        entry(h, "r")
    with pytest.raises(EntryError, match="not a pile"):
        entry(h, "r top")


def test_naming_the_next_player_with_or_without_the_word_next() -> None:
    h = history({"do": "play", "player": "Ann", "color": "red", "pile": "new"})
    assert entry(h, "next bo") == {"do": "next", "player": "Bo"}
    assert entry(h, "ca") == {"do": "next", "player": "Cat"}
    assert "names the next player: bo, cat, dan" in hint(language(), table(h.state))
    with pytest.raises(EntryError, match="Nobody is to play a chip now"):
        entry(h, "r 1")
    with pytest.raises(EntryError, match="no player 'zed'"):
        entry(h, "next zed")


def captured() -> History:
    return history(
        {"do": "play", "player": "Ann", "color": "red", "pile": "new"},
        {"do": "next", "player": "Bo"},
        {"do": "play", "player": "Bo", "color": "blue", "pile": 1},
        {"do": "next", "player": "Cat"},
        {"do": "play", "player": "Cat", "color": "green", "pile": "new"},
        {"do": "next", "player": "Bo"},
        {"do": "play", "player": "Bo", "color": "blue", "pile": 1},
    )


def test_killing_from_a_captured_pile_and_prisoners() -> None:
    h = captured()
    assert entry(h, "kill r") == {"do": "kill", "player": "Bo", "color": "red"}
    assert entry(h, "b") == {"do": "kill", "player": "Bo", "color": "blue"}
    h.submit(SO_LONG_SUCKER.parse_command({"do": "kill", "player": "Bo", "color": "blue"}))
    with pytest.raises(EntryError, match="killp"):
        entry(h, "kill r")
    assert entry(h, "killp r") == {"do": "kill_prisoner", "player": "Bo", "color": "red"}
    assert entry(h, "give r dan") == {"do": "transfer", "player": "Bo", "color": "red",
                                      "to": "Dan"}
    assert entry(h, "bo give r dan")["player"] == "Bo"
    with pytest.raises(EntryError, match="Nobody holds a green prisoner"):
        entry(h, "give g dan")
    with pytest.raises(EntryError, match="Say to whom"):
        entry(h, "give r")


def test_rescue_entries_default_to_the_player_in_need_and_the_only_holder() -> None:
    h = captured()
    for command in (
        {"do": "kill", "player": "Bo", "color": "blue"},
        {"do": "transfer", "player": "Bo", "color": "red", "to": "Cat"},
    ):
        h.submit(SO_LONG_SUCKER.parse_command(command))
    state = h.state
    assert state.awaiting.what == "play"
    view = table(state)
    view["awaiting"] = {"what": "rescue", "player": "Dan", "pending": ["Cat"], "refused": []}
    assert parsed(view, "give r") == {
        "do": "transfer", "player": "Cat", "color": "red", "to": "Dan"
    }
    assert parsed(view, "refuse") == {"do": "refuse", "player": "Cat"}
    assert parsed(view, "cat refuse") == {"do": "refuse", "player": "Cat"}
    view["awaiting"]["pending"] = ["Cat", "Bo"]
    with pytest.raises(EntryError, match="Say who refuses"):
        parse_entry(language(), view, "refuse")


def test_undo_and_nonsense() -> None:
    h = history()
    assert entry(h, "undo") == "undo"
    with pytest.raises(EntryError, match="Type a move"):
        entry(h, "   ")
    with pytest.raises(EntryError, match="not a move I know"):
        entry(h, "please do something")


# ---- the command's set-up ---------------------------------------------------------------------


def test_players_are_read_as_name_colon_color() -> None:
    assert parse_players("Ann:red, Bo:blue") == [
        {"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}
    ]
    with pytest.raises(UserError, match="is not NAME:COLOR"):
        parse_players("Ann,Bo:blue")
    with pytest.raises(UserError, match=r"^'Ann:red:x' in --players is not NAME:COLOR; "):
        parse_players("Ann:red:x,Bo:blue")


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ("Ann:xyz,Bo:blue", "Player #1 (Ann) has 'xyz', which is not a chip color; use one of"),
        ("Ann:red,Bo:blue,Cat:green,Dan:purpel", "Player #4 (Dan) has 'purpel', which is not"),
    ],
)
def test_what_is_not_a_color_is_refused_in_one_sentence(players: str, words: str) -> None:
    with pytest.raises(UserError) as error:
        make_setup(players, 4, None)
    text = str(error.value)
    assert text.startswith(words) and text.count(".") == 1 and text.endswith("."), text


def test_colors_that_start_alike_are_set_up_with_letters_of_their_own() -> None:
    setup = make_setup("Ann:gold,Bo:green,Cat:grey", 4, "Ann")
    assert table(initial_state(setup))["keys"] == {
        "gold": "O", "green": "R", "grey": "E"
    }


def test_a_colors_own_initial_never_types_another_color() -> None:
    """Gold, green, red and grey: r is red, never green; g names none of the three G colors
    and says which letter each has; the hint and the move line's examples use those letters."""
    setup = make_setup("Ann:gold,Bo:green,Cat:red,Dan:grey", 4, "Cat")
    view = table(initial_state(setup))
    assert view["keys"] == {"gold": "O", "green": "E", "red": "R", "grey": "Y"}
    assert parsed(view, "r n")["color"] == "red"
    with pytest.raises(EntryError) as refused:
        parsed(view, "g n")
    assert str(refused.value) == (
        "'g' could be gold, green or grey; type its letter: o (gold), e (green) or y (grey)."
    )
    assert "color: r   on: n (new pile)   e.g. 'r n'" in hint(language(), view)
    shown = moves(view)
    # no pile yet: none named; the chip shown is one Cat may play (her red, not Ann's gold)
    assert shown.startswith("r n · next ann · kill y · give y ann")
    start = no_piles(language(), view).plain  # the empty table's start hint
    assert start == "No piles yet: the first chip starts pile 1 (type e.g. 'r n')."
    other = table(initial_state(make_setup("Ann:gold,Bo:green,Cat:red,Dan:grey", 4, "Bo")))
    assert "(type e.g. 'e n')" in no_piles(language(), other).plain  # green is E here
    assert "bo" not in shown.split() and " g " not in f" {shown} "


def test_hints_name_only_piles_and_players_there_are() -> None:
    setup = make_setup("Ann:black,Cy:white,Eve:blue", 3, "Ann")
    h = History(SO_LONG_SUCKER, initial_state(setup))
    view = table(h.state)
    with pytest.raises(EntryError) as refused:
        parsed(view, "black")
    assert str(refused.value) == "Say where: 'black n' on a new pile (there is no pile yet)."
    with pytest.raises(EntryError) as refused:
        parsed(view, "give")
    assert str(refused.value) == "Type 'give COLOR NAME', as in 'give k cy'."
    with pytest.raises(EntryError) as refused:
        parsed(view, "")
    assert str(refused.value) == "Type a move, such as 'k n'; press F1 for the list."
    h.submit(SO_LONG_SUCKER.parse_command({"do": "play", "player": "Ann", "color": "black",
                                           "pile": "new"}))
    h.submit(SO_LONG_SUCKER.parse_command({"do": "next", "player": "Cy"}))
    view = table(h.state)
    with pytest.raises(EntryError) as refused:
        parsed(view, "w")
    assert str(refused.value) == "Say where: 'w 1' on pile 1 or 'w n' on a new pile."
    assert moves(view).startswith("w 1 · w n · next ann · ")  # Cy holds white alone
    for text in (moves(view), hint(language(), view)):
        assert "bo" not in text.split() and "2" not in text


def test_a_name_typed_for_a_color_says_a_color_was_wanted() -> None:
    setup = make_setup("Ann:red,Bo:blue,Cat:green", 4, "Ann")
    view = table(initial_state(setup))
    with pytest.raises(EntryError) as refused:
        parsed(view, "ann 1")
    assert str(refused.value) == (
        "'ann' is a player; a chip's color is wanted there: type one of r (red), b (blue), "
        "g (green)."
    )


def test_a_poker_set_is_typed_by_its_letters_black_as_k() -> None:
    setup = make_setup("Ann:white,Bo:red,Cat:blue,Dan:green,Eve:black", 3, "Eve")
    view = table(initial_state(setup))
    assert parsed(view, "k n") == {"do": "play", "player": "Eve", "color": "black", "pile": "new"}
    assert parsed(view, "black 1")["color"] == "black"
    with pytest.raises(EntryError, match=r"'bl' could be blue or black; type its letter: "
                       r"b \(blue\) or k \(black\)\."):
        parsed(view, "bl 1")  # blue or black: the letter says which


def test_the_first_mover_is_drawn_outside_the_core_unless_named() -> None:
    setup = make_setup("Ann:red,Bo:blue,Cat:green", None, None, random.Random(3))
    assert setup["first"] in ("Ann", "Bo", "Cat") and setup["chips_per_player"] == 7
    assert make_setup("Ann:red,Bo:blue", 4, "Bo")["first"] == "Bo"
    assert make_setup("Ann:red,Bo:blue", 4, "bo")["first"] == "Bo"  # as the move entry reads
    with pytest.raises(UserError, match="--first 'Zed'"):
        make_setup("Ann:red,Bo:blue", 4, "Zed")
    with pytest.raises(UserError, match="color 'red' is used twice"):
        make_setup("Ann:red,Bo:red", 4, None)


@pytest.mark.parametrize("chips", [0, -2, 31])
def test_a_bad_chips_option_is_named_as_typed(chips: int) -> None:
    with pytest.raises(UserError, match=rf"^--chips {chips} is not possible; .* 1 to 30\.$"):
        make_setup("Ann:red,Bo:blue", chips, None)


def args(**kw: Any) -> SimpleNamespace:
    return SimpleNamespace(**{"name": "t", "players": None, "chips": None, "first": None, **kw})


def test_a_session_is_created_then_resumed(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="needs its players"):
        open_or_create(tmp_path, args())
    session = open_or_create(tmp_path, args(players="Ann:red,Bo:blue", chips=2, first="Ann"))
    session.submit({"do": "play", "player": "Ann", "color": "red", "pile": "new"})
    session.close()
    with pytest.raises(UserError, match="already exists"):
        open_or_create(tmp_path, args(players="Ann:red,Bo:blue"))
    again = open_or_create(tmp_path, args())
    assert again.game == "so-long-sucker" and again.state.plays == 1
    again.close()


def test_a_capture_with_one_color_to_kill_is_taken_by_enter_or_kill_alone() -> None:
    two = {"players": [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}],
           "chips_per_player": 3, "first": "Ann"}
    h = History(SO_LONG_SUCKER, initial_state(two))
    for command in ({"do": "play", "player": "Ann", "color": "red", "pile": "new"},
                    {"do": "play", "player": "Bo", "color": "blue", "pile": "new"},
                    {"do": "play", "player": "Ann", "color": "red", "pile": 1}):
        h.submit(SO_LONG_SUCKER.parse_command(command))
    view = table(h.state)
    assert hint(language(), view) == (
        "Ann kills a red chip from pile 1, the only color in it: press Enter"
    )
    kill = {"do": "kill", "player": "Ann", "color": "red"}
    assert parsed(view, "") == kill
    assert parsed(view, "kill") == kill
    assert parsed(view, "kill r") == kill


def test_kill_alone_asks_which_color_when_there_is_a_choice() -> None:
    h = captured()
    with pytest.raises(EntryError, match=r"^Say which color Bo kills: 'kill r' or 'kill b'\.$"):
        entry(h, "kill")
    with pytest.raises(EntryError, match="Type a move"):
        entry(h, "")
