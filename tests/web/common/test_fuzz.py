"""Hostile input against every HTTP endpoint of both phone servers (the prison break's and the
dilemma warm-up's): malformed JSON, wrong types, huge bodies, odd encodings, path tricks, bad
tokens, wrong methods and weird headers.

Whatever arrives: never a 5xx, never a change of the game from a refused request, never a
traceback or a Python object's repr in the answer.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from yarl import URL

from companion.session.dilemma.seats import new_seat
from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import seats_of
from companion.session.session import Session
from companion.web.common.context import Limiter
from companion.web.dilemma.server import build_dilemma_app
from companion.web.prison.server import build_app
from tests.conftest import demo_session, examples
from tests.dilemma_helpers import scenario
from tests.web.helpers import Clock

FUZZ = settings(
    max_examples=examples(500),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
LEAKS = re.compile(
    r"Traceback|File \"|line \d+, in |object at 0x|<class '|\b[A-Z]\w*(Error|Exception)\(|"
    r"site-packages|/companion/"
)
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]
TRICKS = [
    "..", "../..", "%2e%2e", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "..%2f..%2fpyproject.toml",
    "%00", "a%00b", "%ff%fe", "%c0%ae%c0%ae", "A" * 3000, "%E2%80%AE", "%F0%9F%92%A3", "~", "",
    "%2F", "%5c..%5c", ".%2e/", "%252e%252e",
]
CONTENT_TYPES = [
    "application/json", "application/json; charset=utf-16", "text/plain",
    "application/x-www-form-urlencoded", "multipart/form-data",
    "multipart/form-data; boundary=xyz", "application/octet-stream", "text/html; charset=latin-1",
    "\u00e9/\u00e9", "a" * 200, "",
]
EVENT_IDS = ["", "-1", "0", "1e9", "9" * 5000, "0x10", " 3 ", "NaN", "\u0661\u0662", "1" * 30]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
objects = st.fixed_dictionaries(
    {},
    optional={
        "choice": st.one_of(st.sampled_from(["work", "rest", "silent", "betray"]), json_values),
        "prisoner": st.one_of(st.sampled_from(["Ada", "Ben", "Wendy", "Zed", ""]), json_values),
        "code": json_values,
        "name": json_values,
    },
)


def encoded(value: Any, encoding: str) -> bytes:
    text = json.dumps(value, ensure_ascii=False)
    try:
        return text.encode(encoding, "surrogatepass")
    except UnicodeEncodeError:
        return text.encode(encoding, "replace")


bodies = st.one_of(
    st.binary(max_size=600),
    st.builds(
        encoded,
        st.one_of(objects, json_values),
        st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32", "latin-1"]),
    ),
    st.builds(lambda n: b'{"choice": "' + b"w" * n + b'"}', st.integers(3000, 70_000)),
    st.builds(lambda n: b"[" * n, st.integers(1, 5000)),
    st.sampled_from(
        [
            b"", b"\xff\xfe\x00", b"\xef\xbb\xbf{}", b'{"choice": "work"', b'{"choice": NaN}',
            b"code=%ff%fe", b"name=" + b"x" * 300, b"code=\x00", b'{"choice": "\\ud800"}',
            b'{"choice": "work", "choice": "rest"}', b"1" * 5000,
        ]
    ),
)


def _text_paths(tokens: list[str], templates: list[str]) -> st.SearchStrategy[str]:
    token = st.one_of(
        st.sampled_from(tokens),
        st.sampled_from(TRICKS),
        st.text(max_size=80).map(lambda t: quote(t, safe="")),
        st.text(max_size=80).map(lambda t: quote(t, safe="/.%")),
        st.sampled_from(tokens).map(lambda t: t + "x"),
        st.sampled_from(tokens).map(lambda t: t[:-1]),
        st.sampled_from(tokens).map(str.upper),
    )
    query = st.one_of(
        st.just(""),
        st.text(max_size=30).map(lambda q: "?last_event_id=" + quote(q, safe="")),
        st.text(max_size=30).map(lambda q: "?" + quote(q, safe="=&")),
    )
    return st.builds(
        lambda tpl, t, q: tpl.format(t=t) + q, st.sampled_from(templates), token, query
    )


@dataclass
class Fuzzed:
    status: int
    content_type: str
    body: bytes


@dataclass
class Harness:
    runner: asyncio.Runner
    client: TestClient
    session: Session
    tokens: list[str]
    tried: int = 0

    def request(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> Fuzzed:
        self.tried += 1
        return self.runner.run(self._request(method, path, body, headers))

    async def _request(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> Fuzzed:
        url = URL(str(self.client.make_url("/")).rstrip("/") + path, encoded=True)
        async with self.client.session.request(
            method, url, data=body, headers=headers, allow_redirects=False
        ) as r:
            if r.content_type == "text/event-stream":
                first = b"" if method == "HEAD" else await asyncio.wait_for(r.content.readline(), 5)
                r.close()  # a phone leaving: the stream is never reused
                return Fuzzed(r.status, r.content_type, first)
            return Fuzzed(r.status, r.content_type, await asyncio.wait_for(r.read(), 10))

    def snapshot(self) -> tuple[Any, ...]:
        db_rows = self.session.store._db.execute("SELECT count(*) FROM log").fetchone()[0]
        return (self.session.state, len(self.session.rows), db_rows)


def _harness(app: web.Application, session: Session, tokens: list[str]) -> Iterator[Harness]:
    runner = asyncio.Runner()

    async def start() -> TestClient:
        client = TestClient(TestServer(app, host="127.0.0.1"))
        await client.start_server()
        return client

    client = runner.run(start())
    try:
        yield Harness(runner, client, session, tokens)
    finally:
        runner.run(client.close())
        runner.close()


@pytest.fixture(scope="module")
def prison(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    folder = tmp_path_factory.mktemp("fuzz-prison")
    session = demo_session(folder, "f")
    tokens = [s.token for s in seats_of(session)] + [s.code for s in seats_of(session)]
    app = build_app(session, base="http://192.0.2.7:8765", limiter=Limiter(limit=10**9))
    yield from _harness(app, session, tokens)
    session.close()


@pytest.fixture(scope="module")
def dilemma(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    folder = tmp_path_factory.mktemp("fuzz-dilemma")
    session = Session.create(folder / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    tokens = []
    for name in ["Ann", "Bo", "Cat"]:
        pid, token = new_seat(session)
        session.submit({"do": "join", "pid": pid, "name": name})
        tokens.append(token)
    session.submit({"do": "start_round", "seed": 3})
    app = build_dilemma_app(session, base="http://192.0.2.7:8765", limiter=Limiter(limit=10**9))
    yield from _harness(app, session, tokens)
    session.close()


PRISON_PATHS = [
    "/", "/join", "/board", "/board/part", "/p/{t}", "/p/{t}/part", "/api/board",
    "/api/board/events", "/api/p/{t}", "/api/p/{t}/events", "/api/p/{t}/choice",
    "/api/p/{t}/deal", "/api/p/{t}/search", "/static/{t}", "/static/../{t}", "/{t}", "/api/{t}",
]
DILEMMA_PATHS = [
    "/", "/join-room", "/join-room.svg", "/board", "/board/part", "/api/board",
    "/api/board/events", "/d/{t}", "/d/{t}/part", "/api/d/{t}", "/api/d/{t}/events",
    "/api/d/{t}/choice", "/static/{t}", "/{t}", "/api/{t}",
]

def _printable(value: str) -> str:
    """What a client can put in a header at all (no control characters, Latin-1)."""
    text = value.encode("latin-1", "replace").decode("latin-1")
    return "".join(c if c >= " " and c != "\x7f" else "?" for c in text)


headers_strategy = st.fixed_dictionaries(
    {},
    optional={
        "Content-Type": st.sampled_from(CONTENT_TYPES),
        "Last-Event-ID": st.one_of(st.sampled_from(EVENT_IDS), st.text(max_size=20)),
        "Accept": st.sampled_from(["text/event-stream", "*/*", "application/json", "\u00e9"]),
        "Cookie": st.text(max_size=60).map(lambda t: "dilemma_seat=" + quote(t, safe="")),
        "Accept-Encoding": st.sampled_from(["gzip", "br", "identity", "zstd;q=-1"]),
        "X-Forwarded-For": st.sampled_from(["1.2.3.4", "garbage", "::1"]),
    },
).map(lambda h: {k: _printable(v) for k, v in h.items()})


def check(harness: Harness, before: tuple[Any, ...], answer: Fuzzed, what: str) -> None:
    assert answer.status < 500, f"{what} -> {answer.status} {answer.body[:300]!r}"
    text = answer.body.decode("utf-8", "replace")
    assert not LEAKS.search(text), f"{what} -> {answer.status}: {text[:400]}"
    if answer.content_type == "application/json" and answer.status >= 400 and answer.body:
        data = json.loads(answer.body)
        assert list(data) == ["error"] and isinstance(data["error"], str)
        assert "\n" not in data["error"] and data["error"].endswith(".")
    if answer.status >= 400:  # refused: the game and the log are exactly as before
        assert harness.snapshot() == before, what


def _fuzz(harness: Harness, method: str, path: str, body: bytes, headers: dict[str, str]) -> None:
    if method in ("GET", "HEAD", "OPTIONS") and len(body) > 0 and path.endswith("events"):
        body = b""
    before = harness.snapshot()
    answer = harness.request(method, path, body, headers)
    check(harness, before, answer, f"{method} {path[:120]} {headers} body[{len(body)}]")


@FUZZ
@given(data=st.data())
def test_prison_endpoints_survive_anything(prison: Harness, data: st.DataObject) -> None:
    method = data.draw(st.sampled_from(METHODS), "method")
    path = data.draw(_text_paths(prison.tokens, PRISON_PATHS), "path")
    body = data.draw(bodies, "body")
    headers = data.draw(headers_strategy, "headers")
    _fuzz(prison, method, path, body, headers)


@FUZZ
@given(data=st.data())
def test_dilemma_endpoints_survive_anything(dilemma: Harness, data: st.DataObject) -> None:
    method = data.draw(st.sampled_from(METHODS), "method")
    path = data.draw(_text_paths(dilemma.tokens, DILEMMA_PATHS), "path")
    body = data.draw(bodies, "body")
    headers = data.draw(headers_strategy, "headers")
    _fuzz(dilemma, method, path, body, headers)


@settings(max_examples=examples(250), deadline=None)
@given(
    body=bodies,
    content_type=st.sampled_from(CONTENT_TYPES),
    action=st.sampled_from(["choice", "deal", "search"]),
    who=st.integers(0, 4),
)
def test_prison_posts_with_real_tokens(
    prison: Harness, body: bytes, content_type: str, action: str, who: int
) -> None:
    """The body checks, with every seat's real link (the paths above mostly miss)."""
    path = f"/api/p/{prison.tokens[who]}/{action}"
    _fuzz(prison, "POST", path, body, {"Content-Type": content_type})


