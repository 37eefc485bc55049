"""The game master's phone on the night's server: its credential (a secret of its own, no
player's token, no changed link, no other site, no replay, guessing limited, replaced from the
console) and a whole prison day played from its taps, with the console's questions and the
rules' refusals in their own sentences, seen by an attached console."""

from __future__ import annotations

import json
import os
import re
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
from companion.rules.prison.stage import LimitPlanning
from companion.rules.prison.views import table
from companion.session.night import game_master_key, phone_path, phone_secret
from companion.session.prison.seats import seats_of
from companion.session.session import Session
from companion.tui.prison.told import undo_question
from tests.conftest import demo_session
from tests.night_helpers import Night, serving


@pytest.fixture
def path(tmp_path: Path) -> Path:
    session = demo_session(tmp_path, "friday")
    seats_of(session)
    where = session.store.path
    session.close()
    return where


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


class Page:
    """The game master's phone as its page talks to the server: the part's version, each tap
    with it, as phones.js sends them."""

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
                status, data = answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            status, data = error.code, json.loads(error.read())
        return status, data

    def does(self, action: str, value: str = "", **more: Any) -> str:
        """A tap on the page as it stands now, which must be done; what the page says."""
        self.look()
        status, answer = self.tap(action, value, **more)
        assert status == 200, answer
        return str(answer["message"])

    def refused(self, action: str, value: str = "", **more: Any) -> str:
        self.look()
        status, answer = self.tap(action, value, **more)
        assert status == 409, answer
        return str(answer["error"])


def rows(path: Path) -> int:
    session = Session.open(path)
    try:
        return len(session.rows)
    finally:
        session.close()


# ---- the credential ----------------------------------------------------------------------


def test_the_phone_has_a_secret_of_its_own_kept_for_its_user(path: Path) -> None:
    secret = phone_secret(path)
    assert len(secret) >= 40 and phone_secret(path) == secret != game_master_key(path)
    if os.name != "nt":
        assert phone_path(path).stat().st_mode & 0o777 == 0o600


def test_only_the_secret_opens_the_page(path: Path) -> None:
    with serving(path) as night:
        assert night.session is not None
        base = f"http://127.0.0.1:{night.port}"
        secret = phone_secret(path)
        status, page, headers = get(f"{base}/gm/{secret}")
        assert status == 200 and 'data-send-version="1"' in page
        assert headers["Cache-Control"] == "no-store"
        changed = secret[:-1] + ("A" if secret[-1] != "A" else "B")
        tokens = [s.token for s in seats_of(night.session)]
        for wrong in [game_master_key(path), *tokens]:
            assert get(f"{base}/gm/{wrong}")[0] == 404
        for where in (f"/gm/{changed}", f"/gm/{changed}/part", f"/api/gm/page/{changed}/events"):
            assert get(f"{base}{where}")[0] == 404, where
        # the phone's secret opens no seat, and no console's desk
        assert get(f"{base}/p/{secret}")[0] == 404
        assert get(f"{base}/api/gm/hello", {"Authorization": f"Bearer {secret}"})[0] == 403


def test_a_tap_without_the_secret_or_from_another_site_changes_nothing(path: Path) -> None:
    with serving(path) as night:
        assert night.session is not None
        page = Page(night, phone_secret(path))
        page.look()
        before = rows(path)
        ada = next(s for s in seats_of(night.session) if s.name == "Ada")
        for secret in (ada.token, game_master_key(path), page.secret[::-1]):
            status, _ = page.tap("close_planning", "close", secret=secret)
            assert status == 404
        status, answer = page.tap(
            "close_planning", "close",
            headers={"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
        )
        assert status == 403 and "error" in answer
        assert rows(path) == before
        assert page.does("close_planning", "close") == "Planning is closed."
        assert rows(path) == before + 1


def test_a_replayed_tap_is_refused_and_does_nothing_twice(path: Path) -> None:
    with serving(path) as night:
        page = Page(night, phone_secret(path))
        page.look()
        seen = page.version
        status, _ = page.tap("limit", "300", after=seen)
        assert status == 200
        before = rows(path)
        for _ in range(2):  # the same request again, as captured
            status, answer = page.tap("limit", "300", after=seen)
            assert status == 409
            assert answer["error"].startswith("The game changed since this page showed it")
        assert rows(path) == before


def test_only_the_page_s_buttons_are_taps(path: Path) -> None:
    # an unknown action, and the moves' own helpers, which no tap reaches: refused in one
    # sentence, nothing recorded
    with serving(path) as night:
        page = Page(night, phone_secret(path))
        before = rows(path)
        for action in ("fly", "command", "stage", "through", "interview", "recorded_meanwhile",
                       "__init__", "act"):
            assert page.refused(action, "") == (
                "The request is not understood; reload the page and try again."
            ), action
        assert rows(path) == before


def test_guessing_the_link_is_limited_like_every_secret_link(path: Path) -> None:
    with serving(path) as night:
        base = f"http://127.0.0.1:{night.port}"
        secret = phone_secret(path)
        statuses = [get(f"{base}/gm/guess{n:040d}")[0] for n in range(21)]
        assert statuses[:20] == [404] * 20 and statuses[20] == 429
        assert get(f"{base}/gm/{secret}")[0] == 429  # this address is paused, right or wrong


def test_no_page_a_player_can_load_carries_the_phones_link(path: Path) -> None:
    secret = phone_secret(path)
    with serving(path) as night:
        assert night.session is not None
        base = f"http://127.0.0.1:{night.port}"
        pages = ["/board", "/board/part", "/join", "/api/board", "/check"]
        for s in seats_of(night.session):
            pages += [f"/p/{s.token}", f"/p/{s.token}/part", f"/api/p/{s.token}"]
        for where in pages:
            status, text, _ = get(f"{base}{where}")
            assert status == 200, where
            assert secret not in text, where


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


def test_companion_links_json_includes_the_phones_link(path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(path.parent), "links",
         path.stem, "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert json.loads(out)["gm"].endswith(f"/gm/{phone_secret(path)}")
    text = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(path.parent), "links", path.stem],
        capture_output=True, text=True, check=True,
    ).stdout
    assert phone_secret(path) not in text  # the printed list is for the players' links


