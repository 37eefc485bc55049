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

from companion.language import Language, language
from companion.session import links
from companion.session.links import DEFAULT_PORT

PUBLIC_URL = "public_url"


def host_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)


def warning(
    session: Any, addresses: list[tuple[str, str]] | None, lang: Language | None = None
) -> str | None:
    """The loud line shown while the cards' address differs from the links' (else None), in
    ``lang`` (English by default)."""
    if not links.address_changed(session):
        return None
    _ = lang or language()
    printed = links.printed_base(session) or ""
    current = links.current_base(session) or ""
    text = _(
        "ADDRESS CHANGED: the cards were printed with %(printed)s, but the links now start "
        "with %(current)s, so the printed QR codes may not work.",
        printed=printed,
        current=current,
    )
    host, port = host_port(printed)
    if port != served_port(session):
        return (
            text
            + " "
            + _(
                "The phone server listens on port %(served)s: quit and resume with --port "
                "%(port)s, or P: reprint the cards.",
                served=served_port(session),
                port=port,
            )
        )
    if addresses is not None and all(a != host for __, a in addresses):
        text += " " + _("This laptop has no address %(host)s now.", host=host)
    return text + " " + _("L: pin the printed address or pick another · P: reprint the cards.")


def served_port(session: Any) -> int:
    served = session.settings.get("served_url")
    return host_port(str(served))[1] if served else DEFAULT_PORT


def url_for(address: str, port: int) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}"


def options(
    session: Any, addresses: list[tuple[str, str]] | None, lang: Language | None = None
) -> list[tuple[str, str]]:
    """(key, label) pairs for the address dialog; keys are ``pin``, ``unpin``, ``reprint`` or
    ``url:URL``; labels in ``lang`` (English by default)."""
    _ = lang or language()
    meta = session.settings
    printed = links.printed_base(session)
    current = links.current_base(session)
    pinned = meta.get(PUBLIC_URL)
    port = served_port(session)
    out: list[tuple[str, str]] = []
    if printed and printed != current and host_port(printed)[1] == port:
        host = host_port(printed)[0]
        if addresses is not None and all(a != host for __, a in addresses):
            why = _("only if the network gives this laptop %(host)s again", host=host)
        else:
            why = _("the cards keep working")
        out.append(("pin", _("Pin the printed address %(url)s (%(why)s)", url=printed, why=why)))
    usable = [(i, a) for i, a in addresses or [] if not a.startswith("127.")]
    for interface, address in usable if len(usable) > 1 or pinned else []:
        url = url_for(address, port)
        mark = "  " + _("(in use)") if url == current else ""
        use = _("Use %(url)s  (%(interface)s)", url=url, interface=interface)
        out.append((f"url:{url}", use + mark))
    if pinned:
        served = meta.get("served_url")
        if served and str(served).rstrip("/") != str(pinned).rstrip("/"):
            out.append(
                (
                    "unpin",
                    _("Unpin: use the address the server found (%(url)s)", url=str(served)),
                )
            )
    out.append(("reprint", _("Reprint the cards with the current links")))
    return out


def explain(
    session: Any, addresses: list[tuple[str, str]] | None, lang: Language | None = None
) -> str:
    """What the address dialog says above its options, in ``lang`` (English by default)."""
    _ = lang or language()
    current = links.current_base(session)
    printed = links.printed_base(session)
    lines = [
        _("The links start with %(url)s.", url=current)
        if current
        else _("No phone server has run yet."),
        _("The cards were printed with %(url)s.", url=printed)
        if printed
        else _("No cards printed yet."),
    ]
    port = served_port(session)
    if printed and host_port(printed)[1] != port:
        lines.append(
            _(
                "The cards use port %(port)s, but the phone server listens on %(served)s: quit "
                "and resume with --port %(port)s, or reprint.",
                port=host_port(printed)[1],
                served=port,
            )
        )
    if addresses is not None and len([a for __, a in addresses if not a.startswith("127.")]) > 1:
        lines.append(_("This laptop has several addresses: pick the one on the players' Wi-Fi."))
    lines.append(_("Pinning changes only the links; the server still listens where it did."))
    return "\n".join(lines)