@settings(max_examples=examples(150), deadline=None)
@given(body=bodies, content_type=st.sampled_from(CONTENT_TYPES), path=st.sampled_from(
    ["/join", "/join-room"]
))
def test_join_forms_survive_anything(
    prison: Harness, dilemma: Harness, body: bytes, content_type: str, path: str
) -> None:
    harness = prison if path == "/join" else dilemma
    _fuzz(harness, "POST", path, body, {"Content-Type": content_type})


def test_the_fuzzers_reached_both_servers(prison: Harness, dilemma: Harness) -> None:
    assert prison.tried >= examples(300) and dilemma.tried >= examples(200)


RAW_HEADERS = [
    b"Content-Length: 99999999999999999999",
    b"Content-Length: -1",
    b"Content-Length: 12abc",
    b"Content-Length: 4\r\nContent-Length: 5",
    b"Transfer-Encoding: chunked\r\nContent-Length: 3",
    b"Transfer-Encoding: gzip, chunked",
    b"Last-Event-ID: \xff\xfe",
    b"Last-Event-ID: " + b"9" * 6000,
    b"Host: " + b"h" * 9000,
    b"X: \x00\x01",
    b"Content-Type: application/json; charset=\xff",
    b"Cookie: dilemma_seat=\xc3\x28",
    b"",
]


