"""The game master's phone as its page talks to the night's server (as phones.js does), for the
tests of every game's page: a session file of each game, a GET with its status and headers, the
page's part with its version, each tap sent with that version, and the rows of the session's
log."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from companion.session.create import create_session
from companion.session.prison.seats import seats_of
from companion.session.session import Session
from tests.conftest import demo_session
from tests.dilemma_helpers import scenario
from tests.night_helpers import Night

# So Long Sucker's table in the tests of its game master's page: three players, Ann first.
SUCKER_SETUP = {
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"},
                {"name": "Cat", "color": "green"}],
    "chips_per_player": 3,
    "first": "Ann",
}


def prison_file(folder: Path) -> Path:
    """A demo prison break with its seats made, closed: its file."""
    session = demo_session(folder, "friday")
    seats_of(session)
    where = session.store.path
    session.close()
    return where


def warm_up_file(folder: Path) -> Path:
    """A warm-up of two rounds nobody has joined, closed: its file."""
    session = Session.create(folder / "warmup.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    where = session.store.path
    session.close()
    return where


def sucker_file(folder: Path, name: str = "chips") -> Path:
    """A So Long Sucker session of :data:`SUCKER_SETUP`, closed: its file."""
    where = folder / f"{name}.sqlite"
    create_session(where, "so-long-sucker", SUCKER_SETUP, None).close()
    return where


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


def rows(path: Path) -> int:
    """How many rows the session file at ``path`` has logged."""
    session = Session.open(path)
    try:
        return len(session.rows)
    finally:
        session.close()


class Page:
    """The game master's page: the part's version, each tap with it."""

    def __init__(self, night: Night, secret: str, lang: str = "en") -> None:
        self.base = f"http://127.0.0.1:{night.port}"
        self.secret = secret
        self.lang = lang
        self.version = 0
        self.html = ""

    def look(self) -> str:
        status, self.html, headers = get(f"{self.base}/gm/{self.secret}/part",
                                         {"Accept-Language": self.lang})
        assert status == 200, self.html
        self.version = int(headers["X-View-Version"])
        return self.html

    def tap(self, action: str, value: str = "", *, named: list[str] | None = None,
            after: int | None = None, headers: dict[str, str] | None = None,
            secret: str | None = None) -> tuple[int, dict[str, Any]]:
        body = {"value": value, "named": named or [],
                "after": self.version if after is None else after}
        request = urllib.request.Request(
            f"{self.base}/api/gm/page/{secret or self.secret}/{action}",
            data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-Tab": "t1",
                     "Accept-Language": self.lang, **(headers or {})},
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def does(self, action: str, value: str = "", **more: Any) -> str:
        """A tap on the page as it stands now, which must be done; what the page says."""
        self.look()
        status, answer = self.tap(action, value, **more)
        assert status == 200, answer
        return str(answer["message"])

    def refused(self, action: str, value: str = "", **more: Any) -> str:
        """A tap on the page as it stands now, which must be refused; the refusal."""
        self.look()
        status, answer = self.tap(action, value, **more)
        assert status == 409, answer
        return str(answer["error"])
