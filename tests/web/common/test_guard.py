"""Pages of other sites get nothing from the phone servers: the language switch redirects only
to a path of the laptop's own server, and no write from another origin changes anything (a
form posted to ``/join-room`` from elsewhere, a ``no-cors`` ``text/plain`` fetch of a choice)."""

from __future__ import annotations

import asyncio
import html
import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.session.dilemma.seats import META_KEY
from companion.session.prison.seats import seats_of
from companion.session.session import Session
from companion.web.common.context import Limiter
from companion.web.common.guard import CROSS_ORIGIN, NOT_OURS, STALE_PAGE, safe_path
from companion.web.dilemma.server import build_dilemma_app
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.dilemma_helpers import scenario
from tests.stage_helpers import call_in
from tests.web.forms import PAGE_VALUE, page_token, post_join

EVIL = "http://evil.example"
FOREIGN = [
    {"Origin": EVIL},
    {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},  # another port or name of the same site is another page
    {"Origin": "null", "Sec-Fetch-Site": "cross-site"},  # a sandboxed frame, a data: page
    {"Origin": "http://127.0.0.1:1"},  # the laptop, another port
    {"Origin": "file://"},
]


@pytest.fixture
def warm_up(tmp_path: Path):
    s = Session.create(tmp_path / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    yield s
    s.close()


@pytest.fixture
def prison(tmp_path: Path):
    s = demo_session(tmp_path, "t")
    yield s
    s.close()


@pytest.fixture
async def dilemma_client(warm_up: Session) -> AsyncIterator[TestClient]:
    app = build_dilemma_app(warm_up, base="http://192.0.2.7:8765", limiter=Limiter(5, 60.0))
    async with TestClient(TestServer(app, host="127.0.0.1")) as c:
        yield c


@pytest.fixture
async def prison_client(prison: Session) -> AsyncIterator[TestClient]:
    app = build_app(prison, base="http://192.0.2.7:8765", limiter=Limiter(5, 60.0))
    async with TestClient(TestServer(app, host="127.0.0.1")) as c:
        yield c


async def raw(client: TestClient, request: bytes) -> bytes:
    """What the server answers to ``request`` sent as it is, byte for byte."""
    reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
    try:
        writer.write(request)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()


def location(answer: bytes) -> str:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    [line] = [h for h in head.split("\r\n") if h.lower().startswith("location:")]
    return line.split(":", 1)[1].strip()


def stays_here(where: str) -> bool:
    """Whether a browser sent to ``where`` stays on the server that said it."""
    return where.startswith("/") and where[1:2] not in ("/", "\\") and "\\" not in where


# ---- the language switch redirects only here ---------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/x",
        "//evil.example",
        "/\\evil.example/x",
        "/\\/evil.example",
        "/%2F%2Fevil",
        "/%5C%5Cevil",
        "https://evil/x",
        "http://evil.example//x",
        "///evil.example",
    ],
)
async def test_the_language_switch_never_sends_a_phone_to_another_server(
    dilemma_client: TestClient, prison_client: TestClient, target: str
) -> None:
    for client in (dilemma_client, prison_client):
        head = f"GET {target}?lang=de HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        answer = await raw(client, head.encode())
        assert answer.startswith(b"HTTP/1.1 303"), answer[:200]
        where = location(answer)
        assert stays_here(where), where


async def test_the_language_switch_comes_back_to_the_page_it_was_on(
    dilemma_client: TestClient,
) -> None:
    r = await dilemma_client.get("/join-room?lang=de", allow_redirects=False)
    assert r.status == 303 and r.headers["Location"] == "/join-room"
    assert r.cookies["lang"].value == "de"
    r = await dilemma_client.get("/d/abc_DEF-123?lang=fr", allow_redirects=False)
    assert r.headers["Location"] == "/d/abc_DEF-123"


