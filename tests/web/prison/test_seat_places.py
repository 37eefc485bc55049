"""Where things sit on a seat's page: during the interviews a prisoner's own choice is folded
away (the page shows the interview and its timer; the choice is one tap away on its own), and
"You win!" sits at the same place on prisoners' and the warden's pages, above the reveal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.session.prison.seats import seats_of
from companion.session.session import Session
from companion.web.prison.pages import render_seat_part
from companion.web.prison.phones import seat_view
from tests import stage_helpers as stage
from tests.conftest import EXAMPLES, demo_session

NOW = 2_000_000_000.0


@pytest.fixture
def session(tmp_path: Path):
    s = demo_session(tmp_path, "places")
    yield s
    s.close()


def page(session: Session, name: str, now: float = NOW) -> str:
    seat = next(s for s in seats_of(session) if s.name == name)
    return render_seat_part(seat_view(session, seat, now), seat)


def folded(part: str) -> str:
    """What the page shows before any tap: the part without its closed ``<details>``."""
    return re.sub(r"<details(?![^>]*\bopen\b)[^>]*>.*?</details>", "", part, flags=re.S)


def test_in_with_the_warden_the_page_shows_the_timer_and_folds_the_choice(
    session: Session,
) -> None:
    for name, choice in [("Ada", "work"), ("Ben", "rest"), ("Cy", "work"), ("Dee", "rest")]:
        session.submit({"do": "choose", "prisoner": name, "choice": choice})
    session.submit({"do": "close_planning"})
    stage.call_in(session, "Ada", 120, now=NOW)
    ada = page(session, "Ada", NOW + 10)
    shown = folded(ada)
    assert "You are with the warden" in shown and 'data-left="110.0"' in shown
    assert "WORK" not in shown and "REST" not in shown  # nothing of her choice, untapped
    details = ada.split('<details class="my-choice" id="my-choice">')[1].split("</details>")[0]
    assert "Tap to see your choice tonight" in details and "Tonight you WORK." in details
    ben = page(session, "Ben", NOW + 10)
    assert "Tonight you REST." not in folded(ben) and "Tonight you REST." in ben
    assert "Ada is with the warden" in folded(ben)
    # During planning the choice is the page's own business, as before.
    session.submit({"do": "interview", "prisoner": "Ada", "deal": False})
    session.submit({"do": "search", "prisoner": "Ben"})
    session.submit({"do": "end_day"})
    assert "Not chosen yet" in folded(page(session, "Ada"))


def test_you_win_sits_at_the_same_place_on_every_seat_above_the_reveal(
    session: Session, tmp_path: Path
) -> None:
    script = json.loads((EXAMPLES / "pb-escape.json").read_text())
    escape = demo_session(tmp_path, "escape", script["prisoners"], warden=script["warden"],
                          scenario=script["scenario"])
    try:
        for command in script["commands"]:
            escape.submit(command)
        assert escape.state.phase == "over"
        stage.step_reveal(escape, to_end=True, now=NOW)
        for name in [script["warden"], *script["prisoners"]]:
            part = page(escape, name)
            verdict = part.index('id="verdict"')
            assert verdict < part.index('id="now"'), name
            assert "reveal" in part and verdict < part.index('class="reveal"'), name
            assert verdict > part.index('class="card me"'), name
            assert part.count('id="verdict"') == 1
    finally:
        escape.close()
