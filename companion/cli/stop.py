"""``companion stop NAME``: stop serving a night (its phones, its board, its consoles)."""

from __future__ import annotations

import argparse

from companion.cli.commands import summary


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "stop",
        help=summary("stop"),
        description="Stop the night's server of a session. Nothing is lost: 'companion "
        "resume NAME' serves it again, on the same address.",
    )
    p.add_argument("name", help="the session's name (see 'companion sessions')")
    p.set_defaults(func=run_stop)


def run_stop(args: argparse.Namespace) -> int:
    from companion.cli.night import stop_night
    from companion.session.create import saved_session_path
    from companion.session.paths import data_dir

    path = saved_session_path(data_dir(args.data_dir), args.name)
    from companion.cli.options import cli_words

    _ = cli_words(args)
    from companion.cli.options import PHONE_GAMES
    from companion.session.create import game_of

    phones = game_of(path) in PHONE_GAMES  # read before the server lets go of the file
    if stop_night(path):
        if phones:
            said = _("Stopped serving %(session)s: its phones, board and consoles are off, "
                     "and nothing is lost. Serve it again with: companion resume %(session)s",
                     session=args.name)
        else:  # So Long Sucker: no phones, no board; the referee's page and the consoles
            said = _("Stopped serving %(session)s: the referee's page and the consoles are "
                     "off, and nothing is lost. Serve it again with: companion resume "
                     "%(session)s", session=args.name)
        print(said)
    else:
        print(_("%(session)s was not being served; nothing to stop.", session=args.name))
    return 0
