"""The stage: interviews, clocks and held reveals, recorded in the log and read back."""

from __future__ import annotations

from pathlib import Path

from companion.rules.prison.views import table
from companion.session.session import Session
from tests import stage_helpers as stage
from tests.conftest import demo_session


def _to_search(session: Session, works: str) -> None:
    names = table(session.state)["active"]
    for name in names:
        choice = "work" if name == works else "rest"
        session.submit({"do": "choose", "prisoner": name, "choice": choice})
    session.submit({"do": "close_planning"})


def test_an_interview_ends_when_it_is_sent_out_and_its_clock_pauses_and_extends(
    tmp_path: Path,
) -> None:
    session = demo_session(tmp_path)
    try:
        _to_search(session, works="")
        first = table(session.state)["active"][0]
        stage.call_in(session, first, 120, now=1000.0)
        now = stage.stage_of(session)
        assert now.interview is not None and now.interview.prisoner == first
        assert now.interview.clock.remaining(1030.0) == 90.0
        stage.pause(session, "interview", now=1030.0)
        assert stage.stage_of(session).clock("interview").remaining(5000.0) == 90.0  # type: ignore[union-attr]
        stage.go_on(session, "interview", now=2000.0)
        stage.extend(session, "interview", 30, now=2000.0)
        clock = stage.stage_of(session).clock("interview")
        assert clock is not None and clock.remaining(2000.0) == 120.0 and clock.seconds == 150
        before = table(stage.room_state(session))
        session.submit({"do": "interview", "prisoner": first, "deal": True})
        # recorded while they are still in: the room's interview goes on, as without a deal
        assert stage.stage_of(session).interview is not None
        assert table(stage.room_state(session)) == before
        stage.send_out(session, now=2010.0)
        assert stage.stage_of(session).interview is None
        assert table(stage.room_state(session)) == table(session.state)
    finally:
        session.close()


def test_a_search_is_held_until_the_game_master_steps_through_it(tmp_path: Path) -> None:
    session = demo_session(tmp_path)
    try:
        worker = table(session.state)["active"][0]
        _to_search(session, works=worker)
        before = table(session.state)
        session.submit({"do": "search", "prisoner": worker})
        assert table(stage.room_state(session)) == before  # nothing of it shows yet
        held = stage.held_reveal(session)
        assert held is not None and held.caught and held.shown == 0
        assert stage.stage_view(stage.stage_of(session))["reveal"] is None
        seen = []
        while stage.held_reveal(session) is not None:
            stage.step_reveal(session)
            seen.append(stage.stage_view(stage.stage_of(session))["reveal"])
        assert seen[0] is not None and seen[0]["caught"] is None  # "the warden searches…"
        assert seen[1] is not None and seen[1]["caught"] is True
        assert table(stage.room_state(session)) == table(session.state)
    finally:
        session.close()


def test_the_stage_comes_back_after_reopening_and_an_undone_search_is_forgotten(
    tmp_path: Path,
) -> None:
    session = demo_session(tmp_path)
    path = session.store.path
    worker = table(session.state)["active"][1]
    _to_search(session, works=worker)
    session.submit({"do": "search", "prisoner": worker})
    stage.step_reveal(session)
    session.close()
    again = Session.open(path)
    try:
        reveal = stage.held_reveal(again)
        assert (
            reveal is not None and reveal.shown == 1 and reveal.hseq in stage.stage_of(again).seen
        )
        again.undo()
        assert stage.stage_of(again).reveal is None
        assert table(stage.room_state(again)) == table(again.state)
    finally:
        again.close()


def test_the_planning_limit_counts_down_and_closing_planning_ends_it(tmp_path: Path) -> None:
    session = demo_session(tmp_path)
    try:
        stage.limit_planning(session, 300, now=100.0)
        clock = stage.stage_of(session).planning
        assert clock is not None and clock.remaining(400.0) == 0.0
        assert stage.stage_of(session).running() == "planning"
        session.submit({"do": "close_planning"})
        assert stage.stage_of(session).planning is None
    finally:
        session.close()
