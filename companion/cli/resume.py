"""``companion resume NAME``: reopen a session exactly where it stood, in the console for its
game (the prison break, the dilemma warm-up or the So Long Sucker referee)."""

from __future__ import annotations

import argparse

from companion.cli.consoles import open_by_game
from companion.cli.options import (
    console_lang,
    no_phones,
    phone_options,
    served_as_before,
    wifi_options,
)
from companion.session.create import open_session
from companion.session.paths import data_dir


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "resume",
        parents=[
            no_phones(),
            console_lang(),
            phone_options(None, "phones: listen here (default: where the session served last)"),
            wifi_options(),
        ],
        help="reopen a saved session where it stood",
    )
    p.add_argument("name", help="the session's name (see 'companion sessions')")
    p.set_defaults(func=run_resume)


def run_resume(args: argparse.Namespace) -> int:
    session = open_session(data_dir(args.data_dir), args.name, holder="companion resume")
    served_as_before(args, session)
    return open_by_game(session, args)
