"""The phone server's endpoints and error codes, through aiohttp's test client."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from companion.cli.main import main
from companion.rules.prison.views import prisoner, table, warden
from companion.session.presence import SeatPresence
from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import Seat, reissue, seats_of
from companion.session.session import Session
from companion.web.common.address import base_url, candidates, lan_address
from companion.web.common.context import VERSION_HEADER, Limiter
from companion.web.prison.phones import NIGHT, seat_view
from companion.web.prison.server import build_app, start_phone_server
from tests.conftest import ROSTER, demo_session
from tests.stage_helpers import call_in, send_out, step_reveal
from tests.web.helpers import Clock


@pytest.fixture
def session(tmp_path: Path):
    s = demo_session(tmp_path, "t")
    yield s
    s.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def client(session: Session, clock: Clock):
    app = build_app(session, base="http://192.0.2.7:8765", limiter=Limiter(5, 60.0, clock))
    server = TestServer(app, host="127.0.0.1")
    await server.start_server(access_log=None)  # as start_phone_server: no access log
    async with TestClient(server) as c:
        yield c


def seat(session: Session, name: str) -> Seat:
    return next(s for s in seats_of(session) if s.name == name)


async def post(
    client: TestClient, session: Session, who: str, action: str, body: Any
) -> ClientResponse:
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return await client.post(f"/api/p/{seat(session, who).token}/{action}", data=data)


async def error_of(response: ClientResponse, status: int) -> str:
    assert response.status == status, await response.text()
    assert response.content_type == "application/json"
    body = await response.json()
    assert list(body) == ["error"]
    sentence = body["error"]
    assert sentence.endswith(".") and "\n" not in sentence and "Traceback" not in sentence
    return str(sentence)


def game_of(view: dict[str, Any]) -> dict[str, Any]:
    """A served view without the room's stage, phones count and the board's epilogue and
    taken-back move: the rules' view."""
    return {
        k: v for k, v in view.items() if k not in ("stage", "phones", "epilogue", "taken_back")
    }


NO_STAGE = {"interview": None, "planning": None, "reveal": None, "epilogue": 0}


# ---- reading -------------------------------------------------------------------------------


async def test_each_seat_gets_exactly_its_view(client: TestClient, session: Session) -> None:
    for s in seats_of(session):
        r = await client.get(f"/api/p/{s.token}")
        assert r.status == 200
        expected = warden(session.state) if s.role == "warden" else prisoner(session.state, s.name)
        view = await r.json()
        assert game_of(view) == expected and view["stage"] == NO_STAGE
        assert r.headers["Cache-Control"] == "no-store"
    r = await client.get("/api/board")
    board = await r.json()
    assert game_of(board) == table(session.state) and board["stage"] == NO_STAGE
    assert board["epilogue"] is None  # nothing of the epilogue before the end
    assert board["taken_back"] is None  # nothing was undone
    assert board["phones"] == {"connected": 0, "seats": 5}


async def test_pages_render(client: TestClient, session: Session) -> None:
    for path in [
        "/board",
        "/board/part",
        "/join",
        f"/p/{seat(session, 'Ada').token}",
        f"/p/{seat(session, 'Ada').token}/part",
        f"/p/{seat(session, 'Wendy').token}",
    ]:
        r = await client.get(path)
        assert r.status == 200, path
        assert r.content_type == "text/html"
        assert "default-src 'self'" in r.headers["Content-Security-Policy"]
    page = await (await client.get(f"/p/{seat(session, 'Ada').token}")).text()
    assert "Tap to show" in page and 'id="page" class="page" hidden' in page
    assert "WORK" in page and "REST" in page
    board = await (await client.get("/board")).text()
    assert "http://192.0.2.7:8765/join" in board and "0 of 4 prisoners have chosen" in board
    r = await client.get("/", allow_redirects=False)
    assert r.status == 302 and r.headers["Location"] == "/join"


async def test_assets_are_served_locally(client: TestClient) -> None:
    for path, kind in [("/static/phones.js", "javascript"), ("/static/phones.css", "css")]:
        r = await client.get(path)
        assert r.status == 200 and kind in r.content_type
    page = await (await client.get("/board")).text()
    assert "http://" not in page.split("<body")[0] and "https://" not in page


# ---- choosing ------------------------------------------------------------------------------


