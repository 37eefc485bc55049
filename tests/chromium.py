"""Headless Chromium driven over its DevTools protocol, for the browser tests and the
benchmarks' live trials: :class:`Chromium` starts one with a fresh profile (listening on
127.0.0.1 only) and opens each page in its own browser context, like a separate phone;
:class:`Page` evaluates JavaScript, waits for it, clicks and takes screenshots."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=390,844",
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
]


class Page:
    """One tab, spoken to over its DevTools websocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._events: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if "method" in data and "id" not in data:  # an event: kept if someone listens
                queue = self._events.get(data["method"])
                if queue is not None:
                    queue.put_nowait(dict(data.get("params") or {}))
                continue
            future = self._waiting.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(data)

    def listen(self, method: str) -> asyncio.Queue[dict[str, Any]]:
        """The parameters of every ``method`` event from now on (such as ``Fetch.requestPaused``
        once ``Fetch.enable`` was sent), in order."""
        return self._events.setdefault(method, asyncio.Queue())

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        await self.ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, 20)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return dict(answer["result"])

    async def js(self, expression: str) -> Any:
        result = await self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 15.0) -> Any:
        """Poll a JavaScript expression until it is truthy (the page updates by itself)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            with contextlib.suppress(RuntimeError):
                if await self.js(f"!!({expression})"):
                    return True
            if asyncio.get_running_loop().time() > deadline:
                text = await self.text()
                raise AssertionError(f"never true: {expression}\n--- page text ---\n{text}")
            await asyncio.sleep(0.1)

    async def text(self) -> str:
        return str(await self.js("document.body ? document.body.innerText : ''"))

    async def click(self, selector: str) -> None:
        found = await self.js(
            f"(function(){{var b=document.querySelector({json.dumps(selector)});"
            "if(!b||b.disabled)return false;b.click();return true;})()"
        )
        assert found, f"nothing to click at {selector}"

    async def screenshot(self, path: Path) -> None:
        import base64

        shot = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

    async def close(self) -> None:
        self._reader.cancel()
        await self.ws.close()


class Chromium:
    """A headless Chromium with a fresh profile, listening for DevTools on 127.0.0.1."""

    def __init__(self, *extra_flags: str) -> None:
        self.flags = [*FLAGS, *extra_flags]
        self.profile = Path(tempfile.mkdtemp(prefix="companion-chromium-"))
        self.process: asyncio.subprocess.Process | None = None
        self.http: aiohttp.ClientSession | None = None
        self.port = 0
        self.pages: list[Page] = []
        self.browser: Page | None = None

    async def start(self) -> None:
        assert CHROMIUM is not None
        self.process = await asyncio.create_subprocess_exec(
            CHROMIUM,
            *self.flags,
            f"--user-data-dir={self.profile}",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True,  # its helper processes in one group, stopped together
        )
        marker = self.profile / "DevToolsActivePort"
        for _ in range(300):
            if marker.exists() and marker.read_text().strip():
                break
            await asyncio.sleep(0.05)
        self.port = int(marker.read_text().split()[0])
        self.http = aiohttp.ClientSession()

    async def open(self, url: str) -> Page:
        """A tab in its own browser context, like a separate phone: its own cookies and its
        own connection pool (one browser allows only six connections to a host)."""
        assert self.http is not None
        if self.browser is None:
            async with self.http.get(f"http://127.0.0.1:{self.port}/json/version") as response:
                version = await response.json()
            ws = await self.http.ws_connect(version["webSocketDebuggerUrl"], max_msg_size=0)
            self.browser = Page(ws)
        context = await self.browser.send("Target.createBrowserContext", disposeOnDetach=True)
        target = await self.browser.send(
            "Target.createTarget", url=url, browserContextId=context["browserContextId"]
        )
        ws = await self.http.ws_connect(
            f"ws://127.0.0.1:{self.port}/devtools/page/{target['targetId']}", max_msg_size=0
        )
        page = Page(ws)
        self.pages.append(page)
        await page.send("Runtime.enable")
        return page

    async def stop(self) -> None:
        for page in [*self.pages, *([self.browser] if self.browser else [])]:
            with contextlib.suppress(Exception):
                await page.close()
        if self.http is not None:
            await self.http.close()
        if self.process is not None:
            group = self.process.pid
            if self.process.returncode is None:
                self._signal(group, signal.SIGTERM)
                try:
                    await asyncio.wait_for(self.process.wait(), 10)
                except TimeoutError:
                    self._signal(group, signal.SIGKILL)
                    await self.process.wait()
            # Its network service outlives it for a moment and writes into the profile: wait
            # for the whole group to be gone, so that the profile folder goes for good.
            for _ in range(100):
                if not self._signal(group, 0):
                    break
                await asyncio.sleep(0.02)
            else:
                self._signal(group, signal.SIGKILL)
        shutil.rmtree(self.profile, ignore_errors=True)

    @staticmethod
    def _signal(group: int, number: int) -> bool:
        """Send ``number`` to the process group; False when no process of it is left."""
        try:
            os.killpg(group, number)
        except ProcessLookupError:
            return False
        return True
