"""The screen kept awake on plain http (real headless Chromium, the page opened by a name that
is not this machine's, so not a secure context: no Wake Lock API, as at a venue). The player's
first tap starts the page's muted looping video; it stops when planning ends; and where the
video cannot play either, the page says the screen may go dark."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from companion.session.prison.create import create_prison_session
from companion.session.prison.seats import seat_url, seats_of
from companion.web.prison.server import start_phone_server
from tests.chromium import CHROMIUM, Chromium
from tests.conftest import ROSTER
from tests.engines import wait_for
from tests.engines.chromium import ChromiumPhone

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

VIDEO = "document.getElementById('awake')"
ASLEEP = "The screen may go dark on this phone: tap it now and then to keep it on."


@pytest.mark.parametrize("video_served", [True, False])
async def test_the_first_tap_keeps_the_screen_awake_until_planning_ends(
    tmp_path: Path, video_served: bool
) -> None:
    browser = Chromium("--host-resolver-rules=MAP phone.test 127.0.0.1")
    await browser.start()
    session = create_prison_session(tmp_path, "awake", "classic", "Wendy", ROSTER)
    server = await start_phone_server(session, "127.0.0.1", 0)
    session.set("public_url", f"http://phone.test:{server.port}")  # the name it is opened at
    try:
        ada = next(s for s in seats_of(session) if s.name == "Ada")
        page = await browser.open("about:blank")
        if not video_served:  # a phone that plays no video: its requests fail
            await page.send("Fetch.enable", patterns=[{"urlPattern": "*/static/wake.*"}])
            paused = page.listen("Fetch.requestPaused")

            async def refuse() -> None:
                while True:
                    request = await paused.get()
                    await page.send(
                        "Fetch.failRequest", requestId=request["requestId"], errorReason="Failed"
                    )

            refusing = asyncio.create_task(refuse())
        await page.send(
            "Page.navigate", url=seat_url(server.base_url.replace("127.0.0.1", "phone.test"), ada)
        )
        phone = ChromiumPhone(page)
        await wait_for(phone, "document.body.dataset.ready === '1' && document.body.dataset.live")
        assert await phone.js("window.isSecureContext === false && !('wakeLock' in navigator)")
        assert await phone.js(f"{VIDEO} === null")  # nothing plays before the player's tap
        await phone.tap("#cover")
        if video_served:
            await wait_for(phone, f"{VIDEO} && !{VIDEO}.paused")
            start = float(await phone.js(f"{VIDEO}.currentTime"))
            await wait_for(phone, f"{VIDEO}.currentTime > {start} + 0.2")
            assert await phone.js(f"{VIDEO}.muted && {VIDEO}.loop && {VIDEO}.playsInline")
            assert await phone.js("document.getElementById('asleep') === null")
            session.submit({"do": "close_planning"})
            await wait_for(phone, f"{VIDEO}.paused")
        else:
            await wait_for(
                phone,
                "document.getElementById('asleep') && !document.getElementById('asleep').hidden",
            )
            assert await phone.js("document.getElementById('asleep').textContent") == ASLEEP
            assert await phone.js(f"{VIDEO}.paused")
            refusing.cancel()
    finally:
        await server.stop()
        session.close()
        await browser.stop()
