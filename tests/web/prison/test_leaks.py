"""The leak test: whole games walked through the phone server, checking at every step every
seat's API answer, HTML page, live part and event stream, and the board's, against the spec's
"Who may see what" table.

Two kinds of check:
- what a seat may see is there (its own parole tokens and choice; the warden's tokens; the
  submitted count; the public results);
- what a seat may not see makes no difference: the exact bytes served are the bytes the same
  seat would get from a state whose hidden secrets (others' choices, others' parole tokens,
  others' deals) were changed. Nothing served can then depend on them.

A prisoner's stream sends the whole view and part, or a patch of the page's texts when only the
counts changed (:mod:`tests.web.prison.pages_held` applies it as the page does): the page it
leaves is checked as above, and every patch is the same for every prisoner (nothing of a seat
in it) and the same from a state whose secrets were changed.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from companion.language import language
from companion.rules.prison.room import (
    board_room_view,
    seat_room_view,
    stage_view,
    taken_back_view,
)
from companion.rules.prison.state import Day, PrisonState
from companion.rules.prison.views import table
from companion.session.prison.seats import Seat, seats_of
from companion.web.prison.api import progress_texts
from companion.web.prison.pages import (
    render_board_page,
    render_board_part,
    render_seat_page,
    render_seat_part,
)
from companion.web.prison.phones import COUNTS, NIGHT, room_version
from companion.web.prison.server import build_app
from tests.conftest import demo_session
from tests.stage_helpers import call_in, held_reveal, room_state, step_reveal
from tests.web.prison.pages_held import Held

ROSTER = ["Ada", "Ben <b>", "Cy", "Dee"]  # a name that must never reach a page as markup
BASE = "http://192.0.2.7:8765"
Perturb = Callable[[PrisonState], PrisonState]
NOW = 2_000_000_000.0  # the countdowns' "now", pinned: every answer is the same bytes


# ---- secrets changed -----------------------------------------------------------------------


def _days(state: PrisonState, change: Callable[[Day], Day]) -> PrisonState:
    return replace(state, day=change(state.day), past=tuple(change(d) for d in state.past))


def flip_choices(names: set[str]) -> Perturb:
    """Everyone in ``names`` chose the other way, on every day (who chose stays the same)."""

    def day(d: Day) -> Day:
        flipped = {
            n: ("rest" if c == "work" else "work") if n in names else c
            for n, c in d.choices.items()
        }
        return replace(d, choices=MappingProxyType(flipped))

    return lambda state: _days(state, day)


def more_tokens(names: set[str]) -> Perturb:
    def change(state: PrisonState) -> PrisonState:
        prisoners = {
            n: replace(p, parole_tokens=p.parole_tokens + 7) if n in names else p
            for n, p in state.prisoners.items()
        }
        return replace(state, prisoners=MappingProxyType(prisoners))

    return change


def flip_deals(names: set[str]) -> Perturb:
    def day(d: Day) -> Day:
        return replace(d, interviews=tuple((n, deal != (n in names)) for n, deal in d.interviews))

    return lambda state: _days(state, day)


def other_names(names: set[str], roster: list[str]) -> Perturb:
    """Every informant in ``names`` named the others instead (and each deal in ``names`` that
    named nobody named everyone else)."""

    def day(d: Day) -> Day:
        said = dict(d.named)
        for informant, deal in d.interviews:
            if deal and informant not in said:
                said[informant] = ()
        named = tuple(
            (n, tuple(x for x in roster if x != n and x not in who)) if n in names else (n, who)
            for n, who in said.items()
        )
        return replace(d, named=named)

    return lambda state: _days(state, day)


def hidden_from(seat: Seat | None, roster: list[str], over: bool = False) -> list[Perturb]:
    """The secrets the spec hides from a seat (``None``: the board). Whom an informant named
    is the warden's and the game master's; once the game is over a prisoner's own part tells
    them whom they named (the board tells it only in the epilogue, never stepped here)."""
    everyone = set(roster)
    if seat is None:
        return [
            flip_choices(everyone), more_tokens(everyone), flip_deals(everyone),
            other_names(everyone, roster),
        ]
    if seat.role == "warden":
        return [flip_choices(everyone)]
    others = everyone - {seat.name}
    return [
        flip_choices(others), more_tokens(others), flip_deals(others),
        other_names(others if over else everyone, roster),
    ]


# ---- what is served ------------------------------------------------------------------------


def roundtrip(data: Any) -> Any:
    return json.loads(json.dumps(data))


def keys_in(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_in(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_in(v)}
    return set()


async def read_until(stream: ClientResponse, held: Held, version: int) -> None:
    """Events from an open stream into the page ``held``, until the one for ``version``."""
    fields: dict[str, Any] = {}
    while True:
        raw = await asyncio.wait_for(stream.content.readline(), 10)
        line = raw.decode().rstrip("\n")
        if line.startswith((":", "retry:")):
            continue
        if line:
            key, _, value = line.partition(": ")
            fields[key] = value
            continue
        if fields.get("event") == "beat":  # the heartbeat, as a comment was before
            fields = {}
        elif "event" in fields:
            held.take(fields["event"], json.loads(fields["data"]), fields.get("id"))
            if int(fields["id"]) == version:
                return
            fields = {}


def without_counts(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in COUNTS}


class Walk:
    def __init__(self, client: TestClient, session: Any) -> None:
        self.client = client
        self.session = session
        self.seats = seats_of(session)
        self.streams: dict[str, ClientResponse] = {}
        self.pages: dict[str, Held] = {}
        self.patches = 0  # patches the prisoners' pages took (the counts' line)
        self.ahead: Any = None  # the interview recorded while the prisoner is in, at the last check

    def token(self, name: str) -> str:
        return next(s.token for s in self.seats if s.name == name)

    async def open_streams(self) -> None:
        for s in self.seats:
            self.streams[s.name] = await self.client.get(f"/api/p/{s.token}/events")
            self.pages[s.name] = Held()
        self.streams[""] = await self.client.get("/api/board/events")
        self.pages[""] = Held()

    async def event(self, name: str, version: int) -> Held:
        """The stream's page as of ``version`` (as it was if nothing changed since)."""
        held = self.pages[name]
        if held.id is None or int(held.id) != version:
            held.patches.clear()
            await read_until(self.streams[name], held, version)
        return held

    def close_streams(self) -> None:
        for stream in self.streams.values():
            stream.close()

    async def get(self, path: str) -> str:
        r = await self.client.get(path)
        assert r.status == 200, path
        return await r.text()

    async def check(self) -> None:
        state = room_state(self.session)  # what the room may see: a held search stays out
        # the room's version: an interview recorded while the prisoner is still in is not
        # counted until it ends (only the warden's pages hear of it, at the same version)
        version = room_version(self.session)
        room = self.session.room
        if room.ahead is not None and room.ahead is not self.ahead:
            self.pages["Wendy"].id = None  # the warden's page hears of it, at the same id
        self.ahead = room.ahead
        for s in self.seats:
            game = room.warden_game if s.role == "warden" else state
            await self.check_seat(game, version, s)
        await self.check_board(state, version)

    async def check_seat(self, state: PrisonState, version: int, s: Seat) -> None:
        api = json.loads(await self.get(f"/api/p/{s.token}"))
        page = await self.get(f"/p/{s.token}")
        part = await self.get(f"/p/{s.token}/part")
        held = await self.event(s.name, version)
        stage = stage_view(self.session.room.stage, NOW)
        assert api == roundtrip(seat_room_view(state, s.role, s.name, stage))
        assert held.html == part
        assert held.view is not None
        if s.role == "prisoner" and held.patches:  # its counts' line patched since its view
            assert without_counts(held.view) == without_counts(api)
        else:  # the warden's page is patched no texts: only moved on
            assert not any(held.patches)
            assert held.view == api
        self.patches += sum(1 for patch in held.patches if patch)
        for patch in held.patches:  # the room's counts only, made from nothing hidden
            assert patch == {} or patch == progress_texts(table(state), language())
            for change in hidden_from(s, ROSTER, state.over):
                assert patch == {} or patch == progress_texts(table(change(state)), language())
        # What the spec hides from this seat makes no difference to any byte served.
        for change in hidden_from(s, ROSTER, state.over):
            other = seat_room_view(change(state), s.role, s.name, stage)
            assert roundtrip(other) == api
            assert render_seat_part(other, s) == part
            assert render_seat_page(other, s, None, version) == page
        # What it may see is there.
        assert "choices" not in keys_in(api) and "story" not in keys_in(api)
        if s.role == "prisoner":
            me = state.prisoners[s.name]
            assert api["me"]["parole_tokens"] == me.parole_tokens
            assert f'<dd id="my-parole">{me.parole_tokens}</dd>' in part
            assert "parole_tokens" not in api and "deal_history" not in api
            chosen = state.day.choices.get(s.name)
            if state.phase == "planning" and chosen and me.active:
                assert f"Saved: you {chosen.upper()} tonight." in part
        else:
            tokens = {n: p.parole_tokens for n, p in state.prisoners.items()}
            assert api["parole_tokens"] == tokens
            for p in state.prisoners.values():
                assert f"<td>{p.shivs}</td><td>{p.parole_tokens}</td>" in part

    async def check_board(self, state: PrisonState, version: int) -> None:
        api = json.loads(await self.get("/api/board"))
        page = await self.get("/board")
        part = await self.get("/board/part")
        held = await self.event("", version)
        stage = stage_view(self.session.room.stage, NOW)
        phones = {"connected": len(self.seats), "seats": len(self.seats)}  # every stream open
        undone = taken_back_view(self.session.room.stage)  # what the room saw, if an undo

        def board_view_of(state: PrisonState, stage: Any, phones: Any) -> Any:
            return board_room_view(state, stage, phones, undone)

        assert api == roundtrip(board_view_of(state, stage, phones))
        assert (held.view, held.html) == (api, part)
        assert not any(held.patches)  # a board's page is patched no texts: only moved on
        assert not {"parole_tokens", "choices", "choice", "me", "deals_today"} & keys_in(api)
        for change in hidden_from(None, ROSTER):
            other = board_view_of(change(state), stage, phones)
            assert roundtrip(other) == api
            assert render_board_part(other, BASE) == part
            assert render_board_page(other, BASE, None, version) == page
        if state.phase == "planning":
            chosen = sum(1 for n in state.active() if n in state.day.choices)
            active = len(state.active())
            has = "has" if chosen == 1 else "have"  # the verb agrees with who chose
            assert f"{chosen} of {active} prisoners {has} chosen" in part
        for worker in state.day.workers:
            assert worker.replace("<", "&lt;").replace(">", "&gt;") in part


