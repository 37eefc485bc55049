"""Every page has an icon: ``/favicon.ico`` on both games' servers is a real ICO file (one
32×32 PNG inside, in the game's two colours), and every page links it."""

from __future__ import annotations

import io
import struct
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from companion.session.prison.create import create_prison_session
from companion.session.session import Session
from companion.web.dilemma.server import build_dilemma_app
from companion.web.prison.server import build_app
from tests.conftest import ROSTER
from tests.dilemma_helpers import scenario


def picture(ico: bytes) -> Image.Image:
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind, count) == (0, 1, 1)
    width, height, _, _, _, _, size, offset = struct.unpack("<BBBBHHII", ico[6:22])
    assert (width, height) == (32, 32)
    assert offset + size == len(ico)
    image = Image.open(io.BytesIO(ico[offset:]))
    image.load()
    return image


async def test_both_servers_serve_and_link_the_icon(tmp_path: Path) -> None:
    prison = create_prison_session(tmp_path, "icon", "classic", "Wendy", ROSTER)
    warm = Session.create(tmp_path / "w.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    try:
        for app, page in ((build_app(prison), "/join"), (build_dilemma_app(warm), "/board")):
            async with TestClient(TestServer(app, host="127.0.0.1")) as client:
                r = await client.get("/favicon.ico")
                assert r.status == 200 and r.content_type == "image/x-icon"
                image = picture(await r.read()).convert("RGBA")
                assert image.size == (32, 32)
                assert image.getpixel((0, 0))[3] == 0  # a rounded corner: see-through
                assert image.getpixel((10, 16)) == (217, 130, 43, 255)  # WORK's orange
                assert image.getpixel((22, 16)) == (63, 143, 210, 255)  # REST's blue
                html = await (await client.get(page)).text()
                assert '<link rel="icon" href="/favicon.ico"' in html
    finally:
        prison.close()
        warm.close()
