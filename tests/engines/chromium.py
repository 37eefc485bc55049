"""Chromium behind the engines' interface: :mod:`tests.chromium`'s pages, with real taps
(``Input.dispatchMouseEvent``) and typing (``Input.insertText``), each phone in its own browser
context at 390×844."""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path
from typing import Any

from tests.chromium import CHROMIUM, Chromium, Page
from tests.engines import HEIGHT, WIDTH, as_json, tap_point

MISSING = "Chromium is not installed: run scripts/system-deps.sh (Debian package chromium)."


class ChromiumPhone:
    def __init__(self, page: Page) -> None:
        self.page = page

    async def js(self, expression: str) -> Any:
        return json.loads(await self.page.js(as_json(expression)))

    async def tap(self, selector: str) -> None:
        point = await self.js(tap_point(selector))
        assert point, f"nothing to tap at {selector}"
        x, y = point
        for kind in ("mousePressed", "mouseReleased"):
            await self.page.send(
                "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1
            )

    async def type(self, selector: str, text: str) -> None:
        await self.tap(selector)
        await self.page.send("Input.insertText", text=text)

    async def goto(self, url: str) -> None:
        await self.page.send("Page.navigate", url=url)

    async def reload(self) -> None:
        await self.page.send("Page.reload")

    async def screenshot(self, path: Path) -> None:
        shot = await self.page.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))


class ChromiumEngine:
    name = "Chromium"

    def __init__(self, *flags: str, width: int = WIDTH, height: int = HEIGHT) -> None:
        self.browser = Chromium(*flags)
        self.width = width
        self.height = height
        self.version = ""

    @staticmethod
    def missing() -> str | None:
        return MISSING if CHROMIUM is None else None

    async def start(self) -> None:
        assert CHROMIUM is not None
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, check=False)
        self.version = out.stdout.strip()
        await self.browser.start()

    async def open(self, url: str) -> ChromiumPhone:
        page = await self.browser.open("about:blank")
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            width=self.width,
            height=self.height,
            deviceScaleFactor=1,
            mobile=True,
        )
        await page.send("Page.enable")
        await page.send("Page.navigate", url=url)
        return ChromiumPhone(page)

    async def stop(self) -> None:
        await self.browser.stop()
