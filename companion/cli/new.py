"""``companion new NAME``: a new prison-break session, set up on the set-up screen, or straight
from the command line (``--warden`` with ``--prisoners`` or ``--roster FILE``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.commands import summary
from companion.cli.options import no_phones, phone_options, wifi_options
from companion.errors import UserError
from companion.rules.core.words import N_

if TYPE_CHECKING:
    from companion.session.prison import PrisonSession
    from companion.session.session import Session


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "new",
        parents=[no_phones(), phone_options(), wifi_options()],
        help=summary("new"),
        description="Set up a new prison-break session: on the set-up screen, or at once with "
        "--warden and --prisoners or --roster. Without --scenario, the shipped scenario balanced "
        "for the group's size is picked (classic for four).",
    )
    p.add_argument("name", help="the session's name (letters, accents included, digits, - _ .)")
    p.add_argument("--scenario", help="a scenario from 'companion scenarios', or a .toml file")
    p.add_argument("--warden", metavar="NAME", help="the warden's name")
    p.add_argument("--prisoners", metavar="NAMES",
                   help='the prisoners, separated by commas: "Ada,Ben,Cy,Dee"')
    p.add_argument("--roster", metavar="FILE",
                   help="a CSV file (as a sign-up form exports it) with a name column and, if "
                   "you like, a role column (warden or prisoner)")
    p.add_argument("--lang", metavar="LANG",
                   help="the session's language for its printouts and board, and the "
                   "console's: en (the default), de, es, fr; each phone follows its own browser")
    p.add_argument("--create-only", action="store_true",
                   help="create the session and stop (open it later with 'companion resume')")
    p.set_defaults(func=run_new)


def split_names(text: str) -> list[str]:
    """``--prisoners "Ada, Ben,Cy"``: the names, each trimmed; an empty one is refused."""
    names = [name.strip() for name in text.split(",")]
    for number, name in enumerate(names, 1):
        if not name:
            raise UserError.of(
                N_('--prisoners has no name in place %(number)s; separate the names with '
                   'single commas, as in "Ada,Ben,Cy,Dee".'),
                number=number,
            )
    return names


def the_roster(args: argparse.Namespace) -> tuple[str | None, list[str]]:
    """The warden and the prisoners the options give (none: the set-up screen asks)."""
    from companion.session.roster_file import read_roster

    if args.prisoners is not None and args.roster is not None:
        raise UserError.of(N_("Give the prisoners with --prisoners or with --roster, not both."))
    warden: str | None = args.warden.strip() if args.warden is not None else None
    if args.roster is not None:
        roster = read_roster(Path(args.roster).expanduser())
        if roster.warden is not None and warden is not None and (
            roster.warden.casefold() != warden.casefold()
        ):
            raise UserError.of(
                N_("%(path)s line %(line)s makes %(name)s the warden, but --warden names "
                   "%(warden)s; keep one of them."),
                path=str(roster.path), line=roster.warden_line, name=roster.warden,
                warden=warden,
            )
        return warden or roster.warden, roster.prisoners
    if args.prisoners is not None:
        return warden, split_names(args.prisoners)
    return warden, []


def where_to_serve(
    args: argparse.Namespace,
) -> tuple[str, int, str | None, str] | None:
    """For ``--create-only``: the host, port, pinned public URL and links' base the options
    give, or ``None`` when they give none (the console picks them when it first serves)."""
    from companion.cli.options import check_port, check_public_url
    from companion.session.links import DEFAULT_PORT

    if args.port is None and args.host == "0.0.0.0" and not args.public_url:
        return None
    from companion.web.common.address import base_url

    port = check_port(args.port) or DEFAULT_PORT
    public = check_public_url(args.public_url) if args.public_url else None
    return args.host, port, public, base_url(args.host, port)


def keep_where_to_serve(
    session: Session, host: str, port: int, public: str | None, base: str
) -> None:
    """Record where the session is to be served, as a server records where it listened:
    ``companion print`` builds the cards' links on it and ``companion resume`` listens there."""
    session.set("served_on", {"host": host, "port": port})
    session.set("served_url", base)
    if public is not None:
        session.set("public_url", public)