async def test_choice_is_saved_changeable_and_idempotent(
    client: TestClient, session: Session
) -> None:
    r = await post(client, session, "Ada", "choice", {"choice": "work"})
    assert r.status == 200
    body = await r.json()
    assert body["message"] == "Saved: you WORK tonight."
    assert body["view"]["me"]["choice"] == "work"
    rows = len(session.rows)
    again = await post(client, session, "Ada", "choice", {"choice": "work"})
    assert again.status == 200 and len(session.rows) == rows  # nothing recorded twice
    changed = await post(client, session, "Ada", "choice", {"choice": "rest"})
    assert (await changed.json())["message"] == "Saved: you REST tonight."
    assert len(session.rows) == rows + 1
    page = await (await client.get(f"/p/{seat(session, 'Ada').token}/part")).text()
    assert "Saved: you REST tonight." in page


async def test_a_choices_answer_carries_the_seats_whole_view_as_of_its_commit(
    client: TestClient, session: Session
) -> None:
    """The answer's view (its table the JSON text the streams share) is the seat's view: what
    ``GET /api/p/TOKEN`` gives and the server's own ``seat_view``, with the version of the row
    the choice appended, as JSON that is never cached."""
    client.server.app[NIGHT].clock = lambda: 2_000_000_000.0
    for who, choice in [("Ada", "work"), ("Ben", "rest"), ("Ada", "rest")]:
        r = await post(client, session, who, "choice", {"choice": choice})
        assert r.status == 200 and r.content_type == "application/json"
        assert r.headers["Cache-Control"] == "no-store"
        assert r.headers[VERSION_HEADER] == str(session.rows[-1].seq)
        body = await r.json()
        mine = seat(session, who)
        got = await (await client.get(f"/api/p/{mine.token}")).json()
        assert body["view"] == got == seat_view(session, mine, 2_000_000_000.0)
        assert game_of(body["view"]) == prisoner(session.state, who)
        assert body["view"]["me"]["choice"] == choice and body["ok"] is True


async def test_acknowledged_choice_is_already_in_the_file(
    client: TestClient, session: Session
) -> None:
    r = await post(client, session, "Cy", "choice", {"choice": "work"})
    assert r.status == 200
    reopened = Session.open(session.store.path)
    try:
        assert reopened.state.day.choices["Cy"] == "work"
        assert reopened.rows[-1].body["by"] == "phone:Cy"
    finally:
        reopened.close()


async def test_choice_after_planning_is_409(client: TestClient, session: Session) -> None:
    session.submit({"do": "close_planning"})
    sentence = await error_of(await post(client, session, "Ada", "choice", {"choice": "work"}), 409)
    assert "only during planning" in sentence


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"not json", "must be JSON"),
        (b"\xff\xfe", "must be JSON"),
        ([1, 2], "JSON object"),
        ({}, "missing"),
        ({"choice": 1}, "not text"),
        ({"choice": "sleep"}, "'work' or 'rest'"),
        ({"choice": "work", "prisoner": "Ben"}, "not expected"),
    ],
)
async def test_malformed_choice_is_400(
    client: TestClient, session: Session, body: Any, words: str
) -> None:
    rows = len(session.rows)
    sentence = await error_of(await post(client, session, "Ada", "choice", body), 400)
    assert words in sentence
    assert len(session.rows) == rows


async def test_body_over_4_kib_is_413(client: TestClient, session: Session) -> None:
    big = json.dumps({"choice": "work" + " " * 5000})
    await error_of(await post(client, session, "Ada", "choice", big), 413)

    async def chunks():  # no Content-Length: the limit still holds
        for _ in range(10):
            yield b" " * 1000

    url = f"/api/p/{seat(session, 'Ada').token}/choice"
    await error_of(await client.post(url, data=chunks()), 413)
    assert "Ada" not in session.state.day.choices


# ---- the warden ----------------------------------------------------------------------------


