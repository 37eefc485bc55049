"""The warm-up's join form as a phone posts it: the page read first, its token (the page's
cookie and its hidden field) sent back with the name."""

from __future__ import annotations

import re
from typing import Any, Protocol

import aiohttp

PAGE_VALUE = re.compile(r'name="page" value="([^"]*)"')


class Http(Protocol):
    """A TestClient or an aiohttp ClientSession: what asks the server."""

    def get(self, url: Any, **kwargs: Any) -> Any: ...

    def post(self, url: Any, **kwargs: Any) -> Any: ...


async def page_token(http: Http, url: Any) -> str:
    """The token the join page at ``url`` carries in its form (or, where it shows no form,
    the doors closed, in its cookie: as a phone whose form was opened before holds it)."""
    async with http.get(url) as page:
        found = PAGE_VALUE.search(await page.text())
        held = page.cookies.get("page")
    assert found or held, "the join page has no token"
    return found[1] if found else str(held.value)


async def post_join(
    http: Http, url: Any, data: dict[str, str], **kwargs: Any
) -> aiohttp.ClientResponse:
    """``data`` posted to the join form at ``url`` with the page's token, as its page sends it
    (the cookie is sent as the page set it, also where a client keeps none for an address)."""
    token = await page_token(http, url)
    headers = {"Cookie": f"page={token}", **kwargs.pop("headers", {})}
    response: aiohttp.ClientResponse = await http.post(
        url, data={**data, "page": token}, headers=headers, **kwargs
    )
    return response
