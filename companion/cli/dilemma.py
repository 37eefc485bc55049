"""``companion dilemma NAME``: the two-prisoner dilemma warm-up, a tournament for the whole room.

Creates the session the first time (from ``scenarios/dilemma.toml``), reopens it after that
(also after a crash: the log holds every join and choice), has its night's server serve the
phones (started detached, or found running) and shows the room's QR code in the console.
``--poster FILE`` writes a one-page PDF of the room's QR code instead. ``--lang LANG`` sets the
session's language (the board, the poster and the exported summary; each phone picks its own):
stored when the session is made, changed (and the change noted in the log) when it is reopened;
with ``--export`` it is the summary's language for once, the session's left as it is.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.commands import summary
from companion.cli.options import (
    apply_wifi,
    check_port,
    check_public_url,
    check_wifi,
    no_phones,
    phone_options,
    wifi_options,
)
from companion.errors import UserError
from companion.rules.core.words import N_

if TYPE_CHECKING:
    from companion.session.session import Session


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "dilemma",
        parents=[no_phones(), phone_options(), wifi_options()],
        help=summary("dilemma"),
    )
    p.add_argument("name", help="the session's name (created the first time, reopened after)")
    p.add_argument("--rounds", type=int, default=None, help="rounds to play (new sessions only)")
    p.add_argument("--scenario", default="dilemma", help="the scenario file (default: dilemma)")
    p.add_argument("--poster", metavar="FILE.pdf", help="write the room's QR poster and exit")
    p.add_argument(
        "--timer",
        type=str,
        default=None,
        metavar="SECONDS",
        help="each round's timer from the next round on, 10 to 3600 seconds (at zero the round "
        "closes; who has not chosen gives no answer); 0: no timer (the console's t changes it)",
    )
    p.add_argument(
        "--per-device",
        type=int,
        default=None,
        metavar="N",
        help="phones: players in at once who joined from one device address (default 10, and "
        "at most 6 joining a minute); 0: no limit (every phone behind one proxy address)",
    )
    p.add_argument("--lang", metavar="LANG",
                   help="the session's language for its board and poster, and the console's: "
                   "en (the default), de, es, fr; changes an existing session's (with --export: "
                   "the summary's, for once)")
    p.add_argument(
        "--export",
        metavar="FILE.csv",
        help="write the results (one row per player per round; .csv or .json) and a Markdown "
        "summary beside it (in the session's language, or --lang's), and exit",
    )
    p.set_defaults(func=run_dilemma)


def run_dilemma(args: argparse.Namespace) -> int:
    from companion.cli.consoles.dilemma import open_console
    from companion.cli.wiring import keep_language, room_poster
    from companion.session.dilemma.create import open_or_create_dilemma
    from companion.session.links import DEFAULT_PORT
    from companion.session.paths import data_dir, session_path

    port = check_port(args.port) or DEFAULT_PORT
    public_url = check_public_url(args.public_url) if args.public_url else None
    wifi = check_wifi(args)
    if args.per_device is not None and not 0 <= args.per_device <= 1000:
        raise UserError.of(
            N_("--per-device %(number)s is out of range; give 1 to 1000, or 0 for no limit."),
            number=str(args.per_device),
        )
    if args.rounds is not None and not 1 <= args.rounds <= 100:
        raise UserError.of(N_("--rounds %(number)s is out of range; play 1 to 100 rounds."),
                           number=str(args.rounds))
    timer = check_timer(args.timer)
    lang = None
    if args.lang is not None:
        from companion.language import check

        lang = check(args.lang)  # refused in one sentence before anything is opened
    folder = data_dir(args.data_dir)
    if args.export:
        return export(folder, args.name, Path(args.export), lang)
    existed = session_path(folder, args.name).exists()
    from companion.cli.night import served_session

    session = served_session(folder, args.name, args) or open_or_create_dilemma(
        folder, args.name, args.scenario, args.rounds, holder="companion dilemma"
    )
    try:
        if lang is not None:
            keep_language(session, lang, existed=existed)
        apply_wifi(session, wifi)
        if timer is not None:
            keep_timer(session, timer)
        if args.poster:
            from companion.web.common.address import base_url

            base = public_url or session.settings.get("public_url") or base_url(args.host, port)
            path = room_poster(session, Path(args.poster), f"{str(base).rstrip('/')}/join-room")
            from companion.cli.options import cli_words

            _ = cli_words(args)
            print(_("Wrote the room's QR poster to %(path)s.", path=str(path)))
            return 0
        return open_console(session, args)
    finally:
        session.close()


def check_timer(typed: str | None) -> int | None:
    """``--timer``'s seconds per round (0: no timer), or ``None`` when it was not given;
    refused in one sentence when it is not a whole number of 10 to 3600 seconds, or 0."""
    if typed is None:
        return None
    text = typed.strip().lower().removesuffix("s").strip()
    if not text.isdigit() or not (int(text) == 0 or 10 <= int(text) <= 3600):
        raise UserError.of(
            N_("--timer %(typed)s is not a round's length; give the seconds per round, 10 to "
               "3600 (such as --timer 90), or 0 for no timer."), typed=repr(typed),
        )
    return int(text)


def keep_timer(session: Session, seconds: int) -> None:
    """The rounds to come last ``seconds`` (0: no timer): the console's own setting (``t``),
    recorded in the log as it records it, and only when it changes."""
    from companion.rules.dilemma.room import SetRoundSeconds
    from companion.session.dilemma import is_dilemma

    if not is_dilemma(session):
        raise UserError.of(
            N_("The session %(name)s is not a dilemma warm-up; --timer is for the warm-up."),
            name=repr(session.name),
        )
    if (session.room.seconds or 0) != seconds:
        session.stage(SetRoundSeconds(seconds))


def export(folder: Path, name: str, path: Path, lang: str | None = None) -> int:
    """Write the results of the session ``name`` to ``path`` (.csv or .json) and the Markdown
    summary beside it (same name, .md), the summary in ``lang`` (else the session's language);
    reads the session without holding it. The rows' keys and values stay language-neutral."""
    import csv
    import json

    from companion.rules.dilemma.results import COLUMNS, rows
    from companion.rules.dilemma.views import board
    from companion.session.create import open_session
    from companion.session.dilemma import is_dilemma

    if path.suffix.lower() not in (".csv", ".json"):
        raise UserError.of(
            N_("--export %(path)s must end in .csv or .json; pick one of the two."),
            path=str(path),
        )
    session = open_session(folder, name)
    try:
        if not is_dilemma(session):
            raise UserError.of(
                N_("The session %(name)s is not a dilemma warm-up; --export is for the warm-up."),
                name=repr(name),
            )
        from companion.language import language, negotiate
        from companion.rules.dilemma.summary import markdown

        words = language(lang or negotiate([str(session.settings.get("lang") or "")]))
        state = session.state
        table = rows(state, spreadsheet=path.suffix.lower() == ".csv")
        summary = path.with_suffix(".md")
        try:
            if path.suffix.lower() == ".csv":
                with path.open("w", newline="", encoding="utf-8") as handle:
                    # CRLF, as RFC 4180 has it and as every CSV the app writes.
                    writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\r\n")
                    writer.writeheader()
                    writer.writerows(table)
            else:
                view = board(state)
                data = {
                    "session": session.name,
                    "rows": table,
                    "leaderboard": view["leaderboard"],
                    "house": view["house"],
                    "cooperation": view["cooperation"],
                    "debrief": view["debrief"],
                }
                path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
            summary.write_text(markdown(session.name, state, words.say), encoding="utf-8")
        except OSError as error:
            raise UserError.of(
                N_("The results could not be written to %(path)s (%(why)s); pick a folder you "
                   "can write to."), path=str(path), why=str(error.strerror),
            ) from None
    finally:
        session.close()
    from companion.language import console_language

    _ = console_language()  # the laptop's: --lang with --export names the summary's language
    print(_.n_("Wrote %(count)s row to %(path)s and the summary to %(summary)s.",
               "Wrote %(count)s rows to %(path)s and the summary to %(summary)s.", len(table),
               path=str(path), summary=str(summary)))
    return 0
