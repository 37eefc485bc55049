"""The game master's phone's credential, the same in every game: a secret of its own, kept for
its user; no player's token, no console's key and no changed link opens the page; no other site
and no replay changes anything; guessing is limited as for every secret link; no page a player
can load carries it; only the page's buttons are taps; the console finds it and replaces it,
ending the old one at once. Each game's own page is tested in tests/web/<game>/."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.session.night import game_master_key, phone_path, phone_secret
from companion.session.prison.seats import seats_of
from tests.game_master_helpers import Page, get, prison_file, rows, sucker_file, warm_up_file
from tests.night_helpers import Night, serving
from tests.web.dilemma.test_game_master import joined

NOT_UNDERSTOOD = "The request is not understood; reload the page and try again."


def prison_tokens(night: Night) -> list[str]:
    assert night.session is not None
    return [s.token for s in seats_of(night.session)]


def warm_up_tokens(night: Night) -> list[str]:
    """Ann, Bob and Cy join, as their phones do: their seats' tokens."""
    return list(joined(night).values())


ANN_PLAYS = json.dumps({"do": "play", "player": "Ann", "color": "red", "pile": "new"})


@dataclass(frozen=True)
class Game:
    """What the credential's tests need of a game's night."""

    name: str
    session_file: Callable[[Path], Path]
    tokens: Callable[[Night], list[str]]  # the players' seats' tokens (seated now)
    seat: str  # a seat's pages' prefix: /p/TOKEN ("" for none)
    pages: tuple[str, ...]  # the pages anyone may load (200)
    tap: tuple[str, str, str]  # a tap: its action, its value and what the page says it did
    helpers: tuple[str, ...]  # the names of the moves' own helpers, which are no button


GAMES = [
    Game("prison-break", prison_file, prison_tokens, "/p/",
         ("/board", "/board/part", "/join", "/api/board", "/check"),
         ("close_planning", "close", "Planning is closed."),
         ("command", "stage", "through", "interview", "recorded_meanwhile")),
    Game("dilemma", warm_up_file, warm_up_tokens, "/d/",
         ("/board", "/board/part", "/join-room", "/api/board", "/check"),
         ("doors", "close", "The doors are closed: nobody can join."),
         ("command", "stage", "held", "name")),
    Game("so-long-sucker", sucker_file, lambda night: [], "", ("/check",),
         ("move", ANN_PLAYS, "Ann played red on a new pile 1."),
         ("_move", "change", "referee")),
]


@pytest.fixture(params=GAMES, ids=[g.name for g in GAMES])
def game(request: pytest.FixtureRequest) -> Game:
    chosen: Game = request.param
    return chosen


@pytest.fixture
def path(tmp_path: Path, game: Game) -> Path:
    return game.session_file(tmp_path)


def test_the_phone_has_a_secret_of_its_own_kept_for_its_user(path: Path) -> None:
    secret = phone_secret(path)
    assert len(secret) >= 40 and phone_secret(path) == secret != game_master_key(path)
    if os.name != "nt":
        assert phone_path(path).stat().st_mode & 0o777 == 0o600


def test_only_the_secret_opens_the_page(path: Path, game: Game) -> None:
    with serving(path) as night:
        tokens = game.tokens(night)
        base = f"http://127.0.0.1:{night.port}"
        secret = phone_secret(path)
        status, page, headers = get(f"{base}/gm/{secret}")
        assert status == 200 and 'data-send-version="1"' in page
        assert headers["Cache-Control"] == "no-store"
        changed = secret[:-1] + ("A" if secret[-1] != "A" else "B")
        for wrong in (game_master_key(path), *tokens):
            assert get(f"{base}/gm/{wrong}")[0] == 404
        for wrong in (changed, secret[::-1]):
            for where in (f"/gm/{wrong}", f"/gm/{wrong}/part", f"/api/gm/page/{wrong}/events"):
                assert get(f"{base}{where}")[0] == 404, where
        if game.seat:  # the phone's secret opens no seat
            assert get(f"{base}{game.seat}{secret}")[0] == 404
        # and no console's desk
        assert get(f"{base}/api/gm/hello", {"Authorization": f"Bearer {secret}"})[0] == 403


