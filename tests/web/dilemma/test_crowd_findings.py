"""What a 30-player evening found, checked through the faces (the phone's and the board's
HTTP pages, the exported files): no rank before anything is served; a player removed before
playing is on no results and in no export, but stays in the log."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from aiohttp.test_utils import TestClient

from companion.cli.main import main
from companion.rules.dilemma.leaderboard import leaderboard
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


async def test_the_debriefs_tit_for_tat_sentence_is_what_its_row_says(
    client: TestClient, session: Session
) -> None:
    """Four players, new partners each round: Tit for Tat copies the last partner's move, so
    it can serve less than the next one. The sentence under the debrief says how often it did,
    and that is its row of the table above it; the room's figure is the leaderboard's mean."""
    tokens = {name: await join(client, name) for name in ("Ann", "Bob", "Cy", "Dee")}
    pids = {p.name: p.pid for p in session.state.players}
    names = {pid: name for name, pid in pids.items()}
    for n, betrayers in enumerate(({"Ann", "Bob"}, set(), {"Cy"})[: session.state.rules.rounds]):
        session.submit({"do": "start_round", "seed": 40 + n})
        for pid in list(session.state.waiting()):
            name = names[pid]
            await choose(client, tokens[name], "betray" if name in betrayers else "silent")
    if session.state.phase != "over":
        session.submit({"do": "end"})
    page = await _part(client, tokens["Ann"])
    debrief = page.split('id="debrief"', 1)[1].split("</section>", 1)[0]
    row = debrief.split("Tit for Tat", 1)[1].split("</tr>", 1)[0]
    ahead, rounds = map(int, re.findall(r"<td>(\d+) of (\d+)</td>", row)[0])
    sentence = re.search(r'id="tit-for-tat">([^<]*)<', debrief)
    assert sentence is not None
    assert f"less than its partner in {ahead} of {rounds} round" in sentence.group(1)
    assert "never" not in sentence.group(1)
    totals = [row["months"] for row in leaderboard(session.state)]
    assert f"as the room served {sum(totals) / len(totals):.1f}." in debrief


def test_the_room_served_one_figure_with_missed_rounds_everywhere(tmp_path: Path, capsys) -> None:
    """Lou joins after round 1 and serves it as missed: the debrief's figure for the room is
    the leaderboard's mean with it, on the phone's page and in the exported summary alike, and
    every mean is written with one decimal (21.0, not 21, beside 6.6)."""
    from companion.rules.dilemma.views import public
    from companion.web.dilemma.pages import render_results

    s = Session.create(tmp_path / "hall.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    for i, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    s.submit({"do": "start_round", "seed": 5})
    for pid in list(s.state.waiting()):
        s.submit({"do": "choose", "pid": pid, "choice": "betray" if pid == "p0" else "silent"})
    s.submit({"do": "join", "pid": "p4", "name": "Lou"})
    s.submit({"do": "start_round", "seed": 6})
    for pid in list(s.state.waiting()):
        s.submit({"do": "choose", "pid": pid, "choice": "silent"})
    assert s.state.phase == "over"
    totals = [row["months"] for row in leaderboard(s.state)]  # the house is not on it
    assert len(totals) == 5
    mean = f"{sum(totals) / len(totals):.1f}"
    phone = render_results(public(s.state).board)
    s.close()
    assert main(["--data-dir", str(tmp_path), "dilemma", "hall", "--export",
                 str(tmp_path / "out.csv")]) == 0
    summary = (tmp_path / "out.md").read_text(encoding="utf-8")
    for face in (phone, summary):
        assert f"as the room served {mean}." in face
        table = face.split("Had a famous strategy", 1)[1]
        figures = re.findall(r"(?:<td>|\| )(\d+(?:\.\d+)?)(?:</td>| \|)", table)
        decimals = [f for f in figures if "." in f]
        assert decimals and all(len(f.split(".")[1]) == 1 for f in decimals)
    capsys.readouterr()


async def test_the_phone_lists_the_rules_once_in_every_phase(
    client: TestClient, session: Session
) -> None:
    tokens = [await join(client, name) for name in ("Ann", "Bob", "Cy")]  # the house: a fourth
    assert (await _part(client, tokens[0])).count("Both silent:") == 1  # the lobby
    session.submit({"do": "start_round", "seed": 9})
    for token in tokens:
        assert (await _part(client, token)).count("Both silent:") == 1  # choosing
    for token in tokens:
        await choose(client, token, "silent")
    assert session.state.phase == "revealed"
    assert (await _part(client, tokens[0])).count("Both silent:") == 1
