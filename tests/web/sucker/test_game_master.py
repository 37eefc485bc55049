"""The referee's page (So Long Sucker's game master's phone) on the night's server: its
buttons (the rules' legal moves, no other), each tap seen by an attached console, and the
rules' refusals in their own sentences, as the console says them. Its credential is tested with
every game's (tests/web/common/test_game_master_credential.py)."""

from __future__ import annotations

import argparse
import html as html_text
import json
import re
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from companion.cli.serve import game_master_only
from companion.language import language
from companion.rules.core.game import Refused
from companion.rules.sucker.commands import command_to_dict, parse_command
from companion.rules.sucker.engine import decide, legal_moves
from companion.session.create import create_session
from companion.session.night import phone_secret
from companion.session.session import Session
from companion.web.common.desk import NOT_UNDERSTOOD
from tests.game_master_helpers import Page as GamePage
from tests.game_master_helpers import get, rows, sucker_file
from tests.night_helpers import serving

# Ann starts pile 1 and names Bo; Bo plays on it (Cat is the only one left to move), Cat starts
# pile 2 and names Bo, whose blue on blue captures pile 1: Bo must kill a chip from it.
TO_A_CAPTURE: list[dict[str, Any]] = [
    {"do": "play", "player": "Ann", "color": "red", "pile": "new"},
    {"do": "next", "player": "Bo"},
    {"do": "play", "player": "Bo", "color": "blue", "pile": 1},
    {"do": "play", "player": "Cat", "color": "green", "pile": "new"},
    {"do": "next", "player": "Bo"},
    {"do": "play", "player": "Bo", "color": "blue", "pile": 1},
]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return sucker_file(tmp_path)


class Page(GamePage):
    """The referee's page: its move buttons, and a move tapped."""

    def buttons(self) -> list[dict[str, Any]]:
        """The commands of the page's move buttons, as the page carries them."""
        found = re.findall(r'data-action="move" data-field="value" data-value="([^"]*)"',
                           self.look())
        return [json.loads(html_text.unescape(value)) for value in found]

    def move(self, command: dict[str, Any], **more: Any) -> tuple[int, dict[str, Any]]:
        self.look()
        return self.tap("move", json.dumps(command), **more)


# ---- the night on the Wi-Fi ----------------------------------------------------------------


def test_the_night_listens_on_the_wifi_on_the_port_it_had(path: Path) -> None:
    session = Session.open(path)
    try:
        args = argparse.Namespace(host=None, port=None)
        game_master_only(args, session)
        assert (args.host, args.port) == ("0.0.0.0", None)  # all the laptop's addresses
        session.set("served_on", {"host": "0.0.0.0", "port": 8811})
        args = argparse.Namespace(host=None, port=None)
        game_master_only(args, session)
        assert (args.host, args.port) == ("0.0.0.0", 8811)  # the phone's link still works
        args = argparse.Namespace(host="127.0.0.1", port=None)
        game_master_only(args, session)
        assert (args.host, args.port) == ("127.0.0.1", None)  # told: this laptop alone
    finally:
        session.close()


# ---- what is not a move --------------------------------------------------------------------


def test_what_is_not_a_move_is_not_understood(path: Path) -> None:
    with serving(path) as night:
        page = Page(night, phone_secret(path))
        before = rows(path)
        for value in ("", "[1]", '{"do": "fly"}', '{"do": "play", "player": "Ann"}'):
            page.look()
            status, answer = page.tap("move", value)
            assert status == 409, value
            assert answer["error"] == NOT_UNDERSTOOD
        page.look()
        assert page.tap("teleport", "")[0] == 409
        assert rows(path) == before


# ---- the buttons are the rules' legal moves ------------------------------------------------


def test_the_buttons_are_the_moves_the_rules_allow_now(path: Path) -> None:
    with serving(path) as night:
        session = night.session
        assert session is not None
        page = Page(night, phone_secret(path))
        for command in [*TO_A_CAPTURE, {"do": "kill", "player": "Bo", "color": "blue"}]:
            legal = [command_to_dict(c) for c in legal_moves(session.state)]
            assert sorted(map(json.dumps, page.buttons())) == sorted(map(json.dumps, legal))
            status, answer = page.move(command)
            assert status == 200, answer
        # Bo now holds a red prisoner: given or killed at any time, from the page
        shown = page.buttons()
        assert {"do": "kill_prisoner", "player": "Bo", "color": "red"} in shown
        assert {"do": "transfer", "player": "Bo", "color": "red", "to": "Cat"} in shown
        assert "Prisoners (at any time)" in page.html


# ---- the same night, one truth -------------------------------------------------------------


def test_each_tap_shows_on_the_attached_console_and_its_moves_on_the_page(path: Path) -> None:
    with serving(path) as night:
        console = night.attach()
        try:
            page = Page(night, phone_secret(path))
            for command in TO_A_CAPTURE:
                status, answer = page.move(command)
                assert status == 200, answer
            console.catch_up()
            assert console.state.awaiting.what == "kill"
            assert console.state.awaiting.player == "Bo"
            assert console.submit(parse_command({"do": "kill", "player": "Bo",
                                                 "color": "blue"})) is not None
            html = page.look()
            assert "Bo must play a chip." in html  # the console's move, on the page
            assert "Bo killed a blue chip from pile 1 and took the rest." in html
            # undo from the page, asked about the move it takes back, as the console names it
            assert "Take back Bo killing a blue chip from the captured pile?" in html
            hseq = re.search(r'data-action="undo" data-field="value" data-value="(\d+)"', html)
            assert hseq is not None
            status, answer = page.tap("undo", hseq.group(1))
            assert status == 200 and answer["message"].startswith("Undone")
            console.catch_up()
            assert console.state.awaiting.what == "kill"
            assert "Undone: Bo killing a blue chip from the captured pile." in page.look()
        finally:
            console.close()


