"""The address players' links are built on, and whether it changed since the cards were printed.

Metadata keys in the session file:
- ``public_url``: an address the game master pinned (``--public-url``); wins over the rest;
- ``served_url``: where the phone server last listened (set when it starts);
- ``served_on``: the host and port it listened on, which ``resume`` and ``serve`` reuse;
- ``printed_url``: the address the cards were printed with (set by printing).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.session.session import Session

DEFAULT_PORT = 8765


def current_base(session: Session) -> str | None:
    return base_in(session.settings)


def base_in(meta: Mapping[str, Any]) -> str | None:
    """The links' base a session's settings remember: a pinned URL, else where it served."""
    base = meta.get("public_url") or meta.get("served_url")
    return str(base).rstrip("/") if base else None


def printed_base(session: Session) -> str | None:
    base = session.settings.get("printed_url")
    return str(base).rstrip("/") if base else None


def address_changed(session: Session) -> bool:
    """True when cards were printed with an address the links no longer use."""
    printed, current = printed_base(session), current_base(session)
    return bool(printed and current and printed != current)


def served_on(session: Session) -> tuple[str, int] | None:
    """The host and port the session's phone server last listened on, if it ever did."""
    last = session.settings.get("served_on")
    if not isinstance(last, dict):
        return None
    host, port = last.get("host"), last.get("port")
    if not isinstance(host, str) or isinstance(port, bool) or not isinstance(port, int):
        return None
    return host, port
