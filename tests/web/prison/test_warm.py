"""The rush of page loads as the game starts: the first phone waits for nothing the server could
have done before it came (catalogs, templates), and no request looks on disk for what is
already known (which languages ship). Against the real server on 127.0.0.1; nothing timed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import cache, lru_cache
from pathlib import Path

import aiohttp
import jinja2
import pytest

from companion import language as language_module
from companion.session.prison.seats import seats_of
from companion.session.session import Session
from companion.web.common import language as switch_module
from companion.web.prison import pages
from companion.web.prison.server import start_phone_server
from tests.conftest import demo_session


@pytest.fixture
def session(tmp_path: Path):
    s = demo_session(tmp_path, "night")
    yield s
    s.close()


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that has loaded no catalog, compiled no template and made no language
    switch yet (fresh caches, the process's own put back afterwards)."""
    fresh_language = cache(language_module._language.__wrapped__)
    monkeypatch.setattr(language_module, "_language", fresh_language)
    monkeypatch.setattr(pages, "environment", lru_cache(maxsize=1)(pages.environment.__wrapped__))
    monkeypatch.setattr(switch_module, "_switch", lru_cache(maxsize=32)(
        switch_module._switch.__wrapped__))


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as client:
        yield client


async def test_the_first_phones_find_catalogs_and_templates_ready(
    cold: None, session: Session, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        loaded: list[object] = []
        compiled: list[str] = []
        scanned: list[Path] = []
        real_load, real_compile = language_module._load, jinja2.Environment._parse
        real_iterdir = Path.iterdir

        def load(messages: Path) -> object:
            loaded.append(messages)
            return real_load(messages)

        def parse(env: jinja2.Environment, source: str, name: str | None,
                  filename: str | None) -> object:
            compiled.append(str(name))
            return real_compile(env, source, name, filename)

        def iterdir(path: Path) -> object:
            scanned.append(path)
            return real_iterdir(path)

        monkeypatch.setattr(language_module, "_load", load)
        monkeypatch.setattr(jinja2.Environment, "_parse", parse)
        monkeypatch.setattr(Path, "iterdir", iterdir)
        base = f"http://127.0.0.1:{server.port}"
        seats = seats_of(session)
        for seat, code in zip(seats, ["de", "fr", "es", "en", "de"], strict=True):
            async with http.get(f"{base}/p/{seat.token}",
                                headers={"Accept-Language": code}) as r:
                assert r.status == 200
                assert f'lang="{code}"' in await r.text()
        async with http.get(f"{base}/board") as r:
            assert r.status == 200
        async with http.get(f"{base}/join", headers={"Accept-Language": "fr"}) as r:
            assert r.status == 200
        assert loaded == [] and compiled == [], (loaded, compiled)
        assert scanned == []  # the shipped languages are known: no request looks for them
    finally:
        await server.stop()
