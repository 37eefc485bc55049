"""The dilemma's phone server: joining by name, a player's link and cookie, choices, the board,
sealing over HTTP, errors in one sentence, and the command line."""

from __future__ import annotations

import asyncio
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from companion.cli.main import main
from companion.session.dilemma.seats import META_KEY
from companion.session.session import Session
from companion.web.common.rendering import SECURITY_HEADERS
from companion.web.dilemma.server import start_dilemma_server
from tests.web.forms import post_join


async def join(client: TestClient, name: str) -> str:
    """Join as a fresh phone (no cookie); the token of the player's link."""
    client.session.cookie_jar.clear()
    r = await post_join(client, "/join-room", {"name": name}, allow_redirects=False)
    assert r.status == 303, await r.text()
    location = r.headers["Location"]
    assert re.fullmatch(r"/d/[A-Za-z0-9_-]{24}", location)
    return location.removeprefix("/d/")


async def choose(client: TestClient, token: str, choice: str) -> Any:
    r = await client.post(f"/api/d/{token}/choice", data=json.dumps({"choice": choice}))
    return r.status, await r.json()


async def test_joining_gives_a_secret_link_and_a_cookie_that_brings_you_back(
    client: TestClient, session: Session
) -> None:
    page = await client.get("/join-room")
    assert page.status == 200 and "Type your name" in await page.text()
    r = await post_join(client, "/join-room", {"name": "  Ann   Lee "}, allow_redirects=False)
    token = r.headers["Location"].removeprefix("/d/")
    assert r.cookies["dilemma_seat"].value == token
    assert len(token) * 6 >= 128
    again = await client.get("/join-room", allow_redirects=False)  # scanning the room code again
    assert again.status == 303 and again.headers["Location"] == f"/d/{token}"
    mine = await client.get(f"/d/{token}")
    assert "Ann Lee" in await mine.text() and mine.headers["Cache-Control"] == "no-store"
    rows = [r.body for r in session.rows if r.kind != "setting"]
    assert rows[0]["command"]["name"] == "Ann Lee"
    assert token not in json.dumps(rows)  # the game's history holds the join, never the token
    assert session.settings[META_KEY][0]["token"] == token


async def test_a_refused_join_says_why_and_keeps_no_token(
    client: TestClient, session: Session
) -> None:
    await join(client, "Ann")
    client.session.cookie_jar.clear()
    r = await post_join(client, "/join-room", {"name": "ann"})
    assert r.status == 409 and "already taken" in await r.text()
    r = await post_join(client, "/join-room", {"name": ""})
    page = await r.text()  # said to the player, not to whoever sets up a roster
    assert r.status == 409 and "Type a name first" in page and "every player" not in page
    assert len(session.settings[META_KEY]) == 1 and len(session.state.players) == 1


@pytest.mark.parametrize(
    ("name", "other"),
    [("Will", "WiII"), ("Ian", "lan"), ("Al", "AI"), ("Bill", "BiIl"), ("Ada", "ᴀda")],
)
async def test_a_look_alike_of_a_players_name_cannot_join(
    client: TestClient, session: Session, name: str, other: str
) -> None:
    await join(client, name)
    client.session.cookie_jar.clear()
    r = await post_join(client, "/join-room", {"name": other})
    assert r.status == 409 and "already taken" in await r.text()
    assert [p.name for p in session.state.players] == [name]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("A" * 1000, "is 1000 characters long; use at most 40"),
        ("House (Tit for Tat)", "reads like the house player"),
        ("\u0410nn", "already taken"),  # a Cyrillic "А"
        ("An\u200bn", "invisible"),
        ("\u202eevil", "invisible"),
        ("\u3164", "invisible"),
        ("x\x7f", "control character"),
    ],
)
async def test_a_hostile_name_is_refused_on_the_phone_in_one_sentence(
    client: TestClient, session: Session, typed: str, said: str
) -> None:
    await join(client, "Ann")
    client.session.cookie_jar.clear()
    rows = len(session.rows)
    r = await post_join(client, "/join-room", {"name": typed})
    assert r.status == 409 and said in await r.text()
    assert len(session.rows) == rows and len(session.settings[META_KEY]) == 1