def test_an_undo_of_a_move_no_longer_the_last_is_refused(path: Path) -> None:
    with serving(path) as night:
        session = night.session
        assert session is not None
        page = Page(night, phone_secret(path))
        assert page.move(TO_A_CAPTURE[0])[0] == 200
        first = session.history.undo_target()
        assert not isinstance(first, Refused)
        assert page.move(TO_A_CAPTURE[1])[0] == 200
        page.look()
        status, answer = page.tap("undo", str(first.seq))
        assert status == 409
        assert answer["error"].startswith("Nothing was undone: a move came in meanwhile")
        assert session.state.awaiting.what == "play"


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_a_move_the_table_has_moved_on_from_is_refused_in_the_rules_sentence(
    path: Path, lang: str
) -> None:
    with serving(path) as night:
        session = night.session
        assert session is not None
        page = Page(night, phone_secret(path), lang)
        late = {"do": "next", "player": "Bo"}  # the page's button, once the table moved on
        refusal = decide(session.state, parse_command(late))
        assert isinstance(refusal, Refused)
        status, answer = page.move(late)
        assert status == 409
        assert answer["error"] == language(lang).refused(refusal)  # the console's sentence
        wrong = {"do": "play", "player": "Bo", "color": "blue", "pile": "new"}
        status, answer = page.move(wrong)
        assert status == 409
        assert answer["error"] == language(lang).refused(session.submit(wrong))  # type: ignore[arg-type]


SEEDS = (0, 1, 13, 26)  # games that meet a capture and a rescue (13 and 26), and two others


def test_a_whole_game_shows_exactly_the_legal_moves_at_every_turn(tmp_path: Path) -> None:
    """Random games to their end, every move tapped on the page: at each turn (a capture, a
    rescue, a defeat, the end) its buttons are the rules' legal moves, no more and no less."""
    import random

    seen: set[str] = set()
    for seed in SEEDS:
        where = sucker_file(tmp_path, f"game{seed}")
        rng = random.Random(seed)
        with serving(where) as night:
            session = night.session
            assert session is not None
            page = Page(night, phone_secret(where))
            while True:
                legal = [command_to_dict(c) for c in legal_moves(session.state)]
                shown = page.buttons()
                assert sorted(map(json.dumps, shown)) == sorted(map(json.dumps, legal))
                seen.add(session.state.awaiting.what)
                if not legal:
                    break
                status, answer = page.move(rng.choice(sorted(shown, key=json.dumps)))
                assert status == 200, answer
            assert session.state.over
            assert f"The game is over: {session.state.winner} won." in page.html
    assert seen == {"play", "next", "kill", "rescue", "over"}


def test_names_are_shown_literally_and_carried_whole(tmp_path: Path) -> None:
    where = tmp_path / "hostile.sqlite"
    names = ['<img src=x onerror=alert(1)>', 'Bo "\' & <b>', "[bold red]Cy"]
    colors = ["red", "blue", "green"]
    setup = {"players": [{"name": n, "color": c} for n, c in zip(names, colors, strict=True)],
             "chips_per_player": 2, "first": names[0]}
    create_session(where, "so-long-sucker", setup, None).close()
    with serving(where) as night:
        session = night.session
        assert session is not None
        page = Page(night, phone_secret(where))
        status, answer = page.move({"do": "play", "player": names[0], "color": "red",
                                    "pile": "new"})
        assert status == 200 and answer["message"] == f"{names[0]} played red on a new pile 1."
        html = page.look()
        assert "<img" not in html and "<b>" not in html
        assert str(escape(names[0])) in html and str(escape(names[1])) in html
        assert "[bold red]Cy" in html
        legal = [command_to_dict(c) for c in legal_moves(session.state)]
        assert sorted(map(json.dumps, page.buttons())) == sorted(map(json.dumps, legal))
        status, answer = page.move({"do": "next", "player": names[1]})
        assert status == 200, answer
        assert session.state.awaiting.player == names[1]


def test_companion_links_json_gives_the_phones_link_where_the_night_serves(path: Path) -> None:
    import subprocess
    import sys

    def links(*more: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "companion", "--data-dir", str(path.parent), "links",
             path.stem, *more], capture_output=True, text=True,
        )

    with serving(path) as night:
        out = json.loads(links("--json").stdout)
        assert out == {"seats": [], "gm": f"http://127.0.0.1:{night.port}/gm/{phone_secret(path)}"}
        assert get(out["gm"])[0] == 200
    printed = links()  # the printed list is the players' links: this game has none
    assert printed.returncode != 0 and phone_secret(path) not in printed.stdout + printed.stderr
    assert "only prison-break sessions have seat links" in printed.stderr