# ---- a prison day from the phone ------------------------------------------------------------


def reveal_shown(night: Night) -> int:
    assert night.session is not None
    reveal = night.session.room.stage.reveal
    return reveal.shown if reveal is not None else -1


def test_a_whole_prison_day_from_the_phone(path: Path) -> None:
    with serving(path) as night:
        session = night.session
        assert session is not None
        console = night.attach()
        page = Page(night, phone_secret(path))
        try:
            for name, choice in (("Ada", "work"), ("Ben", "rest"), ("Cy", "work")):
                session.submit({"do": "choose", "prisoner": name, "choice": choice})
            html = page.look()
            assert "Dee has not chosen and will rest tonight." in html  # the console's question
            assert re.search(r"<td>Ada</td><td>active</td><td>1</td><td>chosen</td><td>-</td>",
                             html)
            ada = next(s for s in seats_of(session) if s.name == "Ada")
            stream = urllib.request.urlopen(f"{page.base}/api/p/{ada.token}/events", timeout=5)
            stream.readline()
            assert "<td>chosen</td><td>connected</td>" in page.look()  # Ada's phone, as the console
            stream.close()
            assert "work" not in re.sub(r"<[^>]+>", " ", html).split()  # sealed, as the console
            assert "Planning closes in 5:00" in page.does("limit", "300")
            assert page.does("pause", "planning") == "The clock is paused."
            assert session.room.stage.planning is not None and session.room.stage.planning.paused
            assert page.does("pause", "planning") == "The clock goes on."
            assert page.does("extend", "planning") == "60 seconds more."
            assert page.does("close_planning", "close") == "Planning is closed."
            # the rules' refusal, in their words
            assert page.refused("close_planning", "close") == session.submit(
                {"do": "close_planning"}).reason  # type: ignore[union-attr]

            assert page.does("call_in", "Ada") == "Ada is called in."
            assert session.room.stage.interview is not None
            assert page.does("extend", "interview") == "30 seconds more."
            assert page.refused("call_in", "Ben").startswith("Someone is in with the warden")
            assert "named" in page.look() and 'data-value="Ada"' in page.html
            assert page.does("deal", "Ada", named=["Ben"]) == "Ada's interview is recorded."
            assert session.state.prisoners["Ada"].parole_tokens == 1
            page.does("call_in", "Ben")
            assert page.refused("deal", "Ben") == (
                "No deal is possible: today's deal limit is reached.")
            page.does("no_deal", "Ben")
            page.does("call_in", "Cy")
            assert page.does("send_out", "Cy").startswith("Nothing is recorded for Cy")
            html = page.look()
            assert "Cy and Dee were not interviewed (no deal)." in html  # the search's question

            page.does("search", "Ben")
            assert reveal_shown(night) == 0
            html = page.look()
            assert "The room has seen nothing yet" in html and "gm-prisoners" not in html
            for step in range(1, 4):  # each step only when tapped
                page.does("reveal", "next")
                assert reveal_shown(night) == step
            assert session.room.held is None
            assert page.refused("reveal", "next") == "There is nothing to show the room now."
            row = re.search(r"<tr[^>]*><td>Ada</td>(.*?)</tr>", page.look())
            assert row is not None and "<td>worked</td>" in row.group(1)  # the console's Today

            console.catch_up()
            assert console.state.phase == session.state.phase  # the console saw it all
            assert session.state.phase == "accusations"
            accuser = page_accusers(page.look())[0]
            assert accuser == table(session.state)["may_accuse"][0]
            other = next(n for n in table(session.state)["active"] if n != accuser)
            said = page.does("accuse", json.dumps([accuser, other]))
            assert accuser in said and other in said
            assert session.state.day.accusations
            html = page.look()
            assert "Day 1 ends and day 2 starts with planning." in html
            page.does("end_day", "end")
            assert session.state.day.number == 2

            html = page.look()
            hseq = session.history.undo_target().seq  # type: ignore[union-attr]
            console.catch_up()
            title, _ = undo_question(console, hseq)
            assert f'data-ask-title="{title}"' in html
            assert page.does("undo", str(hseq)) == "Undone; the history keeps it as a correction."
            assert session.state.day.number == 1
            # asked about another move meanwhile: nothing undone (the rules' sentence)
            refusal = session.history.undo_target(only=hseq)
            assert isinstance(refusal, Refused)
            assert page.refused("undo", str(hseq)) == refusal.reason
        finally:
            console.close()


