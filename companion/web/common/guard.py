"""Guards against pages of other sites: no write from another origin, no redirect away, no
answer to a name that is not the laptop's.

Anyone on the venue's Wi-Fi may serve a page that a player opens; that page must not join a
player, change a choice or set a cookie on the laptop's phone server through the player's
browser (:func:`origin_middleware`), no address of the laptop may send a phone elsewhere
(:func:`safe_path`), and a page whose own name is made to point at the laptop (DNS rebinding,
which makes it the same origin as far as the browser knows) is answered nothing
(:func:`host_middleware`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import re
import secrets
import socket
from collections.abc import Callable
from functools import cache
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
STALE_PAGE = N_(
    "Nothing was changed: this form did not come from the game's own page, or that page is "
    "too old; reload the page and try again."
)
NOT_OURS = N_(
    "This address is not the game's laptop's, so nothing is shown here; "
    "open the game's page from its QR code."
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
    if theirs == _ours(request):
        return False
    pinned = public_url()
    return pinned is None or theirs != _origin(pinned)


def _ours(request: web.Request) -> tuple[str, str, int] | None:
    """The origin ``request`` was asked at: its ``Host`` header's, or the full URL's of a
    request line that gives one (as a forward proxy sends it), port included."""
    try:
        url = request.url
        host = url.host
    except ValueError:  # a Host header that is no host
        return None
    if not host:
        return None
    port = url.port if url.port is not None else _DEFAULT_PORTS.get(url.scheme, 0)
    return url.scheme, host.lower(), port


@cache
def _own_names() -> frozenset[str]:
    """This laptop's own names: ``localhost``, the name it calls itself and that name on the
    local network (``name.local``, as Bonjour and Avahi announce it)."""
    own = {"localhost"}
    name = socket.gethostname().strip().lower().rstrip(".")
    if name:
        own |= {name, name.split(".")[0] + ".local"}
    return frozenset(own)


def _local_address(request: web.Request) -> str | None:
    """The laptop's address the request's connection came in on."""
    transport = request.transport
    sockname = transport.get_extra_info("sockname") if transport is not None else None
    return str(sockname[0]) if isinstance(sockname, tuple) and sockname else None


def misdirected(request: web.Request, public_url: Callable[[], str | None] = lambda: None) -> bool:
    """Whether ``request`` was asked of a name or address that is not this laptop's: the
    address its connection came in on, a loopback address, the laptop's own names
    (``localhost`` and ``*.localhost``, its host name, ``name.local``), or the host of the
    pinned public URL (``public_url()``: a proxy's or a venue's name for the laptop). A page
    whose name was made to point at the laptop (DNS rebinding) sends its own name here."""
    ours = _ours(request)
    if ours is None:
        return True
    host = ours[1].strip("[]").rstrip(".")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if address is not None:
        if address.is_loopback or host == _local_address(request):
            return False
    elif host in _own_names() or host.endswith(".localhost"):
        return False
    pinned = public_url()
    theirs = _origin(pinned) if pinned else None
    return theirs is None or theirs[1].strip("[]").rstrip(".") != host


def host_middleware(public_url: Callable[[], str | None]) -> Middleware:
    """Answers nothing (421, one sentence) to a request asked of a name that is not the
    laptop's (:func:`misdirected`), reads included: a rebound page would read a seat's page."""

    @web.middleware
    async def hosts(request: web.Request, handler: Handler) -> web.StreamResponse:
        if misdirected(request, public_url):
            raise Problem(421, NOT_OURS)
        return await handler(request)

    return hosts


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


# ---- a per-page token on the writes a cookie or nothing else would let through -------------

PAGE_COOKIE = "page"  # the page's token, also in its form's hidden field of the same name
PAGE_FIELD = "page"
_PAGE_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}")


class PageTokens:
    """The per-page token of a form that needs no secret to post (the warm-up's join): a
    random value signed with a key of this server's, set as a ``SameSite=Strict`` cookie by the
    page and sent back in the form's hidden field; a post is taken only when the two are the
    same and the signature is this server's (a signed double-submit cookie, as web frameworks
    protect their forms). Another site's page cannot read the token nor set the cookie, so
    no browser is let through for what it does not send (an old Safari's ``Origin: null``
    without ``Sec-Fetch-Site``). A script reads the page first, as a phone does."""

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key if key is not None else secrets.token_bytes(32)

    def _sign(self, nonce: str) -> str:
        mac = hmac.new(self._key, nonce.encode(), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def _valid(self, token: str | None) -> bool:
        if token is None or not _PAGE_TOKEN.fullmatch(token):
            return False
        nonce, mac = token.split(".")
        return hmac.compare_digest(mac, self._sign(nonce))

    def for_page(self, request: web.Request) -> str:
        """The token a page of ``request`` carries: its cookie's, if this server signed it,
        else a new one (:meth:`keep` sets it)."""
        held = request.cookies.get(PAGE_COOKIE)
        if held is not None and self._valid(held):
            return held
        nonce = secrets.token_urlsafe(16)
        return f"{nonce}.{self._sign(nonce)}"

    def keep(self, request: web.Request, response: web.StreamResponse, token: str) -> None:
        """The page's token set as its cookie on ``response`` (unless the phone holds it)."""
        if request.cookies.get(PAGE_COOKIE) != token:
            response.set_cookie(
                PAGE_COOKIE, token, max_age=12 * 3600, httponly=True, samesite="Strict"
            )

    def check(self, request: web.Request, sent: object) -> None:
        """Refuses (403, one sentence) a post whose ``sent`` token is not its cookie's, or
        not this server's."""
        held = request.cookies.get(PAGE_COOKIE)
        if not (isinstance(sent, str) and held is not None and self._valid(held)):
            raise Problem(403, STALE_PAGE)
        if not hmac.compare_digest(sent.encode(), held.encode()):
            raise Problem(403, STALE_PAGE)
