"""The players' links' address: warn when it no longer matches the printed cards, pin the
printed one, pick one of the laptop's addresses, or reprint.

The laptop's addresses come from the composition root (``Context.addresses``, a function
returning ``(interface, address)`` pairs): the console does not import the web face. A choice
is kept in the session's ``public_url`` (see :mod:`companion.session.links`), which the links,
the Seats screen and printing use, and is written to the history as a note (the dialog is
:func:`companion.tui.prison.flows.choose_address`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from companion.session import links
from companion.session.links import DEFAULT_PORT

PUBLIC_URL = "public_url"


def host_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)


def warning(session: Any, addresses: list[tuple[str, str]] | None) -> str | None:
    """The loud line shown while the cards' address differs from the links' (else None)."""
    if not links.address_changed(session):
        return None
    printed = links.printed_base(session) or ""
    current = links.current_base(session) or ""
    text = (
        f"ADDRESS CHANGED: the cards were printed with {printed}, but the links now start "
        f"with {current}, so the printed QR codes may not work."
    )
    host, port = host_port(printed)
    if port != served_port(session):
        return text + (
            f" The phone server listens on port {served_port(session)}: quit and resume with "
            f"--port {port}, or P: reprint the cards."
        )
    if addresses is not None and all(a != host for _, a in addresses):
        text += f" This laptop has no address {host} now."
    return text + " L: pin the printed address or pick another · P: reprint the cards."


def served_port(session: Any) -> int:
    served = session.meta().get("served_url")
    return host_port(str(served))[1] if served else DEFAULT_PORT


def url_for(address: str, port: int) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}"


def options(session: Any, addresses: list[tuple[str, str]] | None) -> list[tuple[str, str]]:
    """(key, label) pairs for the address dialog; keys are ``pin``, ``unpin``, ``reprint`` or
    ``url:URL``."""
    meta = session.meta()
    printed = links.printed_base(session)
    current = links.current_base(session)
    pinned = meta.get(PUBLIC_URL)
    port = served_port(session)
    out: list[tuple[str, str]] = []
    if printed and printed != current and host_port(printed)[1] == port:
        host = host_port(printed)[0]
        if addresses is not None and all(a != host for _, a in addresses):
            why = f"only if the network gives this laptop {host} again"
        else:
            why = "the cards keep working"
        out.append(("pin", f"Pin the printed address {printed} ({why})"))
    usable = [(i, a) for i, a in addresses or [] if not a.startswith("127.")]
    for interface, address in usable if len(usable) > 1 or pinned else []:
        url = url_for(address, port)
        mark = "  (in use)" if url == current else ""
        out.append((f"url:{url}", f"Use {url}  ({interface}){mark}"))
    if pinned:
        served = meta.get("served_url")
        if served and str(served).rstrip("/") != str(pinned).rstrip("/"):
            out.append(("unpin", f"Unpin: use the address the server found ({served})"))
    out.append(("reprint", "Reprint the cards with the current links"))
    return out


def explain(session: Any, addresses: list[tuple[str, str]] | None) -> str:
    current = links.current_base(session)
    printed = links.printed_base(session)
    lines = [
        f"The links start with {current}." if current else "No phone server has run yet.",
        f"The cards were printed with {printed}." if printed else "No cards printed yet.",
    ]
    port = served_port(session)
    if printed and host_port(printed)[1] != port:
        lines.append(
            f"The cards use port {host_port(printed)[1]}, but the phone server listens on "
            f"{port}: quit and resume with --port {host_port(printed)[1]}, or reprint."
        )
    if addresses is not None and len([a for _, a in addresses if not a.startswith("127.")]) > 1:
        lines.append("This laptop has several addresses: pick the one on the players' Wi-Fi.")
    lines.append("Pinning changes only the links; the server still listens where it did.")
    return "\n".join(lines)