# ---- the games -----------------------------------------------------------------------------


async def phone(walk: Walk, who: str, action: str, body: dict[str, Any]) -> bool:
    r = await walk.client.post(f"/api/p/{walk.token(who)}/{action}", json=body)
    assert r.status in (200, 409), await r.text()
    return r.status == 200


async def random_step(walk: Walk, rng: random.Random) -> None:
    state = walk.session.state
    gm = walk.session.submit
    active = state.active() or list(state.roster)
    pick = rng.choice(active)
    if held_reveal(walk.session) is not None and rng.random() < 0.5:
        step_reveal(walk.session, now=NOW)  # the game master shows the room the next step
    elif rng.random() < 0.06 or state.over:
        walk.session.undo()
    elif state.phase == "planning":
        if rng.random() < 0.75:
            await phone(walk, pick, "choice", {"choice": rng.choice(["work", "rest"])})
        else:
            gm({"do": "close_planning"})
    elif state.phase in ("interviews", "search"):
        roll = rng.random()
        if state.phase == "interviews" and roll < 0.35:
            call_in(walk.session, pick, 90, now=NOW)  # the game master calls a prisoner in
            await walk.check()
            others = [n for n in active if n != pick]
            named = rng.sample(others, rng.randint(0, len(others)))  # whom the informant named
            await phone(walk, state.warden, "deal", {"prisoner": pick, "named": named})
        elif state.phase == "interviews" and roll < 0.55:
            gm({"do": "interview", "prisoner": pick, "deal": False})
        else:
            await phone(walk, state.warden, "search", {"prisoner": pick})
    elif state.phase == "accusations":
        if rng.random() < 0.4:
            gm({"do": "accuse", "accuser": pick, "accused": rng.choice(active)})
        else:
            gm({"do": "end_day"})


