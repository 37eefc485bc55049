"""The phone pages in every browser engine a room's phones run, behind one small driver
interface written once: :class:`Phone` (a page at 390×844: evaluate, wait, tap, type,
navigate, screenshot) and :class:`Engine` (starts a browser, opens phones, stops).

- Chromium over its DevTools protocol (:mod:`tests.chromium`),
- Firefox ESR over its built-in WebDriver BiDi (:mod:`tests.engines.firefox`),
- WebKitGTK's MiniBrowser through ``WebKitWebDriver`` and Selenium, under Xvfb
  (:mod:`tests.engines.webkit`).

Every engine's JavaScript answers are JSON: an expression's value as ``JSON.stringify``
makes it (a promise awaited first), so the three drivers agree on what a value is.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any, Protocol

WIDTH, HEIGHT = 390, 844  # a common phone's viewport, in CSS pixels


def as_json(expression: str) -> str:
    """JavaScript giving ``expression``'s value as JSON text, awaited when it is a promise
    (``undefined`` as ``null``)."""
    return (
        f"Promise.resolve(({expression})).then(function (v) "
        "{ return JSON.stringify(v === undefined ? null : v); })"
    )


def tap_point(selector: str) -> str:
    """JavaScript giving the centre of the element ``selector`` finds, scrolled into view,
    as ``[x, y]`` in the viewport (``null`` when there is none or it is disabled)."""
    return (
        f"(function(){{var e=document.querySelector({json.dumps(selector)});"
        "if(!e||e.disabled)return null;e.scrollIntoView({block:'center'});"
        "var r=e.getBoundingClientRect();"
        "return [Math.round(r.left+r.width/2),Math.round(r.top+r.height/2)];})()"
    )


class Phone(Protocol):
    """One phone's page."""

    async def js(self, expression: str) -> Any: ...

    async def tap(self, selector: str) -> None:
        """A real pointer tap at the centre of the element (a user gesture)."""

    async def type(self, selector: str, text: str) -> None:
        """Focus the field and type ``text`` as keys."""

    async def goto(self, url: str) -> None: ...

    async def reload(self) -> None: ...

    async def screenshot(self, path: Path) -> None: ...


class Engine(Protocol):
    name: str
    version: str

    async def start(self) -> None: ...

    async def open(self, url: str) -> Phone: ...

    async def stop(self) -> None: ...


async def wait_for(phone: Phone, expression: str, timeout: float = 15.0) -> None:
    """Poll ``expression`` on the phone until it is truthy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            if await phone.js(f"!!({expression})"):
                return
        except RuntimeError:  # the page is between two documents
            pass
        if loop.time() > deadline:
            text = await text_of(phone)
            raise AssertionError(f"never true: {expression}\n--- page text ---\n{text}")
        await asyncio.sleep(0.15)


async def text_of(phone: Phone) -> str:
    try:
        return str(await phone.js("document.body ? document.body.innerText : ''"))
    except RuntimeError as error:
        return f"(no text: {error})"


def ci() -> bool:
    """Whether this run is CI's, where every engine must be there (a skip is a failure)."""
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}
