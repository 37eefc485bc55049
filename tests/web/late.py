"""A slow network in real Chromium, made on purpose: :class:`Late` holds the first answer to a
request (its URL matching a pattern) in the browser, after the server has answered it, and lets
every other request through, until the test releases it; so a test decides that an old answer
reaches the page last. :func:`count_answers` counts the answers the page's script has read and
handled (``window.__handled``, by kind), so that a test waits for the late one, never for a
time."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from tests.chromium import Page

# Counts, by "part" (a live part re-fetched) and "post" (an action's answer), the answers the
# page's script read, once what it did with them has run (a task after the script's own).
COUNT_ANSWERS = """(function () {
  if (window.__handled) return true;
  window.__handled = { part: 0, post: 0 };
  var original = window.fetch;
  window.fetch = function (url, options) {
    var kind = options && options.method === "POST" ? "post" : /\\/part$/.test(url) ? "part" : null;
    return original.apply(this, arguments).then(function (r) {
      if (!kind) return r;
      ["text", "json"].forEach(function (how) {
        var read = r[how].bind(r);
        r[how] = function () {
          return read().then(function (body) {
            setTimeout(function () { window.__handled[kind] += 1; }, 0);
            return body;
          });
        };
      });
      return r;
    });
  };
  return true;
})()"""


async def count_answers(page: Page) -> None:
    await page.js(COUNT_ANSWERS)


async def handled(page: Page, kind: str) -> int:
    return int(await page.js(f"window.__handled.{kind}"))


class Late:
    """Holds the first answer whose URL matches ``pattern`` (``Fetch`` patterns: ``*``
    for anything), answered by the server already, until :meth:`release`."""

    def __init__(self, page: Page, pattern: str) -> None:
        self.page = page
        self.pattern = pattern
        self.held: dict[str, Any] | None = None
        self.caught = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Late:
        paused = self.page.listen("Fetch.requestPaused")
        await self.page.send(
            "Fetch.enable", patterns=[{"urlPattern": self.pattern, "requestStage": "Response"}]
        )
        self._task = asyncio.create_task(self._pass(paused))
        return self

    async def _pass(self, paused: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            event = await paused.get()
            if self.held is None:
                self.held = event
                self.caught.set()
            else:
                await self.page.send("Fetch.continueRequest", requestId=event["requestId"])

    async def wait_held(self, timeout: float = 15.0) -> None:
        """Until the first matching answer is held in the browser."""
        await asyncio.wait_for(self.caught.wait(), timeout)
        assert self.held is not None and self.held.get("responseStatusCode") == 200, self.held

    async def release(self) -> None:
        assert self.held is not None
        await self.page.send("Fetch.continueRequest", requestId=self.held["requestId"])

    async def __aexit__(self, *_: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(RuntimeError):
            await self.page.send("Fetch.disable")
