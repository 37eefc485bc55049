"""Rehearsal bots play a whole session through the real phone server on 127.0.0.1, while a
scripted game master does the console's part through the session."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import seats_of
from companion.sim.rehearsal import PhoneBots, PhoneSeat
from companion.web.prison.server import start_phone_server
from tests import stage_helpers as stage


async def game_master(session: Any, bots: PhoneBots) -> None:
    """Close planning once everyone chose; call each prisoner in and, once the warden's bot
    has considered them, record the interview (no deal, unless her phone made one) and end it;
    step through each reveal; end each day. The bots do the rest on their phones."""
    while not session.state.over or stage.held_reveal(session) is not None:
        state = session.state
        day = state.day
        inside = stage.stage_of(session).interview
        if stage.held_reveal(session) is not None:
            stage.step_reveal(session)
        elif state.phase == "planning" and all(n in day.choices for n in state.active()):
            session.submit({"do": "close_planning"})
        elif state.phase == "interviews" and inside is None:
            seen = {n for n, _ in day.interviews}
            waiting = [n for n in state.active() if n not in seen]
            if waiting:
                stage.call_in(session, waiting[0], 120)
        elif state.phase == "interviews" and inside is not None:
            if (day.number, inside.prisoner) in bots.considered and bots.idle():
                # as the console does: record no deal unless the warden's phone made one, then
                # end the interview (a record made while the prisoner is in ends nothing)
                if inside.prisoner not in {n for n, _ in day.interviews}:
                    session.submit({"do": "interview", "prisoner": inside.prisoner, "deal": False})
                stage.send_out(session)
        elif state.phase == "accusations":
            session.submit({"do": "end_day"})
        await asyncio.sleep(0.005)


async def test_bots_play_a_whole_session_through_the_phone_api(tmp_path: Path) -> None:
    session = create_prison_session(
        tmp_path, "rehearsal", "classic", "Wendy", ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"],
        rules_overrides={"min_prisoners": 4, "max_prisoners": 6, "nights_to_escape": 9},
    )
    server = await start_phone_server(session, "127.0.0.1", 0)
    try:
        seats = [PhoneSeat(s.name, s.role, s.token) for s in seats_of(session)]
        bots = PhoneBots(
            f"http://127.0.0.1:{server.port}", seats, mix="cutthroat", seed=4, pace=0.0,
            poll=0.005,
        )
        players = asyncio.create_task(bots.run())
        await asyncio.wait_for(game_master(session, bots), timeout=60)
        await asyncio.wait_for(players, timeout=10)
    finally:
        await server.stop()

    state = session.state
    assert state.over and state.outcome in ("escape", "parole", "all_caught")
    rows = [r.body for r in session.rows if r.kind == "command"]
    by = {r["command"]["do"]: set() for r in rows}
    for r in rows:
        by[r["command"]["do"]].add(r["by"])
    # Every choice and search came from a phone; the game master did the rest.
    assert by["choose"] <= {f"phone:{n}" for n in state.roster} and len(by["choose"]) >= 4
    assert by["search"] <= {"phone:Wendy"}
    assert by["close_planning"] == {"gm"}
    deals = [r for r in rows if r["command"]["do"] == "interview" and r["command"]["deal"]]
    assert deals and all(r["by"] == "phone:Wendy" for r in deals)
    assert bots.refusals == []  # the warden dealt only with whoever the game master called in
    # What the bots did is exactly what the session recorded from the phones.
    choices = [a for a in bots.actions if a[1] == "choice"]
    assert len(choices) == len([r for r in rows if r["by"].startswith("phone:")
                                and r["command"]["do"] == "choose"])
    session.close()


def test_rehearse_refuses_bad_input_in_one_sentence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from companion.cli.main import main

    real = create_prison_session(tmp_path, "friday", "classic", "Wendy", ["A", "B", "C", "D"])
    real.close()
    before = (tmp_path / "friday.sqlite").read_bytes()
    cases = [
        (["--pace", "slow"], "--pace must be a number of seconds"),
        (["--pace", "-1"], "--pace must be between 0 and 600"),
        (["--prisoners", "1"], "--prisoners must be between 2 and 60"),
        (["--mix", "wild"], "There is no mix called 'wild'"),
        (["--scenario", "nowhere"], "There is no scenario called 'nowhere'"),
        (["--name", "friday"], "exists and is not a rehearsal"),
    ]
    for argv, words in cases:
        status = main(["--data-dir", str(tmp_path), "rehearse", *argv])
        out, err = capsys.readouterr()
        lines = err.strip().splitlines()
        assert status == 2 and out == "" and len(lines) == 1, (argv, err)
        assert words in lines[0] and lines[0].endswith("."), lines[0]
    assert (tmp_path / "friday.sqlite").read_bytes() == before
