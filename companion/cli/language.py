"""``companion language NAME [LANG]``: a session's language, shown or changed, for every game.

Without LANG it says which language the session speaks and which ones there are; with LANG it
stores it (the change noted in the session's log, see :func:`~companion.cli.wiring.keep_language`).
The session is read without being held, so this works while its console and phone server run:
the board reads the session's language at each request (it shows the new one from its next
update, or at once when reloaded) and so do the printouts and the warm-up's poster and export.
An unknown session or language is refused in one sentence and nothing is changed.
"""

from __future__ import annotations

import argparse

from companion.cli.commands import summary


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "language",
        help=summary("language"),
    )
    p.add_argument("name", help="the session's name")
    p.add_argument("lang", nargs="?", metavar="LANG",
                   help="the new language: en, de, es, fr (without it: show the current one)")
    p.set_defaults(func=run_language)


def described(code: str) -> str:
    """``Deutsch (de)``: a language by its own name and its code."""
    from companion.language import available, language

    return f"{language(code).name} ({code})" if code in available() else code


def run_language(args: argparse.Namespace) -> int:
    from companion.cli.wiring import keep_language
    from companion.language import SOURCE, available, check
    from companion.session.create import open_session
    from companion.session.paths import data_dir

    lang = check(args.lang) if args.lang is not None else None  # refused before opening
    from companion.cli.night import served_session
    from companion.cli.options import cli_words

    _ = cli_words(args)
    folder = data_dir(args.data_dir)
    # while a night's server serves it, the change goes through it (the one writer)
    session = served_session(folder, args.name, args) or open_session(folder, args.name)
    try:
        before = str(session.settings.get("lang") or SOURCE)
        if lang is None:
            print(_("The session %(name)s speaks %(language)s.", name=repr(args.name),
                    language=described(before)))
            print(_("The languages there are: %(languages)s",
                    languages=", ".join(described(c) for c in available())))
            print(_("Change it with: companion language %(session)s LANG", session=args.name))
            return 0
        if lang == before:
            print(_("The session %(name)s already speaks %(language)s; nothing changed.",
                    name=repr(args.name), language=described(lang)))
            return 0
        keep_language(session, lang, existed=True)
    finally:
        session.close()
    print(_(
        "The session %(name)s now speaks %(language)s instead of %(before)s: its board follows "
        "from its next update (reload it to see it at once), and so do its printouts; the "
        "change is noted in its log.", name=repr(args.name), language=described(lang),
        before=described(before),
    ))
    return 0
