"""Firefox ESR behind the engines' interface, over its built-in WebDriver BiDi (Debian has no
geckodriver): ``firefox-esr --headless --remote-debugging-port 0`` with a fresh profile, one
websocket (aiohttp's client) to ``/session``, each phone a tab in its own user context (its
own cookies) at 390×844. Taps are ``input.performActions`` pointer actions on the element."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

from tests.engines import HEIGHT, WIDTH, as_json

FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
MISSING = (
    "Firefox is not installed: run scripts/system-deps.sh (Debian package firefox-esr) "
    "to try the phone pages in Firefox."
)
PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.aboutwelcome.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "media.autoplay.default": 1,  # as shipped: sound waits for a tap, a muted video may play
}


class BiDi:
    """One WebDriver BiDi connection: commands by id, events dropped."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            future = self._waiting.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(data)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        await self.ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, 30)
        if answer.get("type") == "error":
            raise RuntimeError(f"{method}: {answer.get('error')}: {answer.get('message')}")
        return dict(answer["result"])

    async def close(self) -> None:
        self._reader.cancel()
        await self.ws.close()


class FirefoxPhone:
    def __init__(self, bidi: BiDi, context: str) -> None:
        self.bidi = bidi
        self.context = context

    async def _evaluate(self, expression: str, own: bool = False) -> dict[str, Any]:
        result = await self.bidi.send(
            "script.evaluate",
            expression=expression,
            target={"context": self.context},
            awaitPromise=True,
            resultOwnership="root" if own else "none",
            userActivation=False,
        )
        if result.get("type") == "exception":
            details = result.get("exceptionDetails", {})
            raise RuntimeError(f"{expression}: {details.get('text')}")
        return dict(result["result"])

    async def js(self, expression: str) -> Any:
        value = await self._evaluate(as_json(expression))
        return json.loads(value["value"])

    async def tap(self, selector: str) -> None:
        """Tap the element ``selector`` finds. A live page may put a new part in place between
        finding the element and the tap (the old element is then not displayed, and the tap
        is refused before the finger comes down): the element is found again, a few times."""
        for attempt in range(3):
            try:
                await self._tap_once(selector)
                return
            except RuntimeError as error:
                if "not displayed" not in str(error) and "stale" not in str(error):
                    raise
                if attempt == 2:
                    raise
                await asyncio.sleep(0.2)

    async def _tap_once(self, selector: str) -> None:
        element = await self._evaluate(
            f"(function(){{var e=document.querySelector({json.dumps(selector)});"
            "if(!e||e.disabled)return null;e.scrollIntoView({block:'center'});return e;})()",
            own=True,
        )
        assert element.get("type") == "node", f"nothing to tap at {selector}"
        origin = {"type": "element", "element": {"sharedId": element["sharedId"]}}
        await self.bidi.send(
            "input.performActions",
            context=self.context,
            actions=[
                {
                    "type": "pointer",
                    "id": "finger",
                    "parameters": {"pointerType": "mouse"},
                    "actions": [
                        {"type": "pointerMove", "x": 0, "y": 0, "origin": origin},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pointerUp", "button": 0},
                    ],
                }
            ],
        )

    async def type(self, selector: str, text: str) -> None:
        await self.tap(selector)
        keys: list[dict[str, Any]] = []
        for char in text:
            keys += [{"type": "keyDown", "value": char}, {"type": "keyUp", "value": char}]
        await self.bidi.send(
            "input.performActions",
            context=self.context,
            actions=[{"type": "key", "id": "keyboard", "actions": keys}],
        )

    async def goto(self, url: str) -> None:
        await self.bidi.send("browsingContext.navigate", context=self.context, url=url, wait="none")

    async def reload(self) -> None:
        await self.bidi.send("browsingContext.reload", context=self.context, wait="none")

    async def screenshot(self, path: Path) -> None:
        shot = await self.bidi.send("browsingContext.captureScreenshot", context=self.context)
        path.write_bytes(base64.b64decode(shot["data"]))


class FirefoxEngine:
    name = "Firefox ESR"

    def __init__(self, local_domains: str = "", width: int = WIDTH) -> None:
        """``local_domains``: host names (comma-separated) Firefox resolves to this machine."""
        self.local_domains = local_domains
        self.width = width
        self.profile = Path(tempfile.mkdtemp(prefix="companion-firefox-"))
        self.process: asyncio.subprocess.Process | None = None
        self.http: aiohttp.ClientSession | None = None
        self.bidi: BiDi | None = None
        self.version = ""

    @staticmethod
    def missing() -> str | None:
        return MISSING if FIREFOX is None else None

    async def start(self) -> None:
        assert FIREFOX is not None
        prefs = {**PREFS, "network.dns.localDomains": self.local_domains}
        (self.profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in prefs.items())
        )
        self.process = await asyncio.create_subprocess_exec(
            FIREFOX,
            "--headless",
            "--no-remote",
            "--profile",
            str(self.profile),
            "--remote-debugging-port",
            "0",
            "--remote-allow-hosts",
            "127.0.0.1",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        assert self.process.stderr is not None
        address = None
        while address is None:
            line = await asyncio.wait_for(self.process.stderr.readline(), 60)
            if not line:
                raise RuntimeError("Firefox stopped before its WebDriver BiDi was listening")
            found = re.search(rb"WebDriver BiDi listening on (ws://\S+)", line)
            address = found.group(1).decode() if found else None
        asyncio.get_running_loop().create_task(self._drain())
        self.http = aiohttp.ClientSession()
        ws = await self.http.ws_connect(f"{address}/session", max_msg_size=0)
        self.bidi = BiDi(ws)
        new = await self.bidi.send("session.new", capabilities={"alwaysMatch": {}})
        caps = new["capabilities"]
        self.version = f"{caps.get('browserName', 'firefox')} {caps.get('browserVersion', '')}"

    async def _drain(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        with contextlib.suppress(Exception):
            while await self.process.stderr.read(65536):
                pass

    async def open(self, url: str) -> FirefoxPhone:
        assert self.bidi is not None
        user = await self.bidi.send("browser.createUserContext")
        tab = await self.bidi.send(
            "browsingContext.create", type="tab", userContext=user["userContext"]
        )
        phone = FirefoxPhone(self.bidi, tab["context"])
        await self.bidi.send(
            "browsingContext.setViewport",
            context=phone.context,
            viewport={"width": self.width, "height": HEIGHT},
        )
        await phone.goto(url)
        return phone

    async def stop(self) -> None:
        if self.bidi is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.bidi.send("session.end"), 5)
            with contextlib.suppress(Exception):
                await self.bidi.close()
        if self.http is not None:
            await self.http.close()
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                await self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
