"""The stage as the pages put it: countdowns as text, a reveal's steps as sentences, and the
board and phones rendered (without any script) from the room's view."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session.prison.seats import seats_of
from companion.session.session import Session
from companion.web.prison.pages import clock_text, render_board_part, render_seat_part
from companion.web.prison.phones import board_view, seat_view
from tests import stage_helpers as stage
from tests.conftest import demo_session

NOW = 2_000_000_000.0
PHONES = {"connected": 3, "seats": 5}


@pytest.fixture
def session(tmp_path: Path):
    s = demo_session(tmp_path, "views")
    yield s
    s.close()


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0:00"), (0.2, "0:01"), (9, "0:09"), (59.5, "1:00"), (245, "4:05"), (-3, "0:00")],
)
def test_clock_text_rounds_up(seconds: float, text: str) -> None:
    assert clock_text(seconds) == text


def test_countdowns_are_rendered_with_their_seconds_left(session: Session) -> None:
    stage.limit_planning(session, 300, now=NOW)
    board = render_board_part(board_view(session, PHONES, NOW + 55), None)
    assert 'data-left="245.0" data-paused="false">4:05</span>' in board
    assert "<strong>3</strong> of 5 phones connected" in board
    session.submit({"do": "close_planning"})
    stage.call_in(session, "Cy", 120, now=NOW)
    stage.pause(session, "interview", now=NOW + 30)
    board = render_board_part(board_view(session, PHONES, NOW + 500), None)
    assert 'data-left="90.0" data-paused="true">1:30</span> <span class="paused-word">' in board
    assert "Cy is with the warden" in board
    ada = next(s for s in seats_of(session) if s.name == "Ada")
    part = render_seat_part(seat_view(session, ada, NOW + 500), ada)
    assert "Cy is with the warden" in part and 'data-paused="true">1:30' in part
    assert 'data-wake="planning"' not in part  # the phone may sleep again after planning


def test_each_step_of_a_reveal_in_order(session: Session) -> None:
    for name, choice in [("Ada", "work"), ("Ben", "work"), ("Cy", "rest"), ("Dee", "rest")]:
        session.submit({"do": "choose", "prisoner": name, "choice": choice})
    session.submit({"do": "close_planning"})
    session.submit({"do": "search", "prisoner": "Ada"})
    seen = []
    for _ in range(3):
        stage.step_reveal(session, now=NOW)
        board = render_board_part(board_view(session, PHONES, NOW), None)
        seen.append(board.split('id="reveal">')[1].split("</ol>")[0])
    assert "The warden searches Ada&#39;s cell…" in seen[0] and "CAUGHT" not in seen[0]
    assert "CAUGHT" in seen[1] and "Ada was working" in seen[1] and "worked" not in seen[1]
    assert "Ben worked tonight" in seen[2] and "1 night of work." in seen[2]
    assert 'class="night last"' in seen[2]  # the newest step is the large one


def test_a_caught_prisoners_card_says_caught_once_the_reveal_shows_it(session: Session) -> None:
    """Not "in the game" above CAUGHT until the next step."""
    for name, choice in [("Ada", "work"), ("Ben", "work"), ("Cy", "rest"), ("Dee", "rest")]:
        session.submit({"do": "choose", "prisoner": name, "choice": choice})
    session.submit({"do": "close_planning"})
    session.submit({"do": "search", "prisoner": "Ada"})
    ada = next(s for s in seats_of(session) if s.name == "Ada")
    states = []
    for _ in range(3):
        stage.step_reveal(session, now=NOW)
        part = render_seat_part(seat_view(session, ada, NOW), ada)
        states.append(part.split('<p class="state">')[1].split("</p>")[0])
    caught = "Prisoner, caught working and out of the game"
    assert states == ["Prisoner, in the game", caught, caught]
