"""What a 30-player evening found, checked through the faces (the phone's and the board's
HTTP pages, the exported files): no rank before anything is served; a player removed before
playing is on no results and in no export, but stays in the log."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from aiohttp.test_utils import TestClient

from companion.cli.main import main
from companion.session.session import Session
from tests.dilemma_helpers import scenario
from tests.web.dilemma.test_server import choose, join

RANK = re.compile(r"rank\s\d")  # "rank 3 of 30", not "not ranked"


async def _part(client: TestClient, token: str) -> str:
    r = await client.get(f"/d/{token}/part")
    assert r.status == 200
    return await r.text()


async def test_no_rank_before_a_round_is_revealed(client: TestClient, session: Session) -> None:
    tokens = [await join(client, name) for name in ("Ann", "Bob", "Cy", "Dee")]
    lobby = await _part(client, tokens[0])
    assert "0 months served" in lobby and not RANK.search(lobby)
    session.submit({"do": "start_round", "seed": 1})
    await choose(client, tokens[0], "silent")
    choosing = await _part(client, tokens[0])
    assert not RANK.search(choosing)  # chosen, but nothing is served until the reveal
    for token in tokens[1:]:
        await choose(client, token, "betray")
    assert session.state.phase == "revealed"
    revealed = await _part(client, tokens[0])
    assert "rank 4 of 4" in revealed or "rank 4 of 4" in revealed.replace("\xa0", " ")


async def test_a_player_removed_in_the_lobby_is_on_no_results(
    client: TestClient, session: Session
) -> None:
    tokens = {name: await join(client, name) for name in ("Ann", "Bob", "Cy", "Kim")}
    kim = next(p.pid for p in session.state.players if p.name == "Kim")
    session.submit({"do": "remove", "pid": kim})
    session.submit({"do": "start_round", "seed": 2})
    for name in ("Ann", "Bob", "Cy"):
        await choose(client, tokens[name], "silent")
    assert session.state.phase == "revealed"
    board = await (await client.get("/board/part")).text()
    phone = await _part(client, tokens["Ann"])
    for page in (board, phone):
        assert "Kim" not in page
    kims = await _part(client, tokens["Kim"])  # her own link still answers, without a rank
    assert not RANK.search(kims)
    logged = [row.body for row in session.store.rows()]
    assert '"Kim"' in str(logged).replace("'", '"')  # the log keeps her join and removal
    assert any("remove" in str(body) and kim in str(body) for body in logged)


def test_the_export_leaves_out_a_player_removed_before_playing(tmp_path: Path, capsys) -> None:
    s = Session.create(tmp_path / "hall.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i, name in enumerate(("Ann", "Bob", "Cy", "Kim", "Lou")):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    s.submit({"do": "remove", "pid": "p3"})  # Kim, in the lobby
    s.submit({"do": "start_round", "seed": 3})
    s.submit({"do": "remove", "pid": "p4"})  # Lou, drawn into round 1: she played
    s.submit({"do": "close_round", "timed_out": True})
    s.close()
    out = tmp_path / "out.csv"
    assert main(["--data-dir", str(tmp_path), "dilemma", "hall", "--export", str(out)]) == 0
    summary = (tmp_path / "out.md").read_text(encoding="utf-8")
    with out.open(encoding="utf-8", newline="") as handle:
        players = {row["player"] for row in csv.DictReader(handle) if row["house"] == "False"}
    assert "Kim" not in summary and "Kim" not in players
    assert "Lou" in summary  # left after being drawn: on the results, marked as gone
    capsys.readouterr()