@settings(max_examples=examples(120), deadline=None)
@given(
    method=st.sampled_from([b"GET", b"POST", b"PUT", b"BREW", b"G\x00T"]),
    target=st.one_of(
        st.sampled_from([b"/api/p/x/choice", b"/../../etc/passwd", b"/%", b"*", b"//", b"/join"]),
        st.binary(min_size=1, max_size=60).map(lambda b: b"/" + b.replace(b" ", b"%20")),
    ),
    header=st.sampled_from(RAW_HEADERS),
    version=st.sampled_from([b"HTTP/1.1", b"HTTP/1.0", b"HTTP/9.9", b""]),
    body=st.binary(max_size=80),
)
def test_raw_requests_never_get_a_5xx(
    prison: Harness, method: bytes, target: bytes, header: bytes, version: bytes, body: bytes
) -> None:
    port = prison.client.server.port
    assert port is not None
    before = prison.snapshot()
    head = b" ".join(p for p in [method, target, version] if p)
    lines = [head, b"Host: 127.0.0.1"] + ([header] if header else []) + [b"Connection: close"]
    answer = prison.runner.run(_raw(port, b"\r\n".join(lines) + b"\r\n\r\n" + body))
    prison.tried += 1
    status = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    if status:
        assert int(status.group(1)) < 500, answer[:300]
    assert not LEAKS.search(answer.decode("latin-1")), answer[:600]
    assert prison.snapshot() == before