async def test_deal_and_search(client: TestClient, session: Session) -> None:
    session.submit({"do": "choose", "prisoner": "Ben", "choice": "work"})
    await error_of(await post(client, session, "Wendy", "deal", {"prisoner": "Ada"}), 409)
    session.submit({"do": "close_planning"})
    r = await post(client, session, "Wendy", "deal", {"prisoner": "Ada"})
    sentence = await error_of(r, 409)
    assert sentence == "Nobody is in with you now; the game master calls each prisoner in."
    call_in(session, "Ada", 90)
    r = await post(client, session, "Wendy", "deal", {"prisoner": "Ada"})
    assert r.status == 200
    body = await r.json()
    assert body["view"]["parole_tokens"]["Ada"] == 1 and body["view"]["deals_left_today"] == 0
    rows = len(session.rows)
    assert (await post(client, session, "Wendy", "deal", {"prisoner": "Ada"})).status == 200
    assert len(session.rows) == rows
    assert session.state.day.interviews == (("Ada", True),)
    # Ada is still in: the room's interview ends by the game master's hand, deal or none
    assert session.room.stage.interview is not None
    assert session.room.stage.interview.prisoner == "Ada"
    sentence = await error_of(await post(client, session, "Wendy", "deal", {"prisoner": "Cy"}), 409)
    assert sentence == "Cy is not in with you; the game master calls each prisoner in."
    send_out(session)
    sentence = await error_of(await post(client, session, "Wendy", "deal", {"prisoner": "Cy"}), 409)
    assert sentence == "Nobody is in with you now; the game master calls each prisoner in."
    call_in(session, "Ben", 90)
    sentence = await error_of(await post(client, session, "Wendy", "deal", {"prisoner": "Cy"}), 409)
    assert sentence == "Cy is not in with you; the game master calls each prisoner in."
    call_in(session, "Cy", 90)
    sentence = await error_of(await post(client, session, "Wendy", "deal", {"prisoner": "Cy"}), 409)
    assert "already made 1 deal" in sentence
    await error_of(await post(client, session, "Wendy", "deal", {"prisoner": "Zed"}), 409)
    await error_of(await post(client, session, "Wendy", "search", {"prisoner": 3}), 400)
    r = await post(client, session, "Wendy", "search", {"prisoner": "Ben"})
    answer = await r.json()
    assert answer["message"] == "Searched Ben's cell; the game master now reveals it to the room."
    assert session.state.prisoners["Ben"].status == "caught"
    assert answer["view"]["phase"] == "interviews" and answer["view"]["today"]["searches"] == []
    rows = len(session.rows)
    assert (await post(client, session, "Wendy", "search", {"prisoner": "Ben"})).status == 200
    assert len(session.rows) == rows
    r = await post(client, session, "Wendy", "search", {"prisoner": "Cy"})
    sentence = await error_of(r, 409)
    # classic: one search a day, so no invitation to search again
    assert sentence == "Today's search is made; the game master is revealing it to the room."
    step_reveal(session, to_end=True)
    await error_of(await post(client, session, "Wendy", "search", {"prisoner": "Cy"}), 409)
    view = await (await client.get(f"/api/p/{seat(session, 'Wendy').token}")).json()
    assert view["today"]["searches"] == [{"prisoner": "Ben", "caught": True}]


async def test_a_searchs_result_waits_for_the_reveal_everywhere(
    client: TestClient, session: Session
) -> None:
    session.submit({"do": "choose", "prisoner": "Cy", "choice": "work"})
    session.submit({"do": "close_planning"})
    r = await post(client, session, "Wendy", "search", {"prisoner": "Cy"})
    assert "caught" not in (await r.json())["message"]
    tokens = {s.name: s.token for s in seats_of(session)}
    paths = ["/api/board", "/board", "/board/part"]
    paths += [f"/api/p/{t}" for t in tokens.values()] + [f"/p/{t}/part" for t in tokens.values()]

    async def served() -> str:
        return "".join([await (await client.get(path)).text() for path in paths])

    def outcome_in(text: str) -> bool:
        return any(
            word in text
            for word in ('"caught": true', '"status": "caught"', "CAUGHT", "caught working",
                         "Cy was working", "Cy worked", '"workers": ["', "searched Cy")
        )

    held = await served()
    assert not outcome_in(held) and "searches Cy" not in held
    step_reveal(session)  # the warden searches Cy's cell…
    shown = await served()
    assert "The warden searches Cy" in shown and not outcome_in(shown)
    step_reveal(session)  # CAUGHT
    shown = await served()
    assert "CAUGHT" in shown and "Cy was working" in shown
    board = await (await client.get("/api/board")).json()
    assert board["stage"]["reveal"]["caught"] is True and board["stage"]["reveal"]["held"]
    assert board["today"]["searches"] == []  # the game as it was before, until the last step
    while step_reveal(session) is not None:
        pass
    board = await (await client.get("/api/board")).json()
    assert board["today"]["searches"] == [{"prisoner": "Cy", "caught": True}]
    assert not board["stage"]["reveal"]["held"]