async def test_a_round_on_the_phones_and_the_board(client: TestClient, session: Session) -> None:
    tokens = {name: await join(client, name) for name in ["Ann", "Bob", "Cy", "Dee"]}
    session.submit({"do": "start_round", "seed": 5})
    pid = {p.name: p.pid for p in session.state.players}
    facing = {}
    for name, token in tokens.items():
        view = await (await client.get(f"/api/d/{token}")).json()
        facing[name] = view["me"]["facing"]
        assert view["me"]["choice"] is None
    assert all(facing[facing[n]] == n for n in facing)
    a = "Ann"
    b = facing[a]
    status, answer = await choose(client, tokens[a], "betray")
    assert status == 200 and answer["message"] == "Saved: you BETRAY."
    assert session.state.current.choices[pid[a]] == "betray"  # logged before acknowledged
    assert session.rows[-1].body["command"] == {"do": "choose", "pid": pid[a], "choice": "betray"}
    others = ["/api/board", "/board", "/board/part"]
    others += [f"/api/d/{t}" for n, t in tokens.items() if n != a]
    others += [f"/d/{t}/part" for n, t in tokens.items() if n != a]

    async def shown(url: str) -> tuple[str, int]:
        """What ``url`` shows, but for its version (any row logged moves it, as every stream's
        id moves: it tells that the log grew, nothing of what the row says), and the version."""
        r = await client.get(url)
        text = re.sub(r'data-version="\d+"', 'data-version=""', await r.text())
        return text, int(r.headers["X-View-Version"])

    seen = {url: await shown(url) for url in others}
    mine = await (await client.get(f"/d/{tokens[a]}/part")).text()
    await choose(client, tokens[a], "silent")  # a change of mind: nobody else may notice
    for url in others:
        text, version = await shown(url)
        assert text == seen[url][0], f"{url} sees Ann's choice"
        assert version == seen[url][1] + 1 == session.rows[-1].seq
    assert await (await client.get(f"/d/{tokens[a]}/part")).text() != mine
    await choose(client, tokens[a], "betray")
    board = await (await client.get("/board")).text()
    assert "1 of 4 has chosen" in board and "Who faces whom" in board
    for name in ["Bob", "Cy", "Dee"]:
        await choose(client, tokens[name], "silent")
    board = await (await client.get("/board")).text()
    assert "Round 1: the sentences" in board and "BETRAYED" in board
    # the leaderboard beside it says what its columns are (its "1/1" is rounds silent)
    key = re.search(r'<p class="dim key" id="leaders-key">(.*?)</p>', board)
    assert key is not None and "name, months served, rounds silent" in key.group(1)
    mine = await (await client.get(f"/d/{tokens[a]}/part")).text()
    assert f"You BETRAYED; {b} stayed SILENT." in mine and "<strong>0 months</strong>" in mine
    status, answer = await choose(client, tokens[a], "silent")
    assert status == 409 and "No round is open" in answer["error"]


async def test_the_end_shows_the_chart_and_the_explanation(
    client: TestClient, session: Session
) -> None:
    tokens = [await join(client, name) for name in ["Ann", "Bob"]]
    for seed in (1, 2):
        session.submit({"do": "start_round", "seed": seed})
        for token in tokens:
            await choose(client, token, "silent" if seed == 1 else "betray")
    board = await (await client.get("/board")).text()
    assert "Final leaderboard" in board and "betraying shortens your own sentence" in board
    assert 'class="bar-fill w100"' in board and 'class="bar-fill w0"' in board
    client.session.cookie_jar.clear()  # a newcomer scanning the room code
    page = await client.get("/join-room")
    assert "The tournament is over" in await page.text()


async def test_the_final_leaderboard_comes_first_once_the_tournament_is_over(
    client: TestClient, session: Session
) -> None:
    tokens = [await join(client, name) for name in ["Ann", "Bob"]]

    def order(page: str) -> list[str]:
        ids = re.findall(r'<section class="[^"]*" id="([a-z-]+)"', page)
        return [i for i in ids if i in ("leaderboard", "last-round")]

    session.submit({"do": "start_round", "seed": 1})
    for token in tokens:
        await choose(client, token, "silent")
    assert order(await (await client.get("/board")).text()) == ["last-round", "leaderboard"]
    session.submit({"do": "start_round", "seed": 2})
    for token in tokens:
        await choose(client, token, "betray")
    # On a projector the final leaderboard is above the fold; on a phone too.
    assert order(await (await client.get("/board")).text()) == ["leaderboard", "last-round"]
    mine = await (await client.get(f"/d/{tokens[0]}/part")).text()
    assert order(mine) == ["leaderboard", "last-round"]
    assert mine.count('id="leaderboard"') == 1


