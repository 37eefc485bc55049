"""``companion links NAME``: each seat's private link and the board's, for cards and tests."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from companion.cli.commands import summary
from companion.cli.options import check_port, check_public_url, phone_options
from companion.errors import UserError
from companion.rules.core.words import N_

if TYPE_CHECKING:
    from companion.session.prison.seats import Seat


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    where = "the address phones reach this laptop at (default: found)"
    p = sub.add_parser(
        "links",
        parents=[phone_options(host=None, host_help=where, port_help="the port in the links "
                               "(default: where the session served last, else 8765)")],
        help=summary("links"),
    )
    p.add_argument("name", help="the session's name")
    p.add_argument("--json", action="store_true",
                   help="print JSON: {seats: [...], board: URL, gm: the game master's phone's URL}"
                   " (a warm-up: {join: URL, board: URL, gm: URL}; So Long Sucker: {seats: [],"
                   " gm: URL})")
    p.set_defaults(func=run_links)


def links_base(remembered: str | None, host: str | None, port: int | None,
               public_url: str | None) -> str:
    """The base the links use: --public-url, else --host/--port, else what the session
    remembers (a pinned URL, or where the server last listened), else this laptop's address."""
    from companion.session.links import DEFAULT_PORT
    from companion.web.common.address import base_url

    if public_url:
        return check_public_url(public_url)
    check_port(port)
    if host or port:
        return base_url(host or "0.0.0.0", port or DEFAULT_PORT)
    return remembered or base_url("0.0.0.0", DEFAULT_PORT)


def seats_and_base(args: argparse.Namespace) -> tuple[list[Seat], str]:
    """The session's seats and the links' base. Seats already made are read from the session
    file's metadata alone; the first time, the session is opened to make them from its roster."""
    from companion.rules.prison import NAME
    from companion.session.create import session_meta
    from companion.session.links import base_in
    from companion.session.paths import data_dir
    from companion.session.prison.seats import stored_seats

    folder = data_dir(args.data_dir)
    meta = session_meta(folder, args.name)
    seats = stored_seats(meta) if meta.get("game") == NAME else None
    if seats is not None:
        return seats, links_base(base_in(meta), args.host, args.port, args.public_url)

    from companion.session.create import open_session
    from companion.session.links import current_base
    from companion.session.prison import is_prison
    from companion.session.prison.seats import seats_of

    session = open_session(folder, args.name)
    try:
        if not is_prison(session):
            raise UserError.of(
                N_("The session %(name)s is a %(game)s game; only prison-break sessions have "
                   "seat links."),
                name=repr(args.name), game=session.game,
            )
        base = links_base(current_base(session), args.host, args.port, args.public_url)
        return seats_of(session), base
    finally:
        session.close()


WARM_UP = "dilemma"  # the warm-up's game, as its session files name it (companion.games)


def warm_up_links(args: argparse.Namespace) -> int | None:
    """A warm-up's links (the room's join link and the board; with ``--json`` the game
    master's phone's too); ``None`` for a session of another game."""
    from companion.session.create import session_meta
    from companion.session.links import base_in
    from companion.session.night import phone_secret, phone_url
    from companion.session.paths import data_dir, session_path

    folder = data_dir(args.data_dir)
    meta = session_meta(folder, args.name)
    if meta.get("game") != WARM_UP:
        return None
    base = links_base(base_in(meta), args.host, args.port, args.public_url).rstrip("/")
    join, board = f"{base}/join-room", f"{base}/board"
    if args.json:
        import json

        # the game master's own link too (this laptop is theirs): never in the printed text
        secret = phone_secret(session_path(folder, args.name))
        print(json.dumps({"join": join, "board": board, "gm": phone_url(base, secret)},
                         indent=1, ensure_ascii=False))
        return 0
    print(f"Links for {args.name}: the players join at {join}")
    print(f"Board: {board}")
    return 0


def game_master_only(args: argparse.Namespace) -> dict[str, object] | None:
    """For a game whose players have no phones (So Long Sucker), the JSON of its one link, the
    game master's phone's, on the base the session remembers; ``None`` for any other game."""
    from companion.session.create import session_meta
    from companion.session.links import base_in
    from companion.session.night import phone_secret, phone_url
    from companion.session.paths import data_dir, session_path

    folder = data_dir(args.data_dir)
    meta = session_meta(folder, args.name)
    if meta.get("game") != "so-long-sucker":
        return None
    base = links_base(base_in(meta), args.host, args.port, args.public_url)
    secret = phone_secret(session_path(folder, args.name))
    return {"seats": [], "gm": phone_url(base, secret)}


def run_links(args: argparse.Namespace) -> int:
    from companion.session.night import phone_secret, phone_url
    from companion.session.paths import data_dir, session_path
    from companion.session.prison.seats import board_url, join_url, seat_url

    warm_up = warm_up_links(args)
    if warm_up is not None:
        return warm_up
    if args.json:
        import json

        alone = game_master_only(args)
        if alone is not None:
            print(json.dumps(alone, indent=1, ensure_ascii=False))
            return 0
    seats, base = seats_and_base(args)
    if args.json:
        import json

        # the game master's own link too (this laptop is theirs): never in the printed text
        secret = phone_secret(session_path(data_dir(args.data_dir), args.name))
        out = {
            "seats": [{"name": s.name, "role": s.role, "url": seat_url(base, s)} for s in seats],
            "board": board_url(base),
            "gm": phone_url(base, secret),
        }
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    from companion.cli.options import cli_words
    from companion.cli.wiring import ROLES

    _ = cli_words(args)
    width = max(len(s.name) for s in seats)
    roles = {s.role: _(ROLES.get(s.role, s.role)) for s in seats}
    role_width = max(len(role) for role in roles.values())
    print(_("Links for %(session)s (keep them secret; each opens one player's private page):",
            session=args.name))
    for s in seats:
        code = _("code %(code)s", code=s.code)
        print(f"  {s.name:<{width}}  {roles[s.role]:<{role_width}}  {code}  {seat_url(base, s)}")
    print(_("Board: %(url)s", url=board_url(base)))
    print(_("A player without their card types their seat code at %(url)s", url=join_url(base)))
    return 0

