"""The warm-up's game master's phone on the night's server: a tournament run from its taps (a
round with its timer, 30 s more, the doors, the house player, the rounds' time, a player
removed with the console's question and brought back, the round closed with the console's
question, undo with the console's question, the end and the finale's steps), each seen by an
attached console, the rules' refusals in their own sentences. Its credential is tested with
every game's (tests/web/common/test_game_master_credential.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion.language import language
from companion.rules.core.game import Refused
from companion.rules.dilemma.commands import Choose, Join, Remove, StartRound
from companion.session.dilemma.seats import new_seat
from companion.session.night import phone_secret
from companion.session.session import Session
from tests.dilemma_helpers import scenario
from tests.game_master_helpers import Page, warm_up_file
from tests.night_helpers import Night, serving

NAMES = ("Ann", "Bob", "Cy")


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return warm_up_file(tmp_path)


def joined(night: Night) -> dict[str, str]:
    """Ann, Bob and Cy join (as their phones do): their ids, and their seats' tokens."""
    session = night.session
    assert session is not None
    tokens = {}
    for name in NAMES:
        pid, token = new_seat(session)
        session.submit(Join(pid=pid, name=name), by="phone:join")
        tokens[pid] = token
    return tokens


def pid_of(night: Night, name: str) -> str:
    assert night.session is not None
    return next(p.pid for p in night.session.state.players if p.name == name)


