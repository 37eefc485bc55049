"""``companion demo``: a ready session named ``demo``, recreated fresh each time."""

from __future__ import annotations

import argparse

from companion.cli.commands import summary
from companion.cli.options import console_lang, no_phones, phone_options, wifi_options

DEMO_WARDEN = "Wendy"
DEMO_PRISONERS = ["Ada", "Ben", "Cy", "Dee"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "demo",
        parents=[no_phones(), phone_options(), wifi_options(), console_lang(
            "the demo's language, its console's and its board's: en, de, es, fr (default: the "
            "laptop's, from LANG, for the console; English for the board)")],
        help=summary("demo"),
    )
    p.set_defaults(func=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    from companion.cli import night
    from companion.cli.consoles.prison import open_console
    from companion.session.paths import data_dir, session_path
    from companion.session.prison.create import create_prison_session

    if args.lang:
        from companion.language import check

        args.lang = check(args.lang)  # refused in one sentence before the demo is made
    night.stop_night(session_path(data_dir(args.data_dir), "demo"))  # the last demo makes way
    session = create_prison_session(
        data_dir(args.data_dir), "demo", "classic", DEMO_WARDEN, DEMO_PRISONERS, replace=True,
        holder="companion demo",
    )
    if args.lang:
        session.set("lang", args.lang)
    return open_console(session, args)
