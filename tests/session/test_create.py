"""Creating, opening and labelling the sessions of every game, through the one registry."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.games import GAMES, UnknownGame, game_entry, game_rules
from companion.session.create import create_session, game_label, open_session
from companion.session.dilemma.create import dilemma_rules, open_or_create_dilemma
from companion.session.paths import session_path
from companion.session.session import Session
from companion.session.store import StoreError
from companion.session.sucker.create import open_sucker_session
from tests.conftest import demo_session

SUCKER_SETUP = {
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}],
    "chips_per_player": 3,
    "first": "Ann",
}


def three_games(folder: Path) -> None:
    demo_session(folder, "friday").close()
    open_or_create_dilemma(folder, "warmup", "dilemma", 2).close()
    create_session(session_path(folder, "chips"), "so-long-sucker", SUCKER_SETUP, None).close()


def test_each_session_is_labelled_by_its_registered_game(tmp_path: Path) -> None:
    three_games(tmp_path)
    names = ("friday", "warmup", "chips")
    labels = {name: game_label(session_path(tmp_path, name)) for name in names}
    assert labels == {
        "friday": "prison break",
        "warmup": "dilemma warm-up",
        "chips": "So Long Sucker",
    }
    assert [game_entry(g.name).label for g in GAMES] == [
        "prison break", "dilemma warm-up", "So Long Sucker"
    ]


def test_a_session_opens_with_its_game_rules(tmp_path: Path) -> None:
    three_games(tmp_path)
    games = [("friday", "prison-break"), ("warmup", "dilemma"), ("chips", "so-long-sucker")]
    for name, game in games:
        session = open_session(tmp_path, name)
        assert session.game == game and session.rules is game_rules(game)
        session.close()


def test_the_wrong_game_is_refused_in_one_sentence(tmp_path: Path) -> None:
    three_games(tmp_path)
    with pytest.raises(UserError, match="'friday' is a prison-break game, not So Long Sucker"):
        open_sucker_session(tmp_path, "friday")
    with pytest.raises(UserError, match="'chips' is a So Long Sucker session"):
        open_or_create_dilemma(tmp_path, "chips", "dilemma", None)
    with pytest.raises(UserError, match="is for 'prison-break', not the dilemma"):
        dilemma_rules("classic", None)


def test_an_unknown_game_is_named(tmp_path: Path) -> None:
    with pytest.raises(UnknownGame, match="unknown game 'chess'"):
        game_rules("chess")
    with pytest.raises(UnknownGame):
        Session.create(tmp_path / "c.sqlite", "chess", {})
    three_games(tmp_path)
    path = session_path(tmp_path, "friday")
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'game'", (json.dumps("chess"),))
    db.close()
    assert game_label(path) == "chess"
    with pytest.raises(StoreError, match="cannot read .*unknown game 'chess'"):
        Session.open(path)