async def test_errors_are_one_sentence_and_guessers_are_slowed(client: TestClient) -> None:
    token = await join(client, "Ann")
    r = await client.post(f"/api/d/{token}/choice", data="not json")
    assert r.status == 400 and "must be JSON" in (await r.json())["error"]
    r = await client.post(f"/api/d/{token}/choice", data=json.dumps({"choice": "confess"}))
    assert r.status == 400 and "'silent' or 'betray'" in (await r.json())["error"]
    r = await client.post(f"/api/d/{token}/choice", data="x" * 5000)
    assert r.status == 413
    r = await client.get("/d/not-a-token")
    assert r.status == 404 and "scan the room" in await r.text()
    for _ in range(5):
        await client.get("/api/d/wrong")
    r = await client.get(f"/api/d/{token}")
    assert r.status == 429 and "Too many wrong links" in (await r.json())["error"]


@pytest.mark.parametrize("letter", ["B", "é", "👩"])
async def test_a_pasted_name_of_thousands_of_letters_gets_its_own_sentence(
    client: TestClient, session: Session, letter: str
) -> None:
    r = await post_join(client, "/join-room", {"name": letter * 5000})
    page = await r.text()
    assert r.status == 409 and "is 5000 characters long; use at most 40" in page
    assert "larger than" not in page and not session.state.players


@pytest.mark.parametrize(
    "name",
    ["Warden", "Game master", "GAME MASTER", "GM", "Admin", "Admin 2", "Gardien",
     "Meneur de jeu", "MJ", "Spielleitung", "Wärter", "Carcelero", "Director de juego",
     "Administrador", "Аdmin"],  # the last with a Cyrillic А
)
async def test_a_player_cannot_take_a_name_of_the_games_staff(
    client: TestClient, session: Session, name: str
) -> None:
    r = await post_join(client, "/join-room", {"name": name})
    assert r.status == 409 and "reads like the game master" in html.unescape(await r.text())
    assert not session.state.players


async def test_names_that_only_start_like_the_staffs_are_players_names(client: TestClient) -> None:
    for name in ("Gardiner", "Gmail Gary", "Adminah", "Wardena"):
        await join(client, name)


async def test_the_redirect_after_a_join_has_every_pages_security_headers(
    client: TestClient,
) -> None:
    joined = await post_join(client, "/join-room", {"name": "Ann"}, allow_redirects=False)
    again = await client.get("/join-room", allow_redirects=False)
    for r in (joined, again):
        assert r.status == 303
        for header, value in SECURITY_HEADERS.items():
            assert r.headers.get(header) == value, header


async def test_guessed_seat_cookies_at_the_join_page_are_limited_as_wrong_links(
    client: TestClient, session: Session
) -> None:
    token = await join(client, "Ann")
    for n in range(5):  # the fixture's limit: 5 wrong links a minute from one address
        client.session.cookie_jar.clear()
        r = await client.get(
            "/join-room", headers={"Cookie": f"dilemma_seat=guess{n}"}, allow_redirects=False
        )
        assert r.status == 200 and "Type your name" in await r.text()  # the form, as for anyone
        assert r.cookies["dilemma_seat"].value == ""  # the unknown cookie is dropped
    assert [n.body["address"] for n in session.notes("bad_tokens")] == ["127.0.0.1"]
    r = await client.get("/join-room", headers={"Cookie": f"dilemma_seat={token}"})
    assert r.status == 429 and "Too many wrong links" in await r.text()  # as /d/ is, then
    r = await client.get(f"/d/{token}")
    assert r.status == 429