async def _raw(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    chunks = b""
    try:
        while len(chunks) < 8192:
            chunk = await asyncio.wait_for(reader.read(4096), 3)
            if not chunk:
                break
            chunks += chunk
    except (TimeoutError, ConnectionError):
        pass
    finally:
        writer.close()
    return chunks


def test_files_outside_static_are_never_served(prison: Harness, tmp_path: Path) -> None:
    for path in ["/static/../server.py", "/static/%2e%2e/server.py", "/static/..%2fserver.py",
                 "/static/%2e%2e%2f%2e%2e%2fpyproject.toml", "/static//etc/passwd"]:
        answer = prison.request("GET", path, b"", {})
        assert answer.status in (403, 404), path
        assert b"import" not in answer.body and b"root:" not in answer.body


@pytest.mark.parametrize("game", ["prison", "dilemma"])
async def test_token_guessing_is_limited_and_noted_for_the_game_master(
    tmp_path: Path, game: str
) -> None:
    clock = Clock()
    limiter = Limiter(limit=5, window=60.0, clock=clock)
    if game == "prison":
        session = create_prison_session(tmp_path, "g", "classic", "Wendy", ["A", "B", "C", "D"])
        app = build_app(session, limiter=limiter)
        good, prefix = f"/api/p/{seats_of(session)[1].token}", "/api/p/"
    else:
        session = Session.create(tmp_path / "d.sqlite", "dilemma", {"rules": scenario()})
        pid, token = new_seat(session)
        session.submit({"do": "join", "pid": pid, "name": "Ann"})
        app = build_dilemma_app(session, limiter=limiter)
        good, prefix = f"/api/d/{token}", "/api/d/"
    state = session.state
    guesses = [f"guess{i:03d}SECRETISH" for i in range(40)]
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        statuses = [(await client.get(prefix + g)).status for g in guesses]
        assert statuses[:5] == [404] * 5 and set(statuses[5:]) == {429}
        assert (await client.get(good)).status == 429  # even the right link, for a while
        [note] = session.notes("bad_tokens")
        assert note.body == {
            "what": "bad_tokens", "address": "127.0.0.1", "count": 5, "seconds": 60.0
        }
        assert "SECRETISH" not in json.dumps([r.body for r in session.rows])
        clock.now += 61  # the window passes: the right link works, a new flood is noted again
        assert (await client.get(good)).status == 200
        for g in guesses[:6]:
            await client.get(prefix + g)
        assert len(session.notes("bad_tokens")) == 2
    assert session.state == state  # notes are not moves
    session.close()
