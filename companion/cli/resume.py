"""``companion resume NAME``: reopen a session exactly where it stood, in the console for its
game (the prison break, the dilemma warm-up or the So Long Sucker referee)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.serve import add_phone_options


def register(sub: Any) -> None:
    p = sub.add_parser("resume", help="reopen a saved session where it stood")
    p.add_argument("name", help="the session's name (see 'companion sessions')")
    p.add_argument("--no-phones", action="store_true", help="run without the phone server")
    add_phone_options(p)
    p.set_defaults(func=run_resume)


def run_resume(args: argparse.Namespace) -> int:
    from companion.cli.sessions import open_by_game, open_session
    from companion.session.paths import data_dir

    session = open_session(data_dir(args.data_dir), args.name, holder="companion resume")
    return open_by_game(session, args)
