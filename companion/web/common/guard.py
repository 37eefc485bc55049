"""Guards against pages of other sites: no write from another origin, no redirect away.

Anyone on the venue's Wi-Fi may serve a page that a player opens; that page must not join a
player, change a choice or set a cookie on the laptop's phone server through the player's
browser (:func:`origin_middleware`), and no address of the laptop may send a phone elsewhere
(:func:`safe_path`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from companion.language import N_
from companion.web.common.context import Problem

# Methods that only read: everything else changes something, and is checked.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CROSS_ORIGIN = N_(
    "This came from a page of another site, so nothing was changed; "
    "open the game's page from its QR code and try again."
)
_DEFAULT_PORTS = {"http": 80, "https": 443}
# An absolute path a browser keeps on this server: one "/" first, then only URL characters
# that no browser reads as another host (no "\\", no spaces or controls, no second "/" first).
_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*")


def safe_path(path: str) -> str:
    """``path`` if a browser sent there stays on this server, else ``/``."""
    return path if _PATH.fullmatch(path) else "/"


def _origin(url: str) -> tuple[str, str, int] | None:
    """An origin's scheme, host and port (``None``: not an origin of http or https)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else _DEFAULT_PORTS[scheme]


def cross_origin(
    request: web.Request, public_url: Callable[[], str | None] = lambda: None
) -> bool:
    """Whether ``request`` comes from a page of another origin than the laptop's own (the
    address it was asked at, or ``public_url()``, asked only when an ``Origin`` needs it).

    ``Sec-Fetch-Site`` decides where the browser sends it (every current engine does): only
    ``same-origin`` and ``none`` are ours. Without it, an ``Origin`` must be ours; ``null``
    passes there, because our own pages' ``Referrer-Policy: no-referrer`` makes a browser send
    ``Origin: null`` with their own forms (a browser too old for ``Sec-Fetch-Site``, such as
    Safari before 16.4, would otherwise be locked out of the game). A request with neither
    header (a script, curl, the benchmarks) is not from another origin."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site.strip().lower() not in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is None or origin.strip() == "null":
        return False
    theirs = _origin(origin)
    if theirs is None:  # not a web origin (a file: or data: page, an extension)
        return True
    ours = {_origin(f"{request.scheme}://{request.host}")}
    if theirs in ours:
        return False
    pinned = public_url()
    return pinned is None or theirs != _origin(pinned)


def origin_middleware(public_url: Callable[[], str | None]) -> Middleware:
    """Refuses (403, one sentence, nothing changed) every request that is not a read
    (:data:`SAFE_METHODS`) from another origin (:func:`cross_origin`); ``public_url()``
    is the session's pinned public address, if any."""

    @web.middleware
    async def origins(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method not in SAFE_METHODS and cross_origin(request, public_url):
            raise Problem(403, CROSS_ORIGIN)
        return await handler(request)

    return origins
