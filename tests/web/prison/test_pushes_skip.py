"""What a push tells without making every prisoner's view again (``api.publish``): when only
some prisoners chose since the last push (``views.choosers_only``), the other prisoners'
streams that push served get the counts alone; a stream it did not serve (opened since) and
the choosers' own streams are sent what their pages must show, even when the state came back
to what the last push saw."""

from __future__ import annotations

import aiohttp

from companion.session.session import Session
from companion.web.common.server import PhoneServer
from companion.web.prison.phones import NIGHT
from tests.web.prison.test_phones import http, next_event, open_stream, seat, server, session

__all__ = ["http", "server", "session"]  # the fixtures


async def test_a_stream_opened_between_pushes_is_told_a_choice_taken_back(
    session: Session, server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    fanout = server._runner.app[NIGHT].fanout
    assert fanout is not None
    ada, ben = seat(session, "Ada"), seat(session, "Ben")
    ada_url = f"{server.base_url}/api/p/{ada.token}"
    old = await open_stream(http, f"{ada_url}/events")  # served by every push
    other = await open_stream(http, f"{server.base_url}/api/p/{ben.token}/events")
    await next_event(old)
    await next_event(other)
    r = await http.post(f"{ada_url}/choice", json={"choice": "rest"})
    assert r.status == 200
    assert (await next_event(old))["data"]["view"]["me"]["choice"] == "rest"
    assert (await next_event(other))["event"] == "patch"

    push = fanout.push
    fanout.push = lambda: None  # type: ignore[method-assign]  # the next push waits
    try:
        assert (await http.post(f"{ada_url}/choice", json={"choice": "work"})).status == 200
        async with aiohttp.ClientSession() as phone:  # a second page, opened meanwhile
            new = await open_stream(phone, f"{ada_url}/events")
            assert (await next_event(new))["data"]["view"]["me"]["choice"] == "work"
            assert (await http.post(f"{ada_url}/choice", json={"choice": "rest"})).status == 200
            fanout.push = push  # type: ignore[method-assign]
            push()  # the state is as the last push saw it: Ada rests
            told = await next_event(new)
            assert told["event"] == "view", "the page opened meanwhile shows WORK: it is told"
            assert told["data"]["view"]["me"]["choice"] == "rest"
            assert "Saved: you REST tonight." in told["data"]["html"]
            new.close()
    finally:
        fanout.push = push  # type: ignore[method-assign]
    # the stream the last push served shows REST already, and Ben's the same count
    assert (await next_event(old))["event"] == "patch"
    assert (await next_event(other))["event"] == "patch"
    old.close()
    other.close()