def test_a_tap_without_the_secret_or_from_another_site_changes_nothing(
    path: Path, game: Game
) -> None:
    action, value, said = game.tap
    with serving(path) as night:
        tokens = game.tokens(night)
        page = Page(night, phone_secret(path))
        page.look()
        before = rows(path)
        for secret in (*tokens, game_master_key(path), page.secret[::-1]):
            status, _ = page.tap(action, value, secret=secret)
            assert status == 404
        status, answer = page.tap(
            action, value,
            headers={"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
        )
        assert status == 403 and "error" in answer
        assert rows(path) == before
        assert page.does(action, value) == said
        assert rows(path) == before + 1


def test_a_replayed_tap_is_refused_and_does_nothing_twice(path: Path, game: Game) -> None:
    action, value, _ = game.tap
    with serving(path) as night:
        game.tokens(night)
        page = Page(night, phone_secret(path))
        page.look()
        seen = page.version
        status, _ = page.tap(action, value, after=seen)
        assert status == 200
        before = rows(path)
        for _ in range(2):  # the same request again, as captured
            status, answer = page.tap(action, value, after=seen)
            assert status == 409
            assert answer["error"].startswith("The game changed since this page showed it")
        assert rows(path) == before


def test_only_the_page_s_buttons_are_taps(path: Path, game: Game) -> None:
    # an unknown action, and the moves' own helpers, which no tap reaches: refused in one
    # sentence, nothing recorded
    with serving(path) as night:
        page = Page(night, phone_secret(path))
        before = rows(path)
        for action in ("fly", *game.helpers, "__init__", "act"):
            assert page.refused(action, "") == NOT_UNDERSTOOD, action
        assert rows(path) == before


def test_guessing_the_link_is_limited_like_every_secret_link(path: Path) -> None:
    with serving(path) as night:
        base = f"http://127.0.0.1:{night.port}"
        secret = phone_secret(path)
        statuses = [get(f"{base}/gm/guess{n:040d}")[0] for n in range(21)]
        assert statuses[:20] == [404] * 20 and statuses[20] == 429
        assert get(f"{base}/gm/{secret}")[0] == 429  # this address is paused, right or wrong


def test_no_page_a_player_can_load_carries_the_phones_link(path: Path, game: Game) -> None:
    secret = phone_secret(path)
    with serving(path) as night:
        tokens = game.tokens(night)
        base = f"http://127.0.0.1:{night.port}"
        pages = list(game.pages)
        for token in tokens:
            pages += [f"{game.seat}{token}", f"{game.seat}{token}/part",
                      f"/api{game.seat}{token}"]
        for where in pages:
            status, text, _ = get(f"{base}{where}")
            assert status == 200, where
            assert secret not in text, where
        for where in ("/", "/board", "/join", "/join-room"):  # served or not, never with it
            assert secret not in get(f"{base}{where}")[1], where


def test_the_console_finds_the_link_and_replaces_it_ending_the_old_one(path: Path) -> None:
    with serving(path) as night:
        console = night.attach()
        try:
            old = phone_secret(path)
            link = console.phone_link()
            assert link is not None and link.endswith(f"/gm/{old}")
            base = f"http://127.0.0.1:{night.port}"
            stream = urllib.request.urlopen(f"{base}/api/gm/page/{old}/events", timeout=5)
            assert b"event: view" in stream.readline() + stream.readline() + stream.readline()
            new = console.replace_phone_link()
            assert new is not None and new != link
            assert phone_secret(path) != old and new.endswith(f"/gm/{phone_secret(path)}")
            told = b""
            while b"event: gone" not in told:  # the old page's stream is ended at once
                line = stream.readline()
                assert line, "the stream ended without a word"
                told += line
            assert get(f"{base}/gm/{old}")[0] == 404
            assert get(f"{base}/gm/{phone_secret(path)}")[0] == 200
            assert console.phone_link() == new
        finally:
            console.close()