def until(check: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not check():
        time.sleep(0.02)
    assert check()


def sees(console: Any, check: Any) -> None:
    """The attached console sees it (within a few seconds)."""
    until(lambda: (console.catch_up(), check())[1])


# ---- what the page shows and does ----------------------------------------------------------


def test_the_stream_shows_a_choice_and_a_join(path: Path) -> None:
    """What a phone does shows on the page's stream at once (the console's roster too)."""
    with serving(path) as night:
        session = night.session
        assert session is not None
        joined(night)
        page = Page(night, phone_secret(path))
        page.does("next_round", "1")
        stream = urllib.request.urlopen(
            f"{page.base}/api/gm/page/{page.secret}/events", timeout=5
        )

        def event() -> str:
            lines = []
            while True:
                line = stream.readline().decode()
                if line.startswith("data:"):
                    lines.append(line)
                if line == "\n" and lines:
                    return "".join(lines)

        assert "0 of 3 have chosen" in json.loads(event().removeprefix("data:"))["html"]
        ann = pid_of(night, "Ann")
        r = session.state.open_round()
        assert r is not None
        chooser = ann if r.partner(ann) is not None else pid_of(night, "Bob")
        session.submit(Choose(pid=chooser, choice="silent"), by="phone")
        seen = ""
        while "1 of 3 has chosen" not in seen:
            seen = json.loads(event().removeprefix("data:"))["html"]
        assert "SILENT" not in seen and "silent</" not in seen  # never what was chosen


# ---- a tournament from the phone --------------------------------------------------------


def test_a_tournament_from_the_phone_seen_by_the_console(path: Path) -> None:
    with serving(path) as night:
        session = night.session
        assert session is not None
        joined(night)
        console = night.attach()
        page = Page(night, phone_secret(path))
        try:
            html = page.look()
            assert "Players are joining" in html and "3 players in the tournament." in html
            # the rounds' time, and the house player, as the console's t and h set them
            assert page.does("round_time", "60") == "Rounds now last 60 s from the next one."
            assert page.refused("round_time", "5") == (
                "Type whole seconds from 10 to 3600, or 0 for no timer."
            )
            said = page.does("house", "always_betray")
            assert said == "The house player is now House (Always Betray)."
            sees(console, lambda: console.state.house == "always_betray")
            sees(console, lambda: console.room.seconds == 60)

            # a round with its timer, in the log: the console counts to the same deadline
            assert page.does("next_round", "1") == "Round 1 has started: 60 s to choose."
            sees(console, lambda: console.state.phase == "choosing")
            timer = console.room.timer(1)
            assert timer is not None and 55 < timer.left(time.time()) <= 60
            html = page.look()
            assert "Round 1 of 2: 0 of 3 have chosen." in html
            assert 'data-left="' in html
            assert page.does("more_time", "1").startswith("Round 1 has 30 s more: ")
            sees(console, lambda: (t := console.room.timer(1)) is not None
                  and t.deadline > timer.deadline + 29)

            # the doors, as the console's d
            assert page.does("doors", "close") == "The doors are closed: nobody can join."
            sees(console, lambda: console.state.doors_closed)
            assert page.does("doors", "open") == "The doors are open: players can join again."

            # a player removed, with the console's question first
            bob = pid_of(night, "Bob")
            html = page.look()
            assert "Bob sits out every round from now on; you can bring them back." in html
            assert "Remove Bob?" in html
            assert page.does("remove", bob) == (
                "Bob has left the tournament; you can bring them back."
            )
            sees(console, lambda: not console.state.player(bob).present)  # type: ignore[union-attr]
            refusal = session.history.try_command(Remove(pid=bob))
            assert isinstance(refusal, Refused)  # the rules': Bob has already left
            assert page.refused("remove", bob) == language("en").refused(refusal)
            assert page.does("bring_back", bob) == "Bob is back in the tournament."

            # the round closed, with the console's question when someone has not chosen
            html = page.look()
            assert "Close the round now?" in html and "have not chosen: no answer" in html
            assert page.does("close_round", "1") == "The round is revealed."
            sees(console, lambda: console.state.phase == "revealed")

            # undo, with the console's question: the room saw the reveal
            html = page.look()
            assert "Leaderboard: least time served" in html  # as the console's room shows it
            assert "The room has already seen round 1" in html
            assert "Round 1 opens again and the phones offer SILENT or BETRAY once more." in html
            target = session.history.undo_target()
            assert not isinstance(target, Refused)
            said = page.does("undo", str(target.seq))
            assert said.startswith("Undone: round 1 is open again, without its timer")
            sees(console, lambda: console.state.phase == "choosing")
            sees(console, lambda: console.room.timer_off(1))  # as the console turns it off
            assert "Its timer is off: close the round when you decide." in page.look()
            assert page.does("close_round", "1") == "The round is revealed."

            # the end, early, with the console's question, and the finale step by step
            assert "Finish the tournament?" in page.look()
            assert page.does("finish", "finish") == "The tournament is over."
            sees(console, lambda: console.state.phase == "over")
            html = page.look()
            assert "Finale for the room, in" in html
            steps = 0
            while "data-action=\"finale\"" in page.look():
                assert page.does("finale", "next") == "The board shows it now."
                steps += 1
            sees(console, lambda: console.room.finale == steps)
            assert "Finale: the room has seen it all" in page.html
            assert page.refused("finale", "next") == "There is nothing to show the room now."
        finally:
            console.close()


def test_the_rules_refuse_in_their_own_sentences(path: Path) -> None:
    with serving(path) as night:
        page = Page(night, phone_secret(path))
        said = page.refused("next_round", "1")  # nobody has joined
        session = night.session
        assert session is not None
        refusal = session.history.try_command(StartRound(seed=1))
        assert isinstance(refusal, Refused)
        assert said == language("en").refused(refusal)
        assert page.refused("close_round", "1") == "No round is open; start the next one first."
        assert page.refused("fly", "") == (
            "The request is not understood; reload the page and try again."
        )


@pytest.mark.parametrize("code", ["fr", "de", "es"])
def test_the_page_speaks_each_language_formally(path: Path, code: str) -> None:
    with serving(path) as night:
        joined(night)
        page = Page(night, phone_secret(path), code)
        html = page.look()
        lang = language(code)
        assert lang("Players are joining: start round 1 when everyone is in.") in html
        assert lang("Players are joining: start round 1 when everyone is in.") != (
            "Players are joining: start round 1 when everyone is in."
        )
        said = page.does("doors", "close")
        assert said == lang("The doors are closed: nobody can join.") != (
            "The doors are closed: nobody can join."
        )


def test_companion_links_json_includes_the_phones_link(path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(path.parent), "links",
         path.stem, "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    links = json.loads(out)
    assert links["gm"].endswith(f"/gm/{phone_secret(path)}")
    assert links["join"].endswith("/join-room") and links["board"].endswith("/board")
    text = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(path.parent), "links", path.stem],
        capture_output=True, text=True, check=True,
    ).stdout
    assert phone_secret(path) not in text  # the printed list is the room's links


@pytest.mark.parametrize("code", ["en", "fr"])
def test_the_page_is_the_same_whatever_was_chosen(tmp_path: Path, code: str) -> None:
    """Nothing of a sealed choice reaches the game master's page (as the console without its
    peek): the part made from a round where Ann stayed silent and from one where she betrayed
    are the same, letter for letter."""
    from companion.web.dilemma.game_master_view import render_gm_part

    parts = []
    for choice in ("silent", "betray"):
        s = Session.create(tmp_path / f"{choice}.sqlite", "dilemma",
                           {"rules": scenario(rounds=2)})
        for n, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
            s.submit(Join(pid=f"p{n}", name=name))
        s.submit(StartRound(seed=5))
        s.submit(Choose(pid="p0", choice=choice))  # type: ignore[arg-type]
        parts.append(render_gm_part(s, language(code), 1000.0))  # type: ignore[arg-type]
        s.close()
    assert "Ann" in parts[0] and parts[0] == parts[1]