def test_a_seat_is_found_by_its_tokens_digest_in_one_look_up(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.session.dilemma import seats

    tokens = [seats.new_seat(session, "127.0.0.1")[1] for _ in range(200)]
    assert seats.pid_for(session, tokens[7]) is not None  # the index is made once
    digests: list[str] = []
    real = seats._digest
    monkeypatch.setattr(seats, "_digest", lambda t: digests.append(t) or real(t))
    pids = [seats.pid_for(session, t) for t in (tokens[0], tokens[199], "x" * 24)]
    assert digests == [tokens[0], tokens[199], "x" * 24]  # one digest each, no seat compared
    assert pids[0] == session.settings[META_KEY][0]["pid"] and pids[2] is None
    seats.new_seat(session, "127.0.0.1")  # a new seat replaces the setting: made again
    assert seats.pid_for(session, session.settings[META_KEY][-1]["token"]) is not None


async def test_an_undone_join_sends_the_phone_back_to_joining(
    client: TestClient, session: Session
) -> None:
    token = await join(client, "Ann")
    session.undo()
    part = await (await client.get(f"/d/{token}/part")).text()
    assert "Not in the tournament" in part and "/join-room" in part
    again = await client.get("/join-room", allow_redirects=False)
    assert again.status == 200  # the cookie no longer opens a player: join anew


async def test_live_updates_reach_a_players_stream(client: TestClient, session: Session) -> None:
    token = await join(client, "Ann")
    await join(client, "Bob")
    r = await client.get(f"/api/d/{token}/events")
    assert r.headers["Content-Type"].startswith("text/event-stream")
    first = await _next_event(r)
    assert "You&#39;re in!" in first["html"] or "You're in!" in first["html"]
    session.submit({"do": "start_round", "seed": 1})
    second = await _next_event(r)
    assert "You face" in second["html"]
    r.close()


async def _next_event(response: Any, kind: str = "view") -> dict[str, Any]:
    """The next ``kind`` event's data: a count's ``patch`` (a join still being pushed when the
    stream opened) or a ``beat`` may come between two pages, and is passed over."""
    async with asyncio.timeout(10):  # a page that never comes fails the test, not hangs it
        while True:
            event, data = await next_event(response)
            if event == kind:
                return data


async def next_event(response: Any) -> tuple[str, dict[str, Any]]:
    """The next event other than a heartbeat: its kind and its data (10 s at most)."""
    data, event = None, "message"
    async with asyncio.timeout(10):
        while True:
            line = (await response.content.readline()).decode()
            if line.startswith("event: "):
                event = line[7:].strip()
            elif line.startswith("data: "):
                data = json.loads(line[6:])
            elif line == "\n":
                if data is not None and event != "beat":
                    return event, data
                data, event = None, "message"


async def test_the_server_listens_and_names_its_room_link(session: Session) -> None:
    server = await start_dilemma_server(session, "127.0.0.1", 0)
    try:
        assert server.join_url == f"http://127.0.0.1:{server.port}/join-room"
        assert session.settings["served_url"] == server.base_url
    finally:
        await server.stop()


def test_the_command_writes_a_poster_and_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    poster = tmp_path / "room.pdf"
    url = ["--public-url", "http://192.0.2.9:8765"]
    assert main(["dilemma", "warm", "--rounds", "3", *url, "--poster", str(poster)]) == 0
    assert poster.read_bytes().startswith(b"%PDF")
    assert main(["dilemma", "warm", "--rounds", "4", "--poster", str(poster)]) == 2
    assert "already exists with 3 rounds" in capsys.readouterr().err
    assert main(["dilemma", "other", "--rounds", "0"]) == 2
    assert "out of range" in capsys.readouterr().err
    assert main(["dilemma", "other", "--scenario", "classic"]) == 2
    assert "not the dilemma" in capsys.readouterr().err
    assert main(["dilemma", "warm"]) == 2  # no terminal here
    assert "needs a terminal" in capsys.readouterr().err


async def test_the_board_says_who_gave_no_answer_apart_from_the_silent(
    client: TestClient, session: Session
) -> None:
    tokens = {name: await join(client, name) for name in ["Ann", "Bob"]}
    session.submit({"do": "start_round", "seed": 5})
    await choose(client, tokens["Ann"], "betray")
    session.submit({"do": "close_round"})  # Bob never answered
    page = await (await client.get("/board")).text()
    assert "No answer, served as silent (*): Bob." in page
    view = await (await client.get("/api/board")).json()
    (row,) = view["cooperation"]
    assert (row["silent"], row["betray"], row["no_answer"]) == (0, 1, 1)
    session.submit({"do": "finish"})
    page = await (await client.get("/board")).text()
    assert "1 betrayed, 1 no answer" in page


async def test_an_odd_room_faces_the_house_player_labelled_and_unranked(
    client: TestClient, session: Session
) -> None:
    tokens = {name: await join(client, name) for name in ["Ann", "Bob", "Ben"]}
    session.submit({"do": "start_round", "seed": 5})
    assert session.state.current.sitting_out == ()
    facing = session.state.current.partner("~house1")
    name = session.state.name(facing)
    page = await (await client.get(f"/d/{tokens[name]}")).text()
    assert "the house player, who fills the empty seat" in page
    board_page = await (await client.get("/board")).text()
    assert "House (Tit for Tat) is the house player" in board_page
    session.submit({"do": "close_round"})
    board_page = await (await client.get("/board")).text()
    assert 'class="who house">House (Tit for Tat)' in board_page
    assert "Sat out" not in board_page
    view = await (await client.get("/api/board")).json()
    assert [row["name"] for row in view["leaderboard"]] == sorted(tokens)  # people only
    assert view["house"]["rounds"] == 1
    mine = await (await client.get(f"/d/{tokens[name]}")).text()
    assert "(the house player)" in mine and "not ranked" in mine


def test_several_sitting_out_serve_each() -> None:
    from companion.language import language
    from companion.web.dilemma.pages import sat_out

    assert sat_out(language(), ["Ben", "Cy"], 2) == "Sat out: Ben and Cy (2 months each)."


async def test_a_player_who_gave_no_answer_reads_no_answer_on_their_own_phone(
    client: TestClient, session: Session
) -> None:
    """Their own page and the API say "no answer" (served as silent), as the board does; never
    that they stayed silent. Their partner's page says it of them too."""
    tokens = {name: await join(client, name) for name in ["Ann", "Bob"]}
    session.submit({"do": "start_round", "seed": 5})
    await choose(client, tokens["Ann"], "betray")
    session.submit({"do": "close_round"})  # Bob never answered
    bob = await (await client.get(f"/d/{tokens['Bob']}")).text()
    assert "You gave no answer (served as silent); Ann BETRAYED." in bob
    assert "Ann: you gave no answer (served as silent), they BETRAYED" in bob
    assert "You stayed SILENT" not in bob and "you stayed SILENT" not in bob
    ann = await (await client.get(f"/d/{tokens['Ann']}")).text()
    assert "You BETRAYED; Bob gave no answer (served as silent)." in ann
    (mine,) = (await (await client.get(f"/api/d/{tokens['Bob']}")).json())["me"]["rounds"]
    assert (mine["mine"], mine["served_as"], mine["theirs"]) == (None, "silent", "betray")
    assert mine["months"] == 12
    (theirs,) = (await (await client.get(f"/api/d/{tokens['Ann']}")).json())["me"]["rounds"]
    assert (theirs["theirs"], theirs["theirs_served_as"], theirs["mine"]) == (
        None,
        "silent",
        "betray",
    )


async def test_the_board_steps_through_the_finale(client: TestClient, session: Session) -> None:
    """Once the tournament is over the board shows the results as a whole; each finale note
    shows the room its next step (the podium, the house player under each strategy, the famous
    strategies, everyone's place), then the results as a whole again."""
    from companion.rules.dilemma.finale import next_step

    for name in ["Ann", "Bob", "Cy"]:
        await join(client, name)
    session.submit({"do": "set_house", "strategy": "always_betray"})
    for n in range(2):
        session.submit({"do": "start_round", "seed": n})
        for pid in session.state.waiting():
            session.submit({"do": "choose", "pid": pid, "choice": "silent"})
    assert session.state.phase == "over"

    async def part() -> str:
        return await (await client.get("/board/part")).text()

    shown = [await part()]
    while (act := next_step(session.state, session.room.finale)) is not None:
        session.stage(act)
        shown.append(await part())
    assert len(shown) == 6
    assert 'id="finale"' not in shown[0] and 'id="debrief"' in shown[0]
    assert 'data-step="podium"' in shown[1] and "The podium: least time served" in shown[1]
    assert "The finale: 1 of 5" in shown[1] and 'id="debrief"' not in shown[1]
    assert 'data-step="house"' in shown[2] and "House (Always Betray)" in shown[2]
    assert "always betrays" in shown[2]
    assert 'data-step="strategies"' in shown[3] and "Grim Trigger" in shown[3]
    assert 'data-step="leaderboard"' in shown[4]
    assert all(name in shown[4] for name in ["Ann", "Bob", "Cy"])
    assert 'id="finale"' not in shown[5] and 'id="debrief"' in shown[5]
