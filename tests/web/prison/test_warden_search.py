"""A search from the warden's phone: it names, before the tap, who the search leaves without
an interview (as the console's ``s`` does before it asks which cell); during the held reveal
a second tap is told the day's search is made (no invitation to a search that cannot happen),
and what a tap said gives way as the room is shown the next step."""

from __future__ import annotations

from aiohttp.test_utils import TestClient

from companion.session.session import Session
from tests.stage_helpers import call_in, step_reveal
from tests.web.prison.test_api import client, clock, error_of, post, seat, session

__all__ = ["client", "clock", "session"]  # the fixtures, as test_api.py makes them


async def part(client: TestClient, session: Session, name: str) -> str:
    return await (await client.get(f"/p/{seat(session, name).token}/part")).text()


async def test_a_search_from_the_phone_names_who_was_not_interviewed(
    client: TestClient, session: Session
) -> None:
    session.submit({"do": "close_planning"})
    call_in(session, "Ada", 90)
    session.submit({"do": "interview", "prisoner": "Ada", "deal": False})
    wendy = await part(client, session, "Wendy")
    ends = wendy.split('id="search-ends">')[1].split("</p>")[0]
    assert ends == ("A search ends the interviews: Ben, Cy and Dee have not been interviewed "
                    "(no deal).")
    r = await post(client, session, "Wendy", "search", {"prisoner": "Cy"})
    assert r.status == 200
    # Until the room is shown it, the page is the game before the search (nothing leaks).
    assert 'id="search-ends"' in await part(client, session, "Wendy")
    step_reveal(session, to_end=True)
    assert 'id="search-ends"' not in await part(client, session, "Wendy")  # they are over


async def test_one_prisoner_left_out_is_said_in_the_singular(
    client: TestClient, session: Session
) -> None:
    session.submit({"do": "close_planning"})
    for name in ("Ada", "Ben", "Cy"):
        session.submit({"do": "interview", "prisoner": name, "deal": False})
    ends = (await part(client, session, "Wendy")).split('id="search-ends">')[1].split("</p>")[0]
    assert ends == "A search ends the interviews: Dee has not been interviewed (no deal)."
    session.submit({"do": "search", "prisoner": "Ada"})
    step_reveal(session, to_end=True)
    session.submit({"do": "end_day"})
    session.submit({"do": "close_planning"})
    for name in ("Ada", "Ben", "Cy", "Dee"):
        session.submit({"do": "interview", "prisoner": name, "deal": False})
    assert 'id="search-ends"' not in await part(client, session, "Wendy")  # all were seen


async def test_during_the_held_reveal_a_second_search_is_told_the_days_search_is_made(
    client: TestClient, session: Session
) -> None:
    session.submit({"do": "close_planning"})
    session.submit({"do": "search", "prisoner": "Ada"})  # classic: one search a day
    assert session.state.searches_left() == 0
    sentence = await error_of(await post(client, session, "Wendy", "search",
                                         {"prisoner": "Ben"}), 409)
    assert sentence == "Today's search is made; the game master is revealing it to the room."
    assert "again" not in sentence
    stamps = []
    for _ in range(3):  # each step the room sees is a new stamp on the warden's page
        stamps.append((await part(client, session, "Wendy")).split('data-stamp="')[1]
                      .split('"')[0])
        step_reveal(session)
    assert len(set(stamps)) == 3, stamps
