"""Changing the house player between rounds never relabels the past: each revealed round keeps
the strategy that played it, on the phones, the board, the API, the CSV and the Markdown
summary; the strategy it plays now shows for the round being played, or the next."""

from __future__ import annotations

import csv
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from companion.cli.main import main
from companion.session.session import Session
from companion.web.common.context import Limiter
from companion.web.dilemma.joins import JoinLimiter
from companion.web.dilemma.server import build_dilemma_app
from tests.dilemma_helpers import scenario
from tests.web.dilemma.conftest import ROOM_OF_PHONES
from tests.web.dilemma.test_server import join

TFT, AB = "House (Tit for Tat)", "House (Always Betray)"


def play_round(session: Session, seed: int) -> None:
    session.submit({"do": "start_round", "seed": seed})
    for pid in session.state.waiting():
        session.submit({"do": "choose", "pid": pid, "choice": "silent"})


async def test_a_new_house_strategy_leaves_the_revealed_rounds_as_they_were_played(
    tmp_path: Path,
) -> None:
    session = Session.create(tmp_path / "hall.sqlite", "dilemma", {"rules": scenario(rounds=3)})
    app = build_dilemma_app(
        session,
        base="http://192.0.2.7:8765",
        limiter=Limiter(5, 60.0),
        joins=JoinLimiter(ROOM_OF_PHONES, ROOM_OF_PHONES),
    )
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        tokens = {name: await join(client, name) for name in ["Ann", "Bob", "Cy"]}
        play_round(session, 1)
        play_round(session, 2)
        faced = session.state.name(session.state.current.partner("~house1"))  # type: ignore[union-attr]
        session.submit({"do": "set_house", "strategy": "always_betray"})  # before round 3

        view = await (await client.get("/api/board")).json()
        (house_row,) = [o for o in view["last"]["outcomes"] if o["house_a"] or o["house_b"]]
        names = (house_row["a"], house_row["b"])
        assert TFT in names and AB not in names
        assert "tit_for_tat" in (house_row["strategy_a"], house_row["strategy_b"])
        assert view["house"]["strategy"] == "always_betray"  # what it plays next
        assert view["house"]["played"] == ["tit_for_tat"]
        board = await (await client.get("/board")).text()
        assert f'class="who house">{TFT}' in board and AB not in board
        phone = await (await client.get(f"/d/{tokens[faced]}")).text()
        assert f"{TFT} (the house player)" in phone and AB not in phone
        me = (await (await client.get(f"/api/d/{tokens[faced]}")).json())["me"]
        faced_house = [r for r in me["rounds"] if r["house"]]
        assert faced_house and {r["opponent"] for r in faced_house} == {TFT}

        session.submit({"do": "start_round", "seed": 3})  # the current round: the new strategy
        board = await (await client.get("/board")).text()
        assert f"{AB} is the house player" in board
        for pid in session.state.waiting():
            session.submit({"do": "choose", "pid": pid, "choice": "silent"})
        assert session.state.phase == "over"
        board = await (await client.get("/board")).text()
        assert "House (Tit for Tat and Always Betray), the house player" in board
        view = await (await client.get("/api/board")).json()
        (house_row,) = [o for o in view["last"]["outcomes"] if o["house_a"] or o["house_b"]]
        assert AB in (house_row["a"], house_row["b"])
    session.close()

    out = tmp_path / "out.csv"
    assert main(["--data-dir", str(tmp_path), "dilemma", "hall", "--export", str(out)]) == 0
    with out.open(encoding="utf-8") as handle:
        houses = {
            (row["round"], row["partner"]) for row in csv.DictReader(handle)
            if row["partner_house"] == "True"
        }
    assert houses == {("1", TFT), ("2", TFT), ("3", AB)}
    summary = (tmp_path / "out.md").read_text(encoding="utf-8")
    assert "House (Tit for Tat and Always Betray), the house player:" in summary
    assert "It plays Tit for Tat:" in summary and "It plays Always Betray:" in summary
