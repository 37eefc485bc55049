"""``companion sucker NAME``: referee a So Long Sucker game at the table;
``companion sucker-rules``: print its one-page rules summary."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli.commands import summary
from companion.errors import UserError
from companion.rules.core.words import N_

if TYPE_CHECKING:
    import random

    from companion.session.sucker import SuckerSession

GAME = "so-long-sucker"
HOLDER = "companion sucker"  # who holds the session while the referee runs (session.lock)
EXAMPLE = "--players \"Ann:red,Bo:blue,Cat:green,Dan:yellow\""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "sucker",
        help=summary("sucker"),
        description="Referee a So Long Sucker game: the piles, captures, prisoners, rescues and "
        "defeats, move by move. A new session needs --players; an existing one resumes.",
    )
    p.add_argument("name", help="the session's name")
    p.add_argument("--players", help=f"names and colors in seating order, e.g. {EXAMPLE}")
    p.add_argument("--chips", type=int, help="chips per player (default 7)")
    p.add_argument("--first", help="who moves first (default: drawn at random)")
    p.add_argument("--lang", metavar="LANG",
                   help="the session's language and the console's: en (the default), de, es, "
                   "fr; changes an existing session's")
    p.set_defaults(func=run_sucker)

    r = sub.add_parser("sucker-rules", help=summary("sucker-rules"))
    r.add_argument("--paper", choices=("a4", "letter"), default="a4",
                   help="paper size (default: a4)")
    r.add_argument("--out", help="the PDF to write (default: so-long-sucker-rules.pdf)")
    r.add_argument("--lang", metavar="LANG",
                   help="the card's language: en (the default), de, es, fr")
    r.set_defaults(func=run_rules)


def parse_players(text: str) -> list[dict[str, str]]:
    """``"Ann:red,Bo:blue"`` as the setup's list of players."""
    players = []
    for part in text.split(","):
        name, sep, color = part.strip().partition(":")
        if not sep or not name.strip() or not color.strip() or ":" in color:
            raise UserError.of(
                N_("%(part)s in --players is not NAME:COLOR; write them as %(example)s."),
                part=repr(part.strip()), example=EXAMPLE,
            )
        players.append({"name": name.strip(), "color": color.strip()})
    return players


def make_setup(
    players: str, chips: int | None, first: str | None, rng: random.Random | None = None
) -> dict[str, Any]:
    """A setup the engine accepts; the first mover is drawn here, outside the rules core."""
    from companion.rules.sucker.engine import MAX_CHIPS, SetupError, initial_state
    from companion.rules.sucker.setup import check_known_colors

    listed = parse_players(players)
    names = [p["name"] for p in listed]
    if chips is not None and not 1 <= chips <= MAX_CHIPS:
        raise UserError.of(
            N_("--chips %(chips)s is not possible; give each player 1 to %(most)s."),
            chips=str(chips), most=str(MAX_CHIPS),
        )
    if first is not None:  # typed as in --players, or in any case
        named = [n for n in names if n.casefold() == first.strip().casefold()]
        if not named:
            raise UserError.of(
                N_("--first %(first)s is not one of the players (%(names)s)."),
                first=repr(first), names=", ".join(names),
            )
        first = named[0]
    setup = {
        "players": listed,
        "chips_per_player": 7 if chips is None else chips,
        "first": first if first is not None else (rng or _system_random()).choice(names),
    }
    try:
        check_known_colors(listed)
        initial_state(setup)
    except SetupError as error:
        raise UserError(str(error)) from None
    return setup


def _system_random() -> random.Random:
    import random  # here, not for every command's parser

    return random.SystemRandom()


def open_or_create(folder: Path, args: argparse.Namespace) -> SuckerSession:
    """The named session: resumed if it exists, else created from the options."""
    from companion.session.create import create_session
    from companion.session.paths import session_path
    from companion.session.sucker.create import open_sucker_session

    path = session_path(folder, args.name)
    if path.exists():
        if args.players or args.chips is not None or args.first:
            raise UserError.of(
                N_("A session called %(name)s already exists; resume it with 'companion sucker "
                   "%(session)s' alone, or pick another name for a new game."),
                name=repr(args.name), session=args.name,
            )
        from companion.cli.night import served_session

        served = served_session(folder, args.name, args)
        return served or open_sucker_session(folder, args.name, holder=HOLDER)
    if not args.players:
        raise UserError.of(
            N_("A new So Long Sucker session needs its players: add %(example)s."),
            example=EXAMPLE,
        )
    setup = make_setup(args.players, args.chips, args.first)
    return create_session(path, GAME, setup, HOLDER)


def run_sucker(args: argparse.Namespace) -> int:
    from companion.session.paths import data_dir, session_path

    lang = None
    if args.lang is not None:
        from companion.language import check

        lang = check(args.lang)  # refused in one sentence before anything is opened
    folder = data_dir(args.data_dir)
    existed = session_path(folder, args.name).exists()
    session = open_or_create(folder, args)
    if lang is not None:
        from companion.cli.wiring import keep_language

        keep_language(session, lang, existed=existed)
    from companion.cli.consoles.sucker import open_console

    return open_console(session, args)


def run_rules(args: argparse.Namespace) -> int:
    from companion.language import language
    from companion.printing.sucker.card import write_rules_card

    lang = language(args.lang)  # an unknown one is refused before anything is written
    out = Path(args.out or "so-long-sucker-rules.pdf")
    write_rules_card(out, args.paper, lang)
    from companion.language import console_language

    _ = console_language()  # the laptop's: this --lang is the card's
    paper = args.paper.upper() if args.paper == "a4" else "Letter"
    print(_("Wrote %(path)s (%(paper)s).", path=str(out), paper=paper))
    return 0
