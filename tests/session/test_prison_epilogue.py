"""The epilogue on the room's stage: stepped like a held reveal, recorded as ``stage`` notes, so
a session killed with SIGKILL comes back at the same step; nothing of it before the end, and an
undo back to life hides it again."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from companion.rules.prison.room import board_room_view, stage_view
from companion.rules.prison.stage import ShowEpilogue
from companion.session.session import Session
from tests.conftest import demo_session
from tests.stage_helpers import step_reveal

NOW = 2_000_000_000.0
PHONES = {"connected": 0, "seats": 5}


def play_to_the_end(session: Any) -> None:
    """Two days: three work, a search finds Ada resting; then all work and the prisoners
    escape (six nights), with a deal on day 2."""
    for name, choice in [("Ada", "rest"), ("Ben", "work"), ("Cy", "work"), ("Dee", "work")]:
        session.submit({"do": "choose", "prisoner": name, "choice": choice})
    session.submit({"do": "close_planning"})
    session.submit({"do": "search", "prisoner": "Ada"})
    step_reveal(session, to_end=True, now=NOW)
    session.submit({"do": "end_day"})
    for name in ["Ada", "Ben", "Cy", "Dee"]:
        session.submit({"do": "choose", "prisoner": name, "choice": "work"})
    session.stage(ShowEpilogue(NOW, 2))  # not over yet: the room shows nothing of it
    assert session.room.stage.epilogue == 0
    session.submit({"do": "close_planning"})
    session.submit({"do": "interview", "prisoner": "Ben", "deal": True})
    session.submit({"do": "search", "prisoner": "Ada"})


def board(session: Any) -> Any:
    return board_room_view(session.room.game, stage_view(session.room.stage, NOW), PHONES)


def test_the_epilogue_waits_for_the_end_of_the_reveal_then_steps(tmp_path: Path) -> None:
    session = demo_session(tmp_path, "epi")
    play_to_the_end(session)
    assert session.state.over  # the game is over, but the room has not seen the search yet
    assert session.room.epilogue_next(at=NOW) is None
    assert board(session)["epilogue"] is None
    session.stage(ShowEpilogue(NOW, 1))  # a stray act while the reveal is held: nothing
    assert session.room.stage.epilogue == 0
    step_reveal(session, to_end=True, now=NOW)
    view = board(session)["epilogue"]
    assert view is not None and (view["shown"], view["steps"], view["nights"]) == (0, 3, [])
    for shown in (1, 2, 3):
        act = session.room.epilogue_next(at=NOW)
        assert act == ShowEpilogue(NOW, shown)
        session.stage(act)
        view = board(session)["epilogue"]
        assert view is not None and view["shown"] == shown
        assert [n["day"] for n in view["nights"]] == [1, 2][:shown]
        assert (view["end"] is not None) == (shown == 3)
    assert session.room.epilogue_next(at=NOW) is None
    session.close()


def test_esc_shows_it_all_and_an_undo_back_to_life_hides_it(tmp_path: Path) -> None:
    session = demo_session(tmp_path, "epi")
    play_to_the_end(session)
    step_reveal(session, to_end=True, now=NOW)
    act = session.room.epilogue_next(to_end=True, at=NOW)
    assert act == ShowEpilogue(NOW, 3)
    session.stage(act)
    assert session.room.stage.epilogue == 3
    session.undo()  # the search that ended the game, taken back
    assert not session.room.game.over
    assert session.room.stage.epilogue == 0
    assert board(session)["epilogue"] is None
    assert stage_view(session.room.stage, NOW)["epilogue"] == 0
    reopened = Session.open(session.store.path)
    assert reopened.room == session.room
    reopened.close()
    session.submit({"do": "search", "prisoner": "Ada"})  # the game ends again: from the start
    step_reveal(session, to_end=True, now=NOW)
    assert session.room.stage.epilogue == 0
    session.close()


def test_a_session_killed_mid_epilogue_comes_back_at_the_same_step(tmp_path: Path) -> None:
    session = demo_session(tmp_path, "epi")
    play_to_the_end(session)
    step_reveal(session, to_end=True, now=NOW)
    path = session.store.path
    session.close()
    child = textwrap.dedent(
        f"""
        import os, signal
        from pathlib import Path
        from companion.rules.prison.stage import ShowEpilogue
        from companion.session.session import Session
        session = Session.open(Path({str(path)!r}))
        session.stage(ShowEpilogue({NOW}, 1))
        session.stage(ShowEpilogue({NOW}, 2))
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    done = subprocess.run([sys.executable, "-c", child], check=False)
    assert done.returncode == -9
    resumed = Session.open(path)
    assert resumed.room.stage.epilogue == 2
    view = board(resumed)["epilogue"]
    assert view is not None and [n["day"] for n in view["nights"]] == [1, 2]
    assert view["held"] and view["end"] is None
    resumed.close()