def page_accusers(html: str) -> list[str]:
    return re.findall(r'data-value="\[&#34;([^&]+)&#34;', html)


@pytest.mark.parametrize("code", ["fr", "de", "es"])
def test_the_page_speaks_each_language(path: Path, code: str) -> None:
    with serving(path) as night:
        page = Page(night, phone_secret(path), code)
        html = page.look()
        _ = language(code)
        for english in ("Close planning?", "Planning time limit", "Undo"):
            assert _(english) != english
        assert _("Planning time limit") in html
        button = re.search(r'data-action="close_planning"[^>]*>([^<]*)<', html)
        assert button is not None  # the console's words for it, not the footer's short one
        assert button.group(1) == _.pgettext("the answer yes", "Close planning")
        text = re.sub(r"<[^>]+>", " ", html)
        for english in ("Nights", "Planning time limit", "Close planning", "Undo", "Prisoner"):
            assert english not in text  # every word of the page said in its language
        assert page.does("limit", "300") == _(
            "Planning closes in %(time)s; at zero you are asked to close it.", time="5:00")
        status, answer = page.tap("limit", "300", after=0)
        assert status == 409 and answer["error"] == _(
            "The game changed since this page showed it; look at it again and tap once more "
            "if it is still wanted.")


def test_at_plannings_end_the_page_asks_as_the_console_does(path: Path) -> None:
    with serving(path) as night:
        session = night.session
        assert session is not None
        for name in ("Ada", "Ben", "Cy", "Dee"):
            session.submit({"do": "choose", "prisoner": name, "choice": "rest"})
        page = Page(night, phone_secret(path))
        assert "data-ask" not in page.look().split('data-action="close_planning"')[1][:200]
        page.does("limit", "300")
        session.stage(LimitPlanning(time.time() - 400, 300))  # set long ago: at zero now
        html = page.look()
        assert 'data-ask-title="Planning time is up: close planning?"' in html
        assert 'data-ask="Everyone has chosen."' in html


def test_the_epilogue_is_stepped_from_the_phone(tmp_path: Path) -> None:
    session = demo_session(tmp_path, "epi", rules_overrides={"nights_to_escape": 2})
    seats_of(session)
    where = session.store.path
    gm = session.submit
    for name in ("Ada", "Ben", "Cy", "Dee"):
        gm({"do": "choose", "prisoner": name, "choice": "work"})
    gm({"do": "close_planning"})
    session.close()
    with serving(where) as night:
        served = night.session
        assert served is not None
        page = Page(night, phone_secret(where))
        page.does("search", "Ada")  # three work on: the escape, held until the last step
        assert served.state.over
        while served.room.held is not None:
            assert "gm-epilogue" not in page.look()
            page.does("reveal", "next")
        html = page.look()
        assert "What really happened, in" in html and "gm-epilogue" in html
        total = served.room.stage.epilogue
        assert total == 0
        steps = 0
        while "data-action=\"epilogue\"" in page.look():
            page.does("epilogue", "next")
            steps += 1
            assert served.room.stage.epilogue == steps  # one step a tap
        assert "The room has seen it all." in page.html
        assert page.refused("epilogue", "next") == "There is nothing to show the room now."
        hseq = served.history.undo_target().seq  # type: ignore[union-attr]
        assert 'data-ask-title="Undo the end of the game?"' in page.html
        assert page.does("undo", str(hseq)).startswith("Undone: the game is on again")