async def test_a_link_on_another_sites_page_sets_no_language(dilemma_client: TestClient) -> None:
    r = await dilemma_client.get(
        "/join-room?lang=de", allow_redirects=False, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert r.status == 303 and r.headers["Location"] == "/join-room" and "lang" not in r.cookies


def test_safe_path_keeps_only_paths_of_this_server() -> None:
    assert safe_path("/board") == "/board" and safe_path("/d/x_y-z") == "/d/x_y-z"
    assert safe_path("/caf%C3%A9") == "/caf%C3%A9"
    for bad in ["//e.x", "/\\e.x", "https://e.x", "", "e.x", "/a b", "/\t/e.x", "/a\\b", "/\x00"]:
        assert safe_path(bad) == "/", bad


# ---- no write from another origin --------------------------------------------------------


@pytest.mark.parametrize("headers", FOREIGN)
async def test_another_sites_form_joins_nobody(
    dilemma_client: TestClient, warm_up: Session, headers: dict[str, str]
) -> None:
    before = len(warm_up.rows)
    r = await post_join(
        dilemma_client, "/join-room", {"name": "Mallory"}, headers=headers, allow_redirects=False
    )
    assert r.status == 403 and CROSS_ORIGIN in html.unescape(await r.text())
    assert "dilemma_seat" not in r.cookies and "Set-Cookie" not in r.headers
    assert len(warm_up.rows) == before and not warm_up.state.players
    assert not warm_up.settings.get(META_KEY)


async def test_another_sites_no_cors_fetch_changes_no_choice(
    dilemma_client: TestClient, warm_up: Session
) -> None:
    r = await post_join(dilemma_client, "/join-room", {"name": "Ann"}, allow_redirects=False)
    token = r.headers["Location"].removeprefix("/d/")
    for name in ["Bob", "Cy", "Dee"]:
        dilemma_client.session.cookie_jar.clear()
        await post_join(dilemma_client, "/join-room", {"name": name}, allow_redirects=False)
    warm_up.submit({"do": "start_round", "seed": 5})
    rows = [row.body for row in warm_up.rows]
    r = await dilemma_client.post(
        f"/api/d/{token}/choice",
        data=json.dumps({"choice": "betray"}),
        headers={"Content-Type": "text/plain", "Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
    )
    assert r.status == 403 and (await r.json()) == {"error": CROSS_ORIGIN}
    assert [row.body for row in warm_up.rows] == rows
    # the same request from the laptop's own page, or from a script, is taken
    own = {"Origin": f"http://127.0.0.1:{dilemma_client.port}", "Sec-Fetch-Site": "same-origin"}
    for headers, choice in ((own, "betray"), ({}, "silent")):
        r = await dilemma_client.post(
            f"/api/d/{token}/choice", data=json.dumps({"choice": choice}), headers=headers
        )
        assert r.status == 200, await r.text()
    assert [row.body["command"]["choice"] for row in warm_up.rows[len(rows) :]] == [
        "betray",
        "silent",
    ]


async def test_the_rooms_own_page_joins_as_before(
    dilemma_client: TestClient, warm_up: Session
) -> None:
    own = f"http://127.0.0.1:{dilemma_client.port}"
    for name, headers in [
        ("Ann", {"Origin": own, "Sec-Fetch-Site": "same-origin"}),
        ("Bob", {"Sec-Fetch-Site": "none"}),  # typed or scanned
        ("Cy", {}),  # a script, curl, the benchmarks
        # our own form under our no-referrer policy, as Chromium, Firefox and WebKit send it
        ("Dee", {"Origin": "null", "Sec-Fetch-Site": "same-origin"}),
        ("Eve", {"Origin": "null"}),  # the same from a browser too old for Sec-Fetch-Site
    ]:
        dilemma_client.session.cookie_jar.clear()
        r = await post_join(
            dilemma_client, "/join-room", {"name": name}, headers=headers, allow_redirects=False
        )
        assert r.status == 303 and "dilemma_seat" in r.cookies
    assert [p.name for p in warm_up.state.players] == ["Ann", "Bob", "Cy", "Dee", "Eve"]


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "null"}, {}, {"Origin": "null", "Sec-Fetch-Site": "same-origin"}],
)
async def test_a_join_without_its_pages_token_joins_nobody(
    dilemma_client: TestClient, warm_up: Session, headers: dict[str, str]
) -> None:
    """An old Safari posting another site's form (``Origin: null``, no ``Sec-Fetch-Site``)
    sends no token of the room's page: no header is needed to refuse it."""
    own = await page_token(dilemma_client, "/join-room")  # this phone's page, read first
    forged = "A" * 22 + "." + "B" * 22
    for data, cookie in (
        ({"name": "Mallory"}, None),  # another site's form: no token, no cookie of ours
        ({"name": "Mallory", "page": own}, None),  # a token read elsewhere, not this phone's
        ({"name": "Mallory", "page": forged}, forged),  # one this server never signed
        ({"name": "Mallory", "page": own[:-1] + "x"}, own),  # not the cookie's
    ):
        dilemma_client.session.cookie_jar.clear()
        sent = {**headers, **({"Cookie": f"page={cookie}"} if cookie else {})}
        r = await dilemma_client.post("/join-room", data=data, headers=sent)
        page = html.unescape(await r.text())
        assert r.status == 403 and STALE_PAGE in page, (data, r.status)
        assert 'value="Mallory"' in page  # the name is kept: one tap on Join sends it again
    assert not warm_up.state.players and not warm_up.settings.get(META_KEY)


async def test_the_pinned_public_address_is_the_laptops_own(
    dilemma_client: TestClient, warm_up: Session
) -> None:
    warm_up.set("public_url", "https://game.example:8443")
    r = await post_join(
        dilemma_client, "/join-room", {"name": "Ann"},
        headers={"Origin": "https://game.example:8443", "Sec-Fetch-Site": "same-origin"},
        allow_redirects=False,
    )
    assert r.status == 303
    dilemma_client.session.cookie_jar.clear()
    r = await post_join(
        dilemma_client, "/join-room", {"name": "Bob"},
        headers={"Origin": "https://game.example"},  # another port: another origin
        allow_redirects=False,
    )
    assert r.status == 403
    assert [p.name for p in warm_up.state.players] == ["Ann"]


