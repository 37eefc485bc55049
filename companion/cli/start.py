"""``companion`` with no command (or ``companion start``): the session picker."""

from __future__ import annotations

import argparse

from companion.cli.commands import summary
from companion.cli.options import console_lang, no_phones, phone_options


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "start",
        parents=[no_phones(), phone_options(), console_lang()],
        help=summary("start"),
    )
    p.set_defaults(func=run_start)


def run_start(args: argparse.Namespace) -> int:
    from companion.cli.consoles.prison import open_console

    return open_console(None, args)