async def test_the_wardens_buttons_ask_to_be_tapped_twice(
    client: TestClient, session: Session
) -> None:
    session.submit({"do": "close_planning"})
    part = await (await client.get(f"/p/{seat(session, 'Wendy').token}/part")).text()
    assert "Deal with" not in part  # nobody is in with her
    assert "Nobody is in with you; the game master calls each prisoner in." in part
    for name in ROSTER:  # a search cannot be taken back from the phone
        assert f'data-value="{name}" data-confirm="Tap again: search {name}"' in part
    call_in(session, "Dee", 90)
    part = await (await client.get(f"/p/{seat(session, 'Wendy').token}/part")).text()
    assert part.count("Deal with") == 1  # the deal is offered for the prisoner in, only
    assert 'data-value="Dee" data-confirm="Tap again: deal with Dee"' in part
    assert "Dee is in with you" in part
    assert 'data-stamp="1:interviews"' in part
    ada = await (await client.get(f"/p/{seat(session, 'Ada').token}/part")).text()
    assert 'data-stamp="1:interviews"' in ada and "data-confirm" not in ada
    call_in(session, "Cy", 90)
    r = await post(client, session, "Wendy", "deal", {"prisoner": "Cy"})
    assert r.status == 200
    part = await (await client.get(f"/p/{seat(session, 'Wendy').token}/part")).text()
    dealt = part.split('id="dealt">')[1].split("</p>")[0]
    assert dealt == "Today's parole token is given."  # a glance across the table tells no name
    assert "Deal with" not in part and 'data-confirm="Tap again: search Ada"' in part


async def test_the_board_shows_who_has_seen_the_warden(
    client: TestClient, session: Session
) -> None:
    session.submit({"do": "close_planning"})
    board = await (await client.get("/board/part")).text()
    assert "Nobody has seen the warden yet" in board
    assert "Still to see the warden: Ada, Ben, Cy and Dee" in board
    session.submit({"do": "interview", "prisoner": "Cy", "deal": True})
    session.submit({"do": "interview", "prisoner": "Ada", "deal": False})
    board = await (await client.get("/board/part")).text()
    assert "Seen by the warden: Cy and Ada" in board
    assert "Still to see the warden: Ben and Dee" in board
    assert "parole" not in board.lower()  # who was seen, never who took a token


async def test_the_end_says_who_won_on_each_phone(client: TestClient, session: Session) -> None:
    async def part(name: str) -> str:
        return await (await client.get(f"/p/{seat(session, name).token}/part")).text()

    assert "3 parole tokens parole you" in await part("Ada")
    assert 'id="verdict"' not in await part("Ben")
    for day in range(3):  # Ben takes the day's parole token three days running: paroled
        session.submit({"do": "close_planning"})
        session.submit({"do": "interview", "prisoner": "Ben", "deal": True})
        if day < 2:
            session.submit({"do": "search", "prisoner": "Ada"})
            session.submit({"do": "end_day"})
    assert session.state.outcome == "parole"
    for name, verdict in [("Ben", "You win!"), ("Wendy", "You win!"), ("Ada", "You lose.")]:
        text = await part(name)
        assert f'id="verdict">{verdict}</p>' in text, name
    assert "parole tokens parole you" not in await part("Ada")  # the game is over
    assert "Prisoner, still inside" in await part("Ada")  # no longer "in the game"
    assert "Prisoner, paroled" in await part("Ben")
    board = await (await client.get("/board/part")).text()
    assert "verdict" not in board and "Winners: Ben and Wendy" in board


async def test_not_this_seats_action_is_403(client: TestClient, session: Session) -> None:
    session.submit({"do": "close_planning"})
    assert "Only a prisoner" in await error_of(
        await post(client, session, "Wendy", "choice", {"choice": "work"}), 403
    )
    for action in ("deal", "search"):
        sentence = await error_of(
            await post(client, session, "Ada", action, {"prisoner": "Ben"}), 403
        )
        assert "Only the warden" in sentence
    assert session.state.day.interviews == () and session.state.day.searches == ()


