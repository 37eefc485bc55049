"""``companion resume NAME``: reopen a session exactly where it stood, in the console for its
game (the prison break, the dilemma warm-up or the So Long Sucker referee)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from companion.cli.commands import summary
from companion.cli.options import (
    PORT_AS_BEFORE,
    console_lang,
    no_phones,
    phone_options,
    served_as_before,
    wifi_options,
)

if TYPE_CHECKING:
    from companion.session.session import Session


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "resume",
        parents=[
            no_phones(),
            console_lang(),
            phone_options(None, "phones: listen here (default: where the session served last)",
                          PORT_AS_BEFORE),
            wifi_options(),
        ],
        help=summary("resume"),
    )
    p.add_argument("name", help="the session's name (see 'companion sessions')")
    p.set_defaults(func=run_resume)


def open_by_game(session: Session, args: argparse.Namespace) -> int:
    """The console for the session's game, imported only now (Textual is heavy)."""
    from companion.cli.consoles import open_by_game as open_console

    return open_console(session, args)


def run_resume(args: argparse.Namespace) -> int:
    from companion.cli.night import served_session
    from companion.session.create import open_session
    from companion.session.paths import data_dir

    folder = data_dir(args.data_dir)
    session = served_session(folder, args.name, args)  # a night still served: attach to it
    if session is None:
        session = open_session(folder, args.name, holder="companion resume")
        served_as_before(args, session)
    return open_by_game(session, args)
