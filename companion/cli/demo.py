"""``companion demo``: a ready session named ``demo``, recreated fresh each time."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.serve import add_phone_options

DEMO_WARDEN = "Wendy"
DEMO_PRISONERS = ["Ada", "Ben", "Cy", "Dee"]


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="open a fresh demo session (warden Wendy; Ada, Ben, Cy, Dee)")
    p.add_argument("--no-phones", action="store_true", help="run without the phone server")
    add_phone_options(p)
    p.set_defaults(func=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    from companion.cli.sessions import create_prison_session
    from companion.session.paths import data_dir

    session = create_prison_session(
        data_dir(args.data_dir), "demo", "classic", DEMO_WARDEN, DEMO_PRISONERS, replace=True,
        holder="companion demo",
    )
    from companion.cli.sessions import open_console

    return open_console(session, args)