@pytest.fixture
async def walk(tmp_path: Path):
    session = demo_session(tmp_path, "leak", ROSTER)
    app = build_app(session, base=BASE)
    app[NIGHT].clock = lambda: NOW
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        w = Walk(client, session)
        await w.open_streams()
        yield w
        w.close_streams()
    session.close()


@pytest.mark.parametrize(
    "seed", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)]
)
async def test_random_games_leak_nothing(walk: Walk, seed: int) -> None:
    rng = random.Random(seed)
    await walk.check()
    for _ in range(70):
        was_over = walk.session.state.over
        await random_step(walk, rng)
        await walk.check()
        if was_over and walk.session.state.over:
            break


async def test_a_full_game_with_parole_and_shivs_leaks_nothing(walk: Walk) -> None:
    gm = walk.session.submit
    ben = "Ben <b>"
    await walk.check()
    for day in range(1, 4):
        for name, choice in [("Ada", "work"), (ben, "rest"), ("Cy", "work"), ("Dee", "rest")]:
            if name in walk.session.state.active():
                assert await phone(walk, name, "choice", {"choice": choice})
                await walk.check()
        assert await phone(walk, "Ada", "choice", {"choice": "rest"})  # a change of mind
        await walk.check()
        gm({"do": "close_planning"})
        await walk.check()
        call_in(walk.session, ben, 120, now=NOW)
        await walk.check()
        named = [n for n in ("Cy", "Ada") if n in walk.session.state.active()]
        assert await phone(walk, "Wendy", "deal", {"prisoner": ben, "named": named})
        await walk.check()
        if walk.session.state.over:
            break
        target = "Dee" if day == 1 else "Cy"
        assert await phone(walk, "Wendy", "search", {"prisoner": target})
        await walk.check()
        while step_reveal(walk.session, now=NOW) is not None:  # the game master reveals it
            await walk.check()
        if walk.session.state.over:
            break
        if day == 1:
            gm({"do": "accuse", "accuser": "Dee", "accused": "Cy"})  # no tokens: shiv passes
            await walk.check()
        gm({"do": "end_day"})
        await walk.check()
    state = walk.session.state
    assert state.over and state.outcome == "parole" and state.winners == (ben, "Wendy")
    assert all(dict(d.named).get(ben) for d in state.days)  # whom Ben named, each day
    assert walk.patches > 0  # the others' choices reached each prisoner as a patch
    walk.session.undo()
    await walk.check()
    assert not walk.session.state.over