# ---- unknown tokens, guessing, joining -----------------------------------------------------


async def test_unknown_token_is_the_same_404_as_any_unknown_path(
    client: TestClient, clock: Clock
) -> None:
    bad = "A" * 24

    async def answer(method: str, path: str) -> tuple[int, str, str]:
        clock.now += 61  # stay under the limit for guessed tokens
        r = await client.request(method, path, data=b"{}")
        return r.status, r.content_type, await r.text()

    api = await answer("GET", "/api/nothing/here")
    assert api[0] == 404 and api[1] == "application/json"
    for method, path in [
        ("GET", f"/api/p/{bad}"),
        ("POST", f"/api/p/{bad}/choice"),
        ("GET", f"/api/p/{bad}/events"),
        ("POST", f"/api/p/{bad}/deal"),
    ]:
        assert await answer(method, path) == api
    html = await answer("GET", "/nothing")
    assert html[0] == 404 and html[1] == "text/html"
    assert await answer("GET", f"/p/{bad}") == html
    assert await answer("GET", f"/p/{bad}/part") == html


async def test_too_many_bad_tokens_is_429(
    client: TestClient, session: Session, clock: Clock
) -> None:
    good = seat(session, "Ada").token
    for i in range(5):
        assert (await client.get(f"/api/p/wrong{i}")).status == 404
    sentence = await error_of(await client.get(f"/api/p/{good}"), 429)
    assert "wait a minute" in sentence
    assert (await client.get(f"/p/{good}")).status == 429
    assert (await client.post("/join", data={"code": seat(session, "Ada").code})).status == 429
    assert (await client.get("/board")).status == 200  # public pages are not locked
    clock.now += 61
    assert (await client.get(f"/api/p/{good}")).status == 200


async def test_join_with_seat_code(client: TestClient, session: Session, clock: Clock) -> None:
    ada = seat(session, "Ada")
    typed = ada.code[:4].lower() + "-" + ada.code[4:]
    r = await client.post("/join", data={"code": typed}, allow_redirects=False)
    assert r.status == 303 and r.headers["Location"] == f"/p/{ada.token}"
    r = await client.post("/join", data={"code": "NOPE2345"})
    assert r.status == 404
    assert "That seat code is not known" in await r.text()
    for _ in range(4):
        await client.post("/join", data={"code": "NOPE2345"})
    paused = await client.post("/join", data={"code": ada.code})
    assert paused.status == 429
    # Not "scan your card again" to someone typing a code: the join form says to type it
    # again, and keeps the form.
    text = await paused.text()
    assert "type the seat code on your card again" in text and "scan" not in text
    assert 'name="code"' in text


async def test_reissued_seat_stops_at_once(client: TestClient, session: Session) -> None:
    old = seat(session, "Ben").token
    assert (await client.get(f"/api/p/{old}")).status == 200
    fresh = reissue(session, "Ben")
    assert (await client.get(f"/api/p/{old}")).status == 404
    assert (await client.get(f"/api/p/{fresh.token}")).status == 200


# ---- live updates --------------------------------------------------------------------------


async def read_event(response: ClientResponse) -> dict[str, Any]:
    """The next server-sent event (comments and retry lines skipped)."""
    fields: dict[str, Any] = {}
    while True:
        line = (await asyncio.wait_for(response.content.readline(), 10)).decode().rstrip("\n")
        if not line:
            if fields.get("event") == "beat":  # the heartbeat, as a comment was before
                fields = {}
            elif "event" in fields:
                return fields
            continue
        if line.startswith(":") or line.startswith("retry:"):
            continue
        key, _, value = line.partition(": ")
        fields[key] = json.loads(value) if key == "data" else value


