"""``companion print NAME``: the session's cards and sheets as one PDF; ``--generic``: the
session-independent sheets of the classic scenario into printables/."""

from __future__ import annotations

import argparse

from companion.cli.commands import summary
from companion.cli.options import apply_wifi, check_wifi, wifi_options
from companion.errors import UserError
from companion.rules.core.words import N_


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "print",
        parents=[wifi_options()],
        help=summary("print"),
        description="Write one PDF with everything a session's table needs: a card per seat "
        "with its personal QR code, token sheets, night tracker, rules card and warden's screen.",
    )
    p.add_argument("name", nargs="?", help="the session to print (see 'companion sessions')")
    p.add_argument("--paper", help="a4 (the default) or letter; with --generic: both by default")
    p.add_argument("--out", metavar="FILE", help="where to write the PDF (default: NAME-PAPER.pdf; "
                   "with --generic: a folder, default printables/)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address phones reach this laptop at, e.g. http://192.168.1.20:8765")
    p.add_argument("--lang", metavar="LANG",
                   help="print in this language for once (en, de, es, fr); by default the "
                   "session's own, set with 'companion new --lang'")
    p.add_argument("--generic", action="store_true",
                   help="write the classic scenario's token sheets, night tracker and rules card "
                   "(no session needed), one PDF per paper size")
    p.set_defaults(func=run_print)


def run_print(args: argparse.Namespace) -> int:
    from companion.cli.options import cli_words
    from companion.printing.common.layout import paper_named
    from companion.printing.prison.document import print_generic, print_session

    paper = paper_named(args.paper or "a4")
    wifi = check_wifi(args)  # a bad combination is refused before anything is opened
    if args.lang is not None and not args.generic:
        from companion.language import check

        args.lang = check(args.lang)  # refused in one sentence before the session is opened
    if args.generic:
        if args.name or args.public_url or args.lang or wifi is not None:
            raise UserError.of(
                N_("--generic prints no session (its sheets are the committed English ones); "
                   "leave out the session name, --public-url, --lang and the --wifi options.")
            )
        papers = [paper.name] if args.paper else None
        _ = cli_words(args)
        for path in print_generic(args.out, papers):
            print(_("Wrote %(path)s", path=str(path)))
        return 0
    if not args.name:
        raise UserError.of(
            N_("Name the session to print (see 'companion sessions'), or use --generic.")
        )
    from companion.cli.night import served_session
    from companion.session.create import open_session
    from companion.session.links import current_base
    from companion.session.paths import data_dir

    folder = data_dir(args.data_dir)
    # while a night's server serves it, what printing records goes through it (the one writer)
    session = served_session(folder, args.name, args) or open_session(folder, args.name)
    try:
        # No address given or used before: the links are on this laptop's address on the
        # network it is on now, which is not the venue's if the cards are printed at home.
        guessed = not args.public_url and current_base(session) is None
        out = args.out or f"{session.name}-{paper.name}.pdf"
        if wifi is not None:
            from companion.session.prison import is_prison

            if is_prison(session):  # another game's session is refused by printing, unchanged
                apply_wifi(session, wifi)
        path = print_session(session, paper.name, out, args.public_url, args.lang)
        printed = session.settings.get("printed_url")
    finally:
        session.close()
    _ = cli_words(args)
    print(_("Wrote %(path)s (links on %(url)s).", path=str(path), url=str(printed)))
    if guessed:
        print(_(
            "The QR codes point at %(url)s, this laptop's address on the network it is on "
            "now; print on the venue's network, or give an address that stays the same with "
            "--public-url (the seat codes work at any address).", url=str(printed)
        ))
    return 0

