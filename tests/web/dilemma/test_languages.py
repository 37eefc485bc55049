"""The warm-up's pages in every language: under the pseudo-locale, no English is left on any
phone page (join, player page and part, problem page), the board or the poster through a
whole tournament (house player, timer, no answer, debrief); each phone reads its own language
(its browser's, or the one it picked with the switch, which it remembers); the board reads the
session's; an error's sentence is translated and its status code is not."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.language import Language
from companion.session.session import Session
from companion.web.common.context import Limiter
from companion.web.dilemma.server import build_dilemma_app
from tests import pseudo_locale
from tests.dilemma_helpers import scenario
from tests.web.forms import post_join
from tests.web.prison.test_languages import LIST_WORDS, OWN_NAMES, shown_text

BASE = "http://192.0.2.7:8765"
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]  # five at first: the house fills the sixth


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = Session.create(tmp_path / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    yield s
    s.close()


@pytest.fixture
async def client(session: Session):
    app = build_dilemma_app(session, base=BASE, limiter=Limiter(50, 60.0))
    async with TestClient(TestServer(app, host="127.0.0.1")) as c:
        yield c


async def join(client: TestClient, name: str) -> str:
    jar = client.session.cookie_jar
    kept = {c.key: c.value for c in jar if c.key == "lang"}
    jar.clear()
    jar.update_cookies(kept)
    r = await post_join(client, "/join-room", {"name": name}, allow_redirects=False)
    assert r.status == 303, await r.text()
    return str(r.headers["Location"]).removeprefix("/d/")


def english_on(page: str, tokens: list[str]) -> list[str]:
    text = re.sub(r"https?://\S+", " ", shown_text(page))
    dynamic = [*NAMES, *OWN_NAMES, *LIST_WORDS, *tokens, "/join-room", "/board", "192.0.2.7"]
    return pseudo_locale.leftovers(text, dynamic)


async def check_all(client: TestClient, tokens: dict[str, str], moment: str) -> None:
    """Every warm-up page as it stands: each player's page and part, the board and its part,
    the join page and a problem page."""
    paths = [p for t in tokens.values() for p in (f"/d/{t}", f"/d/{t}/part")]
    paths += ["/board", "/board/part", "/join-room", "/d/not-a-token"]
    for path in paths:
        page = await (await client.get(path)).text()
        assert english_on(page, list(tokens.values())) == [], f"{moment}: {path}"


async def test_no_english_is_left_through_a_whole_tournament(
    client: TestClient, session: Session, qps: Language
) -> None:
    client.session.cookie_jar.update_cookies({"lang": "qps"})
    session.set("lang", "qps")  # the board speaks the session's language
    await check_all(client, {}, "an empty room")
    tokens = {name: await join(client, name) for name in NAMES[:5]}
    client.session.cookie_jar.update_cookies({"lang": "qps"})
    await check_all(client, tokens, "the lobby")
    session.submit({"do": "start_round", "seed": 3})
    session.note("round_timer", round=1, seconds=60, deadline=time.time() + 60)
    await check_all(client, tokens, "round 1 open, with a timer")
    pids = {p.name: p.pid for p in session.state.players}
    answer = await client.post(f"/api/d/{tokens['Ann']}/choice",
                               data=json.dumps({"choice": "silent"}))
    assert answer.status == 200 and "[!!" in (await answer.json())["message"]
    session.submit({"do": "choose", "pid": pids["Bob"], "choice": "betray"})
    await check_all(client, tokens, "round 1, two chose")
    tokens["Flo"] = await join(client, "Flo")  # joins during the round: plays from the next
    client.session.cookie_jar.update_cookies({"lang": "qps"})
    await check_all(client, tokens, "round 1, Flo joined late")
    session.submit({"do": "close_round", "timed_out": True})  # the others gave no answer
    await check_all(client, tokens, "round 1 revealed")
    session.submit({"do": "remove", "pid": pids["Eve"]})  # the game master takes Eve out
    session.submit({"do": "start_round", "seed": 4})
    await check_all(client, tokens, "round 2 open, Eve out")
    pids = {p.name: p.pid for p in session.state.players}
    for name in ["Ann", "Bob", "Cy", "Dee", "Flo"]:
        session.submit({"do": "choose", "pid": pids[name], "choice": "betray"})
    session.submit({"do": "close_round"})
    assert session.state.phase == "over"
    await check_all(client, tokens, "the tournament over")
    board = await (await client.get("/board/part")).text()
    assert 'id="debrief"' in board and 'id="explanation"' in board and "house" in board
    problem = await client.get("/api/d/not-a-token")
    assert problem.status == 404 and "[!!" in (await problem.json())["error"]


async def test_the_check_finds_english_left_over(client: TestClient) -> None:
    """The same check on the English pages finds words: it can fail."""
    page = await (await client.get("/join-room")).text()
    assert "Join" in english_on(page, [])


async def test_each_phone_reads_its_own_language_and_the_board_the_sessions(
    client: TestClient, session: Session
) -> None:
    token = await join(client, "Ann")
    await join(client, "Bob")
    session.submit({"do": "start_round", "seed": 1})
    client.session.cookie_jar.clear()
    answer = await client.get(f"/d/{token}", headers={"Accept-Language": "fr-CA,en"})
    page = await answer.text()
    assert '<html lang="fr">' in page and "SE TAIRE" in page and "Français</strong>" in page
    assert answer.headers["Vary"] == "Accept-Language, Cookie"
    page = await (await client.get(f"/d/{token}", headers={"Accept-Language": "es"})).text()
    assert '<html lang="es">' in page and "TRAICIONAR" in page
    page = await (await client.get(f"/d/{token}", headers={"Accept-Language": "ja"})).text()
    assert '<html lang="en">' in page and "BETRAY" in page
    board = await (await client.get("/board", headers={"Accept-Language": "fr"})).text()
    assert '<html lang="en">' in board  # the board reads the session's language, not the phone's
    session.set("lang", "de")
    board = await (await client.get("/board", headers={"Accept-Language": "fr"})).text()
    assert '<html lang="de">' in board and "Wer gegen wen" in board
    answer = await client.get("/d/not-a-token", headers={"Accept-Language": "es"})
    assert answer.status == 404 and "Aquí no hay nada" in await answer.text()


async def test_the_switch_is_remembered_by_the_phone_and_keeps_the_link(
    client: TestClient, session: Session
) -> None:
    token = await join(client, "Ann")
    await join(client, "Bob")
    session.submit({"do": "start_round", "seed": 1})
    switched = await client.get(f"/d/{token}?lang=de", allow_redirects=False)
    assert switched.status == 303 and switched.headers["Location"] == f"/d/{token}"
    assert switched.cookies["lang"].value == "de"
    page = await (await client.get(f"/d/{token}", headers={"Accept-Language": "fr"})).text()
    assert '<html lang="de">' in page and "SCHWEIGEN" in page  # the cookie wins
    assert '<a href="?lang=fr" lang="fr" hreflang="fr">Français</a>' in page
    answer = await client.post(f"/api/d/{token}/choice", data=json.dumps({"choice": "betray"}))
    assert (await answer.json())["message"] == "Gespeichert: du VERRÄTST."
    await client.get(f"/d/{token}?lang=tlh")  # an unknown language leaves the choice as it was
    page = await (await client.get(f"/d/{token}")).text()
    assert '<html lang="de">' in page


async def test_each_stream_gets_its_pages_and_counts_in_its_phones_language(
    client: TestClient, session: Session
) -> None:
    from tests.web.dilemma.test_presence import read_event

    tokens = {name: await join(client, name) for name in NAMES[:4]}
    session.submit({"do": "start_round", "seed": 1})
    await asyncio.sleep(0.3)  # the round's pages have gone out (to no stream yet)
    pids = {p.name: p.pid for p in session.state.players}
    client.session.cookie_jar.clear()
    ann = await client.get(f"/api/d/{tokens['Ann']}/events", headers={"Accept-Language": "fr"})
    bob = await client.get(f"/api/d/{tokens['Bob']}/events", headers={"Accept-Language": "es"})
    assert "SE TAIRE" in (await read_event(ann))["data"]["html"]
    assert "CALLAR" in (await read_event(bob))["data"]["html"]
    session.submit({"do": "choose", "pid": pids["Cy"], "choice": "silent"})
    seen = {}
    for name, stream in (("Ann", ann), ("Bob", bob)):
        event = await read_event(stream)
        while event["event"] != "patch":
            event = await read_event(stream)
        seen[name] = event["data"]["progress"]
    assert seen == {"Ann": "1 sur 4 a choisi.", "Bob": "1 de 4 ha elegido."}
    for name in ("Ann", "Bob", "Dee"):
        session.submit({"do": "choose", "pid": pids[name], "choice": "betray"})
    session.submit({"do": "close_round"})
    for stream, words in ((ann, "les peines"), (bob, "las condenas")):
        event = await read_event(stream)
        while event["event"] != "view" or words not in event["data"]["html"]:
            event = await read_event(stream)
    ann.close()
    bob.close()


async def test_a_refused_move_is_said_in_the_phones_language_with_the_same_status(
    client: TestClient, session: Session, qps: Language
) -> None:
    token = await join(client, "Ann")
    answer = await client.post(f"/api/d/{token}/choice", data=json.dumps({"choice": "silent"}),
                               headers={"Accept-Language": "es"})
    assert answer.status == 409
    assert await answer.json() == {
        "error": (
            "No hay ninguna ronda abierta; "
            "espera a que el director de juego empiece la siguiente."
        )
    }
    answer = await client.post(f"/api/d/{token}/choice", data=json.dumps({"choice": "silent"}))
    assert answer.status == 409
    assert await answer.json() == {
        "error": "No round is open; wait for the game master to start the next one."
    }
    client.session.cookie_jar.clear()
    client.session.cookie_jar.update_cookies({"lang": "de"})
    taken = await post_join(client, "/join-room", {"name": "ann"}, allow_redirects=False)
    assert taken.status == 409
    assert (
        "Der Name &#39;ann&#39; ist schon vergeben; bitte eine Initiale anhängen oder einen "
        "anderen wählen." in await taken.text()
    )
    client.session.cookie_jar.update_cookies({"lang": "qps"})
    long = await post_join(client, "/join-room", {"name": "B" * 41}, allow_redirects=False)
    assert long.status == 409
    page = shown_text(await long.text())
    assert "[!!" in page and "41" in page
    assert english_on(await long.text(), ["B" * 20, "B" * 41]) == []
