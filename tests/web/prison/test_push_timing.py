"""When the prison's streams hear of a change (``api.urgency``): a move of the game is pushed on
the loop's next turn even right after another push (the group commit gathers the choices that
arrive together), while a phone coming or going waits for the pace, with whatever else comes
meanwhile, so that a room of phones arriving is not a push each."""

from __future__ import annotations

import asyncio
from pathlib import Path

from companion.session.presence import SeatPresence
from companion.session.prison.create import create_prison_session
from companion.web.common.context import Limiter, Presence
from companion.web.common.fanout import PACE
from companion.web.prison.api import start_fanout
from companion.web.prison.phones import NightContext


async def turns(n: int = 3) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_a_move_is_pushed_at_once_and_a_phone_coming_waits_for_the_pace(
    tmp_path: Path,
) -> None:
    session = create_prison_session(tmp_path, "t", "classic", "Wendy", ["Ada", "Ben", "Cy", "Dee"])
    night = NightContext(session, Limiter(), Presence(session))
    fanout = start_fanout(night)
    try:
        fanout.push()
        pushes = night.pushes
        session.submit({"do": "choose", "prisoner": "Ada", "choice": "work"})
        await turns()
        assert night.pushes == pushes + 1, "a choice right after a push is not held back"
        session.submit({"do": "choose", "prisoner": "Ben", "choice": "rest"})
        await turns()
        assert night.pushes == pushes + 2

        session.signal(SeatPresence("Cy", True, 0.0))  # right after a push: waits for the pace
        session.signal(SeatPresence("Dee", True, 0.0))
        await turns()
        assert night.pushes == pushes + 2
        await asyncio.sleep(PACE * 4)
        assert night.pushes == pushes + 3, "the phones that came are told in one push"

        session.signal(SeatPresence("Cy", False, 0.0))  # then a move: both at once, in one push
        session.submit({"do": "choose", "prisoner": "Cy", "choice": "work"})
        await turns()
        assert night.pushes == pushes + 4
        await asyncio.sleep(PACE * 4)
        assert night.pushes == pushes + 4
    finally:
        fanout.close()
        session.close()