def open_console(
    session: PrisonSession | None, args: argparse.Namespace, *,
    new: tuple[str, str | None] | None = None,
) -> int:
    """The prison break's console, imported only now (Textual is heavy)."""
    from companion.cli.consoles.prison import open_console as run

    return run(session, args, new=new)


def run_new(args: argparse.Namespace) -> int:
    from companion.cli.wiring import HOLDER, check_terminal
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.paths import data_dir, session_path
    from companion.session.prison.create import create_prison_session
    from companion.session.prison.scenarios import load_scenario, scenario_for
    from companion.session.scenario_files import scenario_name

    folder = data_dir(args.data_dir)
    path = session_path(folder, args.name)
    if path.exists():
        raise UserError.of(
            N_("A session called %(name)s already exists; resume it with "
               "'companion resume %(session)s' or pick another name."),
            name=repr(args.name), session=args.name,
        )
    lang = None
    where = None
    if args.lang is not None:
        from companion.language import check

        lang = args.lang = check(args.lang)  # the set-up screen's session gets it too
    warden, prisoners = the_roster(args)
    if prisoners and warden is None:
        raise UserError.of(
            N_("The roster has no warden; give one with --warden NAME (or a line with the role "
               "warden in the roster file).")
        )
    if not prisoners and args.create_only:
        raise UserError.of(
            N_('Give the prisoners with --prisoners "Ada,Ben,Cy,Dee" or --roster FILE to '
               "create a session without the console.")
        )
    if not prisoners and warden is not None:
        raise UserError.of(
            N_('Give the prisoners with --prisoners "Ada,Ben,Cy,Dee" or --roster FILE, or '
               "leave out --warden to type everyone on the set-up screen.")
        )
    if not prisoners and args.scenario is None:
        # Automatic: the set-up screen picks the scenario balanced for the names typed.
        return open_console(None, args, new=(args.name, None))
    scenario = args.scenario or scenario_for(len(prisoners))
    try:
        load_scenario(scenario)
    except ScenarioError as error:
        raise UserError(str(error)) from None
    if not prisoners:
        return open_console(None, args, new=(args.name, scenario))
    assert warden is not None
    if not args.create_only:
        check_terminal()  # before anything is created
    else:
        where = where_to_serve(args)  # refused in one sentence before anything is created
    session = create_prison_session(
        folder, args.name, scenario, warden, prisoners,
        holder=None if args.create_only else HOLDER,
    )
    if lang is not None:
        session.set("lang", lang)
    if not args.create_only:
        return open_console(session, args)
    if where is not None:
        keep_where_to_serve(session, *where)
    session.close()
    from companion.cli.options import cli_words

    _ = cli_words(args)
    said = {"name": repr(args.name), "scenario": scenario_name(scenario), "warden": warden,
            "prisoners": ", ".join(prisoners), "count": _.number(len(prisoners))}
    if args.scenario:
        print(_("Created the session %(name)s: the prison break with the scenario "
                "%(scenario)s; warden %(warden)s; prisoners %(prisoners)s.", **said))
    else:
        print(_("Created the session %(name)s: the prison break with the scenario "
                "%(scenario)s, picked for %(count)s prisoners; warden %(warden)s; prisoners "
                "%(prisoners)s.", **said))
    print(_("Saved in %(path)s.", path=str(path)))
    if where is not None:
        print(_("Its cards' links start with %(links)s; 'companion resume %(session)s' serves "
                "the phones on %(host)s port %(port)s.", links=where[2] or where[3],
                session=args.name, host=where[0], port=str(where[1])))
    print(_("Print its cards with 'companion print %(session)s', open it with "
            "'companion resume %(session)s'.", session=args.name))
    return 0