@pytest.mark.parametrize("headers", FOREIGN[:3])
async def test_no_prison_phone_action_from_another_site(
    prison_client: TestClient, prison: Session, headers: dict[str, str]
) -> None:
    token = {s.name: s.token for s in seats_of(prison)}
    code = next(s.code for s in seats_of(prison) if s.name == "Ada")

    async def refused(path: str, data: object, *, api: bool = True) -> None:
        r = await prison_client.post(path, data=data, headers=headers, allow_redirects=False)
        assert r.status == 403
        if api:
            assert (await r.json()) == {"error": CROSS_ORIGIN}
        else:
            assert CROSS_ORIGIN in html.unescape(await r.text())

    rows = [row.body for row in prison.rows]
    await refused("/join", {"code": code}, api=False)
    await refused(f"/api/p/{token['Ada']}/choice", json.dumps({"choice": "work"}))
    prison.submit({"do": "close_planning"})
    call_in(prison, "Ada", 90)
    rows = [row.body for row in prison.rows]
    await refused(f"/api/p/{token['Wendy']}/deal", json.dumps({"prisoner": "Ada"}))
    await refused(f"/api/p/{token['Wendy']}/search", json.dumps({"prisoner": "Ada"}))
    for method in ("PUT", "DELETE", "PATCH"):
        r = await prison_client.request(method, f"/api/p/{token['Ada']}/choice", headers=headers)
        assert r.status == 403
    assert [row.body for row in prison.rows] == rows
    # the warden's own page still deals
    r = await prison_client.post(
        f"/api/p/{token['Wendy']}/deal", data=json.dumps({"prisoner": "Ada"})
    )
    assert r.status == 200


# ---- only the laptop's own names are answered ----------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "192.0.2.99", "phone.test"])
async def test_a_name_made_to_point_at_the_laptop_is_answered_nothing(
    dilemma_client: TestClient, warm_up: Session, host: str
) -> None:
    r = await post_join(dilemma_client, "/join-room", {"name": "Ann"}, allow_redirects=False)
    token = r.headers["Location"].removeprefix("/d/")
    for path in ("/join-room", f"/d/{token}", f"/api/d/{token}/state", "/board"):
        r = await dilemma_client.get(path, headers={"Host": host}, allow_redirects=False)
        assert r.status == 421, (path, r.status)
        assert "Ann" not in await r.text() and token not in await r.text()
    r = await dilemma_client.post("/join-room", data={"name": "Bob"}, headers={"Host": host})
    assert r.status == 421 and NOT_OURS in html.unescape(await r.text())
    assert [p.name for p in warm_up.state.players] == ["Ann"]


async def test_the_laptops_own_names_and_addresses_are_answered(
    dilemma_client: TestClient, prison_client: TestClient, warm_up: Session
) -> None:
    port = dilemma_client.port
    name = socket.gethostname().lower()
    for host in (f"127.0.0.1:{port}", "127.0.0.1", f"localhost:{port}", "LOCALHOST.",
                 "phone.localhost", name, f"{name.split('.')[0]}.local", "127.8.9.10"):
        for client, path in ((dilemma_client, "/join-room"), (prison_client, "/join")):
            r = await client.get(path, headers={"Host": host}, allow_redirects=False)
            assert r.status == 200, (host, r.status)
    warm_up.set("public_url", "http://phone.test:8080")  # the venue's or a proxy's name, pinned
    r = await dilemma_client.get("/join-room", headers={"Host": "phone.test:8080"})
    assert r.status == 200


async def test_a_request_line_with_a_full_url_is_the_laptops_own(
    dilemma_client: TestClient, warm_up: Session
) -> None:
    """As a forward proxy sends it: the full URL in the request line, port included."""
    own = f"127.0.0.1:{dilemma_client.port}"
    for origin, name in ((f"http://{own}", "Ann"), ("null", "Bob")):
        get = f"GET http://{own}/join-room HTTP/1.1\r\nHost: {own}\r\nConnection: close\r\n\r\n"
        page = await raw(dilemma_client, get.encode())
        token = PAGE_VALUE.findall(page.decode())[0]
        body = f"name={name}&page={token}"
        head = (
            f"POST http://{own}/join-room HTTP/1.1\r\nHost: {own}\r\nOrigin: {origin}\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nCookie: page={token}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}"
        )
        answer = await raw(dilemma_client, head.encode())
        assert answer.startswith(b"HTTP/1.1 303"), answer[:300]
    head = f"GET http://evil.example/join-room HTTP/1.1\r\nHost: {own}\r\nConnection: close\r\n\r\n"
    assert (await raw(dilemma_client, head.encode())).startswith(b"HTTP/1.1 421")
    assert [p.name for p in warm_up.state.players] == ["Ann", "Bob"]
