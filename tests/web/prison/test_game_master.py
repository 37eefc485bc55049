"""The prison break's game master's phone on the night's server: its link in `companion links
--json`, and a whole prison day played from its taps, with the console's questions and the
rules' refusals in their own sentences, seen by an attached console. Its credential is tested
with every game's (tests/web/common/test_game_master_credential.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.language import language
from companion.rules.core.game import Refused
from companion.rules.prison.stage import LimitPlanning
from companion.rules.prison.views import table
from companion.session.night import phone_secret
from companion.session.prison.seats import seats_of
from companion.tui.prison.told import undo_question
from tests.conftest import demo_session
from tests.game_master_helpers import Page, prison_file
from tests.night_helpers import Night, serving


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return prison_file(tmp_path)


# ---- its link ------------------------------------------------------------------------------


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
