"""``companion links NAME``: each seat's private link and the board's, for cards and tests."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.errors import UserError


def register(sub: Any) -> None:
    p = sub.add_parser("links", help="print each seat's private link, its seat code and the board")
    p.add_argument("name", help="the session's name")
    p.add_argument("--json", action="store_true", help="print JSON: {seats: [...], board: URL}")
    p.add_argument("--host", help="the address phones reach this laptop at (default: found)")
    p.add_argument("--port", type=int, help="the phone server's port (default: 8765)")
    p.add_argument("--public-url", metavar="URL", help="build the links on this base URL")
    p.set_defaults(func=run_links)


def check_public_url(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise UserError(
            f"{url!r} is not a usable public URL; give one like http://192.168.1.20:8765."
        )
    return url.rstrip("/")


def check_port(port: int | None) -> int | None:
    if port is not None and not 1 <= port <= 65535:
        raise UserError(
            f"The port {port} is out of range; use a number from 1 to 65535, such as 8765."
        )
    return port


def links_base(session: Any, host: str | None, port: int | None, public_url: str | None) -> str:
    """The base the links use: --public-url, else --host/--port, else what the session
    remembers (a pinned URL, or where the server last listened), else this laptop's address."""
    from companion.session.links import DEFAULT_PORT, current_base
    from companion.web.common.address import base_url

    if public_url:
        return check_public_url(public_url)
    check_port(port)
    if host or port:
        return base_url(host or "0.0.0.0", port or DEFAULT_PORT)
    return current_base(session) or base_url("0.0.0.0", DEFAULT_PORT)


def run_links(args: argparse.Namespace) -> int:
    from companion.cli.sessions import open_session
    from companion.session.paths import data_dir
    from companion.session.seats import board_url, join_url, seat_url, seats_of

    session = open_session(data_dir(args.data_dir), args.name)
    try:
        base = links_base(session, args.host, args.port, args.public_url)
        seats = seats_of(session)
    finally:
        session.close()
    if args.json:
        out = {
            "seats": [{"name": s.name, "role": s.role, "url": seat_url(base, s)} for s in seats],
            "board": board_url(base),
        }
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    width = max(len(s.name) for s in seats)
    print(f"Links for {args.name} (keep them secret; each opens one player's private page):")
    for s in seats:
        print(f"  {s.name:<{width}}  {s.role:<8}  code {s.code}  {seat_url(base, s)}")
    print(f"Board: {board_url(base)}")
    print(f"A player without their card types their seat code at {join_url(base)}")
    return 0
