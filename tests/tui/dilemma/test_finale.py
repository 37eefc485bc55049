"""The finale on the console: the results screen says what the room sees of it and what Space
shows it next; each Space records the next step (a ``finale`` note the board follows), ``a``
shows the results as a whole at once."""

from __future__ import annotations

from pathlib import Path

from companion.session.session import Session
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.dilemma.screens import FinalScreen
from tests.dilemma_helpers import scenario
from tests.tui.support import seen


def over(folder: Path) -> Session:
    s = Session.create(folder / "w.sqlite", "dilemma", {"rules": scenario(rounds=1)})
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    s.submit({"do": "start_round", "seed": 1})
    for k, pid in enumerate(s.state.waiting()):
        s.submit({"do": "choose", "pid": pid, "choice": "betray" if k else "silent"})
    assert s.state.phase == "over"
    return s


async def test_space_steps_the_room_through_the_finale(tmp_path: Path) -> None:
    session = over(tmp_path)
    app = DilemmaApp(session, seed=lambda: 7)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(4):
            await pilot.pause(0.05)
        assert isinstance(app.screen, FinalScreen)
        text = " ".join(seen(app).split())
        assert ("Finale for the room, in 5 steps: Space shows the board the podium; a shows "
                "the results as a whole.") in text
        await pilot.press("space")
        await pilot.pause(0.1)
        assert session.room.finale == 1 and session.notes("finale")[-1].body["shown"] == 1
        text = " ".join(seen(app).split())
        assert ("Finale: the room sees step 1 of 5 (the podium); Space shows it the house "
                "player.") in text
        await pilot.press("a")
        await pilot.pause(0.1)
        assert session.room.finale == 5
        assert "Finale: the room has seen it all" in " ".join(seen(app).split())
        await pilot.press("space")  # nothing more to show: nothing recorded
        await pilot.pause(0.1)
        assert len(session.notes("finale")) == 2
    session.close()
