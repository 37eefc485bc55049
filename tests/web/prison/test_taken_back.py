"""After an undo the board says what the game master took back, as the room had seen it, until
the next change; never anything secret: an undone deal reads as the undone interview it was
for the room (the same bytes as an undone interview without a deal), an undone secret choice
or an unrevealed search says nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.session.session import Session
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.stage_helpers import call_in, send_out, step_reveal

NOW = 2_000_000_000.0
ROSTER = ["Ada", "Ravi <b>", "Cy", "Dee"]


def session_in(folder: Path) -> Any:
    return demo_session(folder, "t", ROSTER)


async def board(session: Session) -> tuple[str, Any]:
    app = build_app(session, base="http://192.0.2.7:8765")
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        part = await (await client.get("/board/part")).text()
        api = await (await client.get("/api/board")).json()
    return part, api


def took_back(part: str) -> str | None:
    if 'id="took-back">' not in part:
        return None
    return part.split('id="took-back">')[1].split("</p>")[0]


async def test_an_undone_accusation_is_told_on_the_board_until_the_next_change(
    tmp_path: Path,
) -> None:
    session = session_in(tmp_path)
    session.submit({"do": "close_planning"})
    session.submit({"do": "search", "prisoner": "Dee"})
    step_reveal(session, to_end=True, now=NOW)
    part, api = await board(session)
    assert took_back(part) is None and api["taken_back"] is None
    session.submit({"do": "accuse", "accuser": "Ravi <b>", "accused": "Ada"})
    session.undo()
    part, api = await board(session)
    assert took_back(part) == "The game master took back Ravi &lt;b&gt;&#39;s accusation of Ada."
    assert api["taken_back"] == {"kind": "accuse", "prisoner": "Ravi <b>", "accused": "Ada"}
    assert "accused Ada" not in part  # the accusation itself is gone from today's results
    session.submit({"do": "accuse", "accuser": "Cy", "accused": "Ada"})  # the next change
    part, api = await board(session)
    assert took_back(part) is None and api["taken_back"] is None
    session.undo()
    assert took_back((await board(session))[0]) is not None
    session.submit({"do": "end_day"})
    session.undo()  # the end of the day, taken back
    part, __ = await board(session)
    assert took_back(part) == "The game master took back the end of the day."
    session.close()


@pytest.mark.parametrize("deal", [True, False])
async def test_an_undone_deal_reads_as_the_interview_the_room_saw(
    tmp_path: Path, deal: bool
) -> None:
    session = session_in(tmp_path / str(deal))
    session.submit({"do": "close_planning"})
    call_in(session, "Cy", 90, now=NOW)
    session.submit({"do": "interview", "prisoner": "Cy", "deal": deal, "named": ["Ada"] * deal})
    send_out(session, now=NOW)  # the room sees the interview end, and so its record
    session.undo()
    part, api = await board(session)
    assert took_back(part) == "The game master took back Cy&#39;s interview."
    assert api["taken_back"] == {"kind": "interview", "prisoner": "Cy", "accused": ""}
    assert "deal" not in took_back(part).lower()  # type: ignore[union-attr]
    session.close()


async def test_the_same_board_after_an_undone_deal_or_none(tmp_path: Path) -> None:
    parts = []
    for deal in (True, False):
        session = session_in(tmp_path / str(deal))
        session.submit({"do": "close_planning"})
        session.submit({"do": "interview", "prisoner": "Cy", "deal": deal})
        session.undo()
        parts.append(await board(session))
        session.close()
    assert parts[0] == parts[1]


async def test_an_undone_secret_choice_or_unshown_search_says_nothing(tmp_path: Path) -> None:
    session = session_in(tmp_path)
    session.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
    session.undo()
    assert took_back((await board(session))[0]) is None
    session.submit({"do": "close_planning"})
    session.submit({"do": "search", "prisoner": "Ada"})  # held: the room has seen nothing yet
    session.undo()
    assert took_back((await board(session))[0]) is None
    session.submit({"do": "search", "prisoner": "Cy"})
    step_reveal(session, now=NOW)  # the room saw "The warden searches Cy's cell…" only
    session.undo()
    part, __ = await board(session)
    assert took_back(part) == "The game master took back the search of Cy&#39;s cell."
    session.close()
