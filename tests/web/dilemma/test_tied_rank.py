"""Each phone says its rank among everyone, and when others share it, how many (over HTTP, in a
room where the sentences tie players)."""

from __future__ import annotations

from aiohttp.test_utils import TestClient

from companion.session.session import Session
from tests.web.dilemma.test_server import choose, join


async def _said(client: TestClient, token: str) -> str:
    r = await client.get(f"/d/{token}/part")
    assert r.status == 200
    return " ".join((await r.text()).replace("\xa0", " ").split())


async def test_a_tied_rank_says_how_many_share_it(client: TestClient, session: Session) -> None:
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
    tokens = {name: await join(client, name) for name in names}
    session.submit({"do": "start_round", "seed": 3})
    for token in tokens.values():
        await choose(client, token, "silent")  # every pair both silent: all six tie
    assert session.state.phase == "revealed"
    for token in tokens.values():
        assert "rank 1 of 6, tied with 5 others" in await _said(client, token)
    # Round 2, the last: one pair betrays each other, so four tie first and two tie fifth.
    session.submit({"do": "start_round", "seed": 4})
    opened = session.state.open_round()
    assert opened is not None
    pid_of = {p.name: p.pid for p in session.state.players}
    first = pid_of["Ann"]
    partner = opened.partner(first)
    assert partner is not None
    for name, token in tokens.items():
        await choose(client, token, "betray" if pid_of[name] in (first, partner) else "silent")
    assert session.state.phase == "over"
    ann = await _said(client, tokens["Ann"])
    other = next(n for n in names if pid_of[n] not in (first, partner))
    assert "served, rank 5 of 6, tied with 1 other</span>" in ann, ann  # the heading
    assert "in all: rank 5 of 6, tied with 1 other." in ann, ann  # the final sentence
    assert "in all: rank 1 of 6, tied with 3 others." in await _said(client, tokens[other])


async def test_a_rank_nobody_shares_says_no_tie(client: TestClient, session: Session) -> None:
    tokens = [await join(client, name) for name in ("Ann", "Bob")]
    session.submit({"do": "start_round", "seed": 1})
    await choose(client, tokens[0], "silent")
    await choose(client, tokens[1], "betray")
    for token in tokens:
        said = await _said(client, token)
        assert "rank" in said and "tied" not in said, said