async def test_seat_events_follow_the_game_and_resume(client: TestClient, session: Session) -> None:
    ada = seat(session, "Ada")
    r = await client.get(f"/api/p/{ada.token}/events")
    assert r.headers["Content-Type"].startswith("text/event-stream")
    first = await read_event(r)
    assert [row.kind for row in session.rows] == ["setting"]  # the seats, made by the server
    assert first["event"] == "view" and first["id"] == "1"
    assert game_of(first["data"]["view"]) == prisoner(session.state, "Ada")
    await post(client, session, "Ada", "choice", {"choice": "work"})
    second = await read_event(r)
    assert int(second["id"]) == session.rows[-1].seq
    assert second["data"]["view"]["me"]["choice"] == "work"
    assert "Saved: you WORK tonight." in second["data"]["html"]
    r.close()
    # Reconnecting with the last id seen: nothing old is sent again, the next change is.
    resumed = await client.get(
        f"/api/p/{ada.token}/events", headers={"Last-Event-ID": second["id"]}
    )
    session.submit({"do": "choose", "prisoner": "Ben", "choice": "rest"})
    third = await read_event(resumed)
    assert int(third["id"]) == session.rows[-1].seq > int(second["id"])
    assert third["data"]["view"]["submitted_count"] == 2
    # Reconnecting with an old id: the current view at once.
    behind = await client.get(f"/api/p/{ada.token}/events", headers={"Last-Event-ID": "1"})
    assert int((await read_event(behind))["id"]) == session.rows[-1].seq
    resumed.close()
    behind.close()


async def test_board_events_and_gone_seat(client: TestClient, session: Session) -> None:
    board = await client.get("/api/board/events")
    assert game_of((await read_event(board))["data"]["view"]) == table(session.state)
    ben = await client.get(f"/api/p/{seat(session, 'Ben').token}/events")
    await read_event(ben)
    update = await read_event(board)  # Ben's phone came: the board's count changed
    assert update["data"]["view"]["phones"] == {"connected": 1, "seats": 5}
    assert "<strong>1</strong> of 5 phones connected" in update["data"]["html"]
    session.submit({"do": "choose", "prisoner": "Cy", "choice": "work"})
    update = await read_event(board)
    assert update["data"]["view"]["submitted_count"] == 1
    assert "1 of 4 prisoners has chosen" in update["data"]["html"]
    await read_event(ben)
    reissue(session, "Ben")
    assert (await read_event(ben))["event"] == "gone"
    board.close()
    ben.close()


async def test_presence_follows_the_open_streams(client: TestClient, session: Session) -> None:
    """A page load or an API call is not presence; an open event stream is, and its close
    is told at once."""
    signals: list[SeatPresence] = []
    session.subscribe(lambda s, change: signals.append(change.signal) if change.signal else None)
    await client.get(f"/p/{seat(session, 'Dee').token}")
    await client.get(f"/api/p/{seat(session, 'Dee').token}")
    assert signals == []
    first = await client.get(f"/api/p/{seat(session, 'Dee').token}/events")
    await read_event(first)
    second = await client.get(f"/api/p/{seat(session, 'Dee').token}/events")
    await read_event(second)
    assert [(s.seat, s.connected) for s in signals] == [("Dee", True)]
    first.close()
    session.note("anything")  # wakes the streams; the closed one fails to write and ends
    await asyncio.sleep(0.2)
    assert [(s.seat, s.connected) for s in signals] == [("Dee", True)]  # one still open
    second.close()
    session.note("anything")
    for _ in range(50):
        if len(signals) > 1:
            break
        await asyncio.sleep(0.05)
    assert [(s.seat, s.connected) for s in signals] == [("Dee", True), ("Dee", False)]
    assert all(isinstance(s.since, float) for s in signals)


async def test_names_are_escaped(tmp_path: Path) -> None:
    evil = '<script>alert("x")</script>'
    s = create_prison_session(tmp_path, "e", "classic", "W&<b>", [evil, "Ben", "Cy", "Dee"])
    try:
        app = build_app(s)
        async with TestClient(TestServer(app, host="127.0.0.1")) as c:
            for path in ["/board", f"/p/{seat(s, evil).token}", f"/p/{seat(s, 'W&<b>').token}"]:
                text = await (await c.get(path)).text()
                assert "<script>alert" not in text and "&lt;script&gt;alert" in text
            text = await (await c.get(f"/p/{seat(s, 'W&<b>').token}")).text()
            assert "W&amp;&lt;b&gt;" in text
    finally:
        s.close()


# ---- the real server, links and addresses --------------------------------------------------


