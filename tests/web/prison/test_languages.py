"""The prison break's pages in every language: under the pseudo-locale, no English is left on
any phone page, the join and error pages or the board, through a whole game; each phone reads
its own language (its browser's, or the one it picked with the switch); the board reads the
session's; an error's sentence is translated and its status code is not."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.language import Language
from companion.session.prison.seats import Seat, seats_of
from companion.session.session import Session
from companion.web.common.context import Limiter
from companion.web.prison.server import build_app
from tests import pseudo_locale
from tests.conftest import demo_session
from tests.stage_helpers import call_in, limit_planning, pause, step_reveal

BASE = "http://192.0.2.7:8765"
NAMES = ["Ada", "Ben", "Cy", "Dee", "Wendy"]
# Each language's own name in the switch is not a message: it is written as its readers write it.
OWN_NAMES = ["English", "Deutsch", "Español", "Français", "Qps"]
# Lists ("Ada, Ben and Cy") take their joining word from Babel's locale data, not the catalog:
# the pseudo-locale lists the English way.
LIST_WORDS = [" and "]
SHOWN_ATTRIBUTES = {"title", "aria-label", "data-confirm", "placeholder", "alt"}
PLACEHOLDER = re.compile(r"%\([a-z_]+\)s")  # data-say-refused's %(reason)s, filled by phones.js


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = demo_session(tmp_path, "t")
    yield s
    s.close()


@pytest.fixture
async def client(session: Session):
    app = build_app(session, base=BASE, limiter=Limiter(50, 60.0))
    server = TestServer(app, host="127.0.0.1")
    await server.start_server(access_log=None)
    async with TestClient(server) as c:
        yield c


def seat(session: Session, name: str) -> Seat:
    return next(s for s in seats_of(session) if s.name == name)


class Shown(HTMLParser):
    """The text a person sees on a page: text outside scripts, and the attributes a browser
    shows (titles, labels) or the script shows (data-confirm, data-say-*, data-sound-*)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        for key, value in attrs:
            shown = key in SHOWN_ATTRIBUTES or key.startswith(("data-say-", "data-sound-"))
            if shown and value:
                # a sentence the script fills in keeps its placeholder: not a word shown
                said = key.startswith("data-say-")
                self.parts.append(PLACEHOLDER.sub(" ", value) if said else value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def shown_text(page: str) -> str:
    reader = Shown()
    reader.feed(page)
    return " ".join(reader.parts)


def english_on(page: str, session: Session) -> list[str]:
    tokens = [s.token for s in seats_of(session)]
    text = re.sub(r"https?://\S+", " ", shown_text(page))
    dynamic = [*NAMES, *OWN_NAMES, *LIST_WORDS, *tokens, "/join", "/board"]
    return pseudo_locale.leftovers(text, dynamic)


async def pages(client: TestClient, session: Session) -> dict[str, str]:
    """Every page of the game as it stands: each seat's page and part, the board and its
    part, the join page and an error page."""
    got = {}
    for name in NAMES:
        token = seat(session, name).token
        for path in (f"/p/{token}", f"/p/{token}/part"):
            got[f"{name} {path[-5:]}"] = await (await client.get(path)).text()
    for path in ("/board", "/board/part", "/join", "/nothing-here"):
        got[path] = await (await client.get(path)).text()
    return got


async def check_all(client: TestClient, session: Session, moment: str) -> None:
    for where, page in (await pages(client, session)).items():
        assert english_on(page, session) == [], f"{moment}: {where}"


async def test_no_english_is_left_on_any_page_through_a_game(
    client: TestClient, session: Session, qps: Language
) -> None:
    await pages(client, session)  # English first: nothing of it may stay for the next language
    client.session.cookie_jar.update_cookies({"lang": "qps"})
    session.set("lang", "qps")  # the board speaks the session's language
    limit_planning(session, 300)
    await check_all(client, session, "planning")
    token = seat(session, "Ada").token
    answer = await client.post(f"/api/p/{token}/choice", data=json.dumps({"choice": "work"}))
    assert answer.status == 200 and "[!!" in (await answer.json())["message"]
    await check_all(client, session, "planning, Ada chose")
    session.submit({"do": "choose", "prisoner": "Cy", "choice": "work"})
    session.submit({"do": "close_planning"})
    call_in(session, "Ada", 90)
    await check_all(client, session, "Ada with the warden")
    pause(session, "interview")
    await check_all(client, session, "the interview paused")
    wendy = seat(session, "Wendy").token
    answer = await client.post(f"/api/p/{wendy}/deal", data=json.dumps({"prisoner": "Ada"}))
    assert answer.status == 200 and "[!!" in (await answer.json())["message"]
    await check_all(client, session, "Ada took the deal")
    answer = await client.post(f"/api/p/{wendy}/search", data=json.dumps({"prisoner": "Cy"}))
    assert answer.status == 200
    await check_all(client, session, "the search held")
    assert step_reveal(session) is not None  # the room is shown the search step by step
    while step_reveal(session) is not None:
        await check_all(client, session, "the reveal, step by step")
    session.submit({"do": "accuse", "accuser": "Ben", "accused": "Ada"})
    assert session.state.day.accusations, "the accusation was recorded"
    await check_all(client, session, "an accusation")
    session.submit({"do": "end_day"})
    await check_all(client, session, "the next day")
    for day in range(3):  # Dee takes the day's parole token three days running: paroled
        session.submit({"do": "close_planning"})
        session.submit({"do": "interview", "prisoner": "Dee", "deal": True})
        if day < 2:
            session.submit({"do": "search", "prisoner": "Ben"})
            session.submit({"do": "end_day"})
    assert session.state.phase == "over"
    await check_all(client, session, "the game over")


async def test_the_check_finds_english_left_over(client: TestClient, session: Session) -> None:
    """The same check on the English pages finds words: it can fail."""
    found = english_on((await pages(client, session))["/board"], session)
    assert "Planning" in found


async def test_each_phone_reads_its_own_language(
    client: TestClient, session: Session
) -> None:
    token = seat(session, "Ada").token
    page = await (await client.get(f"/p/{token}", headers={"Accept-Language": "fr-CA,en"})).text()
    assert '<html lang="fr">' in page and "TRAVAIL" in page and "Français</strong>" in page
    answer = await client.get(f"/p/{token}", headers={"Accept-Language": "es"})
    page = await answer.text()
    assert '<html lang="es">' in page and "TRABAJAR" in page
    assert answer.headers["Vary"] == "Accept-Language, Cookie"
    page = await (await client.get(f"/p/{token}", headers={"Accept-Language": "ja"})).text()
    assert '<html lang="en">' in page and "WORK" in page


async def test_the_switch_is_remembered_by_the_phone_and_keeps_the_link(
    client: TestClient, session: Session
) -> None:
    token = seat(session, "Ben").token
    switched = await client.get(f"/p/{token}?lang=de", allow_redirects=False)
    assert switched.status == 303 and switched.headers["Location"] == f"/p/{token}"
    assert switched.headers["Cache-Control"] == "no-store"
    assert switched.cookies["lang"].value == "de"
    page = await (await client.get(f"/p/{token}", headers={"Accept-Language": "fr"})).text()
    assert '<html lang="de">' in page and "ARBEITEN" in page  # the cookie wins
    assert '<a href="?lang=fr" lang="fr" hreflang="fr">Français</a>' in page
    answer = await client.post(f"/api/p/{token}/choice", data=json.dumps({"choice": "rest"}))
    assert (await answer.json())["message"] == "Gespeichert: du RUHST heute Nacht."
    # an unknown language leaves the phone's choice as it was
    await client.get(f"/p/{token}?lang=tlh")
    page = await (await client.get(f"/p/{token}")).text()
    assert '<html lang="de">' in page


async def test_the_board_reads_the_sessions_language_whatever_the_browser(
    client: TestClient, session: Session
) -> None:
    session.set("lang", "de")
    board = await (await client.get("/board", headers={"Accept-Language": "fr"})).text()
    assert '<html lang="de">' in board
    assert "Häftlinge: wählt geheim, jeder auf seinem Handy" in board
    assert 'data-sound-off="Ton aus (M)"' in board
    session.set("lang", "xx")  # a language this copy does not have: English
    board = await (await client.get("/board/part")).text()
    assert "Prisoners: choose in secret on your phone" in board


async def test_an_error_is_translated_and_its_status_is_not(
    client: TestClient, session: Session
) -> None:
    headers = {"Accept-Language": "de"}
    wendy = seat(session, "Wendy").token
    answer = await client.post(f"/api/p/{wendy}/choice", data=json.dumps({"choice": "work"}),
                               headers=headers)
    assert answer.status == 403
    assert await answer.json() == {
        "error": "Nur ein Häftling kann Arbeiten oder Ruhen wählen; diese Seite gehört Wendy."
    }
    answer = await client.post(f"/api/p/{wendy}/deal", data="[", headers=headers)
    assert answer.status == 400
    assert (await answer.json())["error"].startswith("Der Inhalt der Anfrage muss JSON sein")
    page = await client.get("/p/not-a-token", headers={"Accept-Language": "es"})
    assert page.status == 404
    assert "Aquí no hay nada" in await page.text() and '<html lang="es">' in await page.text()
    wrong = await client.post("/join", data={"code": "ZZZZZZZZ"}, headers={"Accept-Language": "fr"})
    assert wrong.status == 404 and "Ce code de place est inconnu" in await wrong.text()


async def test_a_refused_move_is_said_in_the_phones_language_with_the_same_status(
    client: TestClient, session: Session, qps: Language
) -> None:
    session.submit({"do": "close_planning"})
    ada = seat(session, "Ada").token
    english = "You can choose work or rest only during planning; it is the interviews now."
    for headers, said in [
        ({}, english),
        ({"Accept-Language": "de"}, (
            "Man kann nur während der Planung ARBEITEN oder RUHEN wählen; "
            "jetzt sind die Verhöre."
        )),
        ({"Accept-Language": "fr"}, (
            "On ne peut choisir TRAVAIL ou REPOS que pendant la préparation\u00a0; "
            "ce sont les entretiens maintenant."
        )),
    ]:
        answer = await client.post(f"/api/p/{ada}/choice", data=json.dumps({"choice": "work"}),
                                   headers=headers)
        assert answer.status == 409
        assert await answer.json() == {"error": said}
    client.session.cookie_jar.update_cookies({"lang": "qps"})
    wendy = seat(session, "Wendy").token
    answer = await client.post(f"/api/p/{wendy}/search", data=json.dumps({"prisoner": "Zed"}))
    assert answer.status == 409
    error = (await answer.json())["error"]
    assert "[!!" in error and "'Zed'" in error
    assert pseudo_locale.leftovers(error, ["'Zed'"]) == []


async def test_each_phone_gets_the_count_patch_in_its_own_language(
    client: TestClient, session: Session
) -> None:
    """The counts' line is made once per language, not once for all: a French phone and an
    English one on the same change each get it in theirs, as their page shows it."""
    streams = {}
    for name, accept in [("Ada", "fr"), ("Cy", "en")]:
        token = seat(session, name).token
        r = await client.get(f"/api/p/{token}/events", headers={"Accept-Language": accept})
        streams[name] = r
        assert (await next_message(r))[0] == "view"
    await client.post(f"/api/p/{seat(session, 'Ben').token}/choice", json={"choice": "work"})
    patches = {name: await next_message(r) for name, r in streams.items()}
    for name, accept in [("Ada", "fr"), ("Cy", "en")]:
        event, data = patches[name]
        assert event == "patch"
        part = await (
            await client.get(
                f"/p/{seat(session, name).token}/part", headers={"Accept-Language": accept}
            )
        ).text()
        assert f'id="progress">{data["progress"]}</p>' in part
    assert patches["Ada"][1] != patches["Cy"][1]
    assert patches["Cy"][1] == {"progress": "1 of 4 prisoners has chosen tonight."}
    for r in streams.values():
        r.close()


async def next_message(r: Any) -> tuple[str, Any]:
    """The next event of a stream: its name and its data."""
    fields: dict[str, str] = {}
    while True:
        line = (await asyncio.wait_for(r.content.readline(), 5)).decode().rstrip("\n")
        if not line:
            if fields.get("event") == "beat":  # the heartbeat, as a comment was before
                fields = {}
            elif "event" in fields:
                return fields["event"], json.loads(fields["data"])
            continue
        if line.startswith((":", "retry:")):
            continue
        key, _, value = line.partition(": ")
        fields[key] = value
