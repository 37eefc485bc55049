"""What the warm-up server's tests share: a two-round tournament and a client for its app."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.session.session import Session
from companion.web.common.context import Limiter
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import build_dilemma_app
from tests.dilemma_helpers import scenario


@pytest.fixture
def session(tmp_path: Path):
    s = Session.create(tmp_path / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    yield s
    s.close()


# Every test phone comes from 127.0.0.1: a room of separate phones, not one device's flood
# (tests/web/dilemma/test_flood.py tries the limit on joins per address).
ROOM_OF_PHONES = 10**6


@pytest.fixture
async def client(session: Session):
    app = build_dilemma_app(
        session,
        base="http://192.0.2.7:8765",
        limiter=Limiter(5, 60.0),
        joins=JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES),
    )
    async with TestClient(TestServer(app, host="127.0.0.1")) as c:
        yield c