async def test_start_phone_server_inside_a_running_loop(session: Session, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        assert server.base_url == f"http://127.0.0.1:{server.port}"
        assert session.settings["served_url"] == server.base_url
        import aiohttp

        token = seat(session, "Ada").token
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{server.base_url}/api/p/{token}") as r:
                assert r.status == 200
            stream = await http.get(f"{server.base_url}/api/board/events")
            await read_event(stream)
            await asyncio.wait_for(server.stop(), 10)  # an open stream does not hold it up
            stream.close()
        assert token not in caplog.text
    finally:
        await server.stop()


async def test_public_url_is_pinned(session: Session) -> None:
    server = await start_phone_server(session, "127.0.0.1", 0, "http://10.9.8.7:80/")
    await server.stop()
    assert server.base_url == "http://10.9.8.7:80"
    assert session.settings["public_url"] == "http://10.9.8.7:80"
    again = await start_phone_server(session, "127.0.0.1", 0)
    await again.stop()
    assert again.base_url == "http://10.9.8.7:80"


def test_links_command_json(session: Session, tmp_path: Path, capsys) -> None:
    session.close()
    assert main(["--data-dir", str(tmp_path), "links", "t", "--json", "--host", "192.0.2.9"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["board"] == "http://192.0.2.9:8765/board"
    reopened = Session.open(tmp_path / "t.sqlite")
    seats = seats_of(reopened)
    reopened.close()
    assert out["seats"] == [
        {"name": s.name, "role": s.role, "url": f"http://192.0.2.9:8765/p/{s.token}"} for s in seats
    ]
    assert [s["role"] for s in out["seats"]] == ["warden"] + ["prisoner"] * 4
    args = ["--data-dir", str(tmp_path), "links", "t", "--public-url", "http://hot.spot:9000/"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "http://hot.spot:9000/board" in text and seats[1].code in text
    assert main(["--data-dir", str(tmp_path), "links", "t", "--public-url", "hot.spot"]) == 2
    assert "not a usable public URL" in capsys.readouterr().err


def test_serve_refuses_a_busy_port_in_one_sentence(session: Session, tmp_path: Path) -> None:
    import socket

    session.close()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "companion",
                "--data-dir",
                str(tmp_path),
                "serve",
                "t",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"cannot listen on port {port}" in lines[0]


def test_addresses() -> None:
    address = lan_address()
    assert address.count(".") == 3
    assert address in [c.address for c in candidates()]
    assert base_url("0.0.0.0", 8765) == f"http://{address}:8765"
    assert base_url("192.0.2.1", 80) == "http://192.0.2.1:80"
    assert base_url("::1", 80) == "http://[::1]:80"


def test_the_consoles_links_come_from_its_nights_server(tmp_path: Path) -> None:
    import argparse
    import urllib.request

    from companion.cli.wiring import attached, night_links
    from tests.conftest import demo_session
    from tests.night_helpers import serving

    made = demo_session(tmp_path, "demo")
    path = made.store.path
    made.close()
    running: dict[str, Any] = {}
    links = night_links(running, argparse.Namespace(host="127.0.0.1"))
    assert links() == []
    with serving(path) as night:
        session = attached(night.attach(), running)
        base = f"http://127.0.0.1:{night.port}"
        assert links()[:2] == [
            {"label": "Board", "url": f"{base}/board"},
            {"label": "Join", "url": f"{base}/join"},
        ]
        with urllib.request.urlopen(f"{base}/board") as r:
            assert r.status == 200
        session.close()


def test_the_phone_face_imports_no_other_face() -> None:
    code = (
        "import sys\n"
        "import companion.web.prison.server, companion.web.prison.api, companion.web.prison.pages\n"
        "import companion.cli.serve, companion.cli.links\n"
        "bad = [m for m in sys.modules if m.split('.')[0] == 'textual' or m.startswith("
        "('companion.tui', 'companion.printing', 'companion.sim'))]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def test_a_failure_is_one_sentence_and_logs_no_token(
    client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    from companion.web.prison import api

    token = seat(session, "Ada").token

    def broken(session: Any, s: Seat, now: Any = None) -> Any:
        raise KeyError(s.token)

    monkeypatch.setattr(api, "seat_view", broken)
    caplog.set_level(logging.DEBUG)
    sentence = await error_of(await client.get(f"/api/p/{token}"), 500)
    assert "went wrong" in sentence
    assert "KeyError" in caplog.text and token not in caplog.text
