"""``companion playtests``: the designers' notebook. Every finished prison break is a playtest;
the report sets the real tables beside what the bots predict for the same scenario and size.
``import`` brings in games played elsewhere, ``export`` shares them (``--anonymous``: seats for
names), ``fit`` learns the bots' habits from them (``--mix table``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.commands import summary
from companion.cli.options import pick_mix, print_csv, whole
from companion.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Callable

    from companion.sim.notebook.figures import GroupKey
    from companion.sim.notebook.report import Notebook
    from companion.sim.notebook.shelf import Shelf

HOW_TO_GET_GAMES = (
    "play one ('companion new', then the console), rehearse one with bots ('companion "
    "rehearse', then --include-rehearsals), or bring in games played elsewhere with "
    "'companion playtests import FILE'"
)


def _folders_options(p: argparse.ArgumentParser, *, top: bool) -> None:
    """``--data-dir`` (repeatable) and ``--include-rehearsals``; on an action, given only when
    typed, so that the same options typed before the action are kept."""
    keep = None if top else argparse.SUPPRESS
    p.add_argument("--data-dir", dest="more_data_dirs", metavar="DIR", action="append",
                   default=keep,
                   help="also read the sessions and games kept in DIR (repeatable)")
    p.add_argument("--include-rehearsals", action="store_true",
                   default=False if top else argparse.SUPPRESS,
                   help="count rehearsals with bots as real tables")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "playtests",
        help=summary("playtests"),
        description="Every finished prison break in the data folder (and in folders given "
        "with --data-dir) is a playtest. For each scenario and group size: how the games "
        "ended, with 95% intervals, how they were played, beside the bots' prediction for "
        "the same rules and size, and where the two disagree beyond chance.",
    )
    _folders_options(p, top=True)
    p.add_argument("--games", metavar="G", default="1000",
                   help="bot games played for each group (default: 1000)")
    p.add_argument("--seed", metavar="S", default="1", help="random seed (default: 1)")
    p.add_argument("--mix", default="standard",
                   help="the bots' mix, or table: learned by 'companion playtests fit' "
                   "(default: standard)")
    p.add_argument("--jobs", metavar="J", help="processes to use (default: one per core)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the report as JSON")
    out.add_argument("--csv", action="store_true",
                     help="print the figures as CSV, a row for the real tables and one for the "
                     "bots in each group")
    out.add_argument("--markdown", metavar="DIR",
                     help="write DIR/playtests.md with its charts (SVG) in DIR/charts")
    p.set_defaults(func=run_report)
    actions = p.add_subparsers(dest="action", metavar="ACTION")

    imp = actions.add_parser(
        "import", help="bring in a session file, a game script or an export",
        description="Bring in finished games played elsewhere: a session file from another "
        "game master's laptop, a game script (the format 'companion replay' reads) for a "
        "game played on paper, or a file 'companion playtests export' wrote. A game already "
        "in the notebook counts once.",
    )
    imp.add_argument("file", help="the file to bring in (into the data folder: --data-dir "
                     "before 'playtests' names another)")
    imp.set_defaults(func=run_import)

    exp = actions.add_parser(
        "export", help="write the finished games to a file, for the team",
        description="Write every finished game to one JSON file that 'companion playtests "
        "import' reads on another laptop.",
    )
    exp.add_argument("file", help="the file to write")
    exp.add_argument("--anonymous", action="store_true",
                     help="replace the players' names by seat numbers")
    _folders_options(exp, top=False)
    exp.set_defaults(func=run_export)

    fit = actions.add_parser(
        "fit", help="learn the bots' habits from the recorded games (--mix table)",
        description="Estimate from the recorded games how often prisoners work, take a deal "
        "and accuse, and how the warden chooses whom to search; save them as the mix 'table' "
        "that simulate, balance and the Balance screen play with --mix table.",
    )
    _folders_options(fit, top=False)
    fit.set_defaults(func=run_fit)


def _folders(args: argparse.Namespace) -> list[Path]:
    from companion.session.paths import data_dir

    folders = [data_dir(args.data_dir)]
    for extra in getattr(args, "more_data_dirs", None) or []:
        folder = Path(extra).expanduser()
        if not folder.is_dir():
            raise UserError(f"--data-dir {extra}: there is no folder there; give a folder "
                            "that holds session files.")
        if folder.resolve() not in {f.resolve() for f in folders}:
            folders.append(folder)
    return folders


def _shelf(folders: list[Path]) -> Shelf:
    from companion.session.prison.scenarios import load_named_scenario
    from companion.sim.notebook.shelf import gather

    return gather(folders, load_named_scenario)


def _where(folders: list[Path]) -> str:
    return ", ".join(str(f) for f in folders)


def _none_yet(shelf: Shelf, folders: list[Path], include: bool) -> UserError:
    left = sum(p.rehearsal for p in shelf.playtests)
    if left and not include:
        return UserError(
            f"No finished game with people yet in {_where(folders)} ({left} rehearsal"
            f"{'s' if left > 1 else ''} with bots left out: --include-rehearsals counts them); "
            f"{HOW_TO_GET_GAMES}.", status=1)
    return UserError(f"No finished prison break yet in {_where(folders)}; {HOW_TO_GET_GAMES}.",
                     status=1)


def run_report(args: argparse.Namespace) -> int:
    from companion.cli.terminal import progress, running_total, wants_table
    from companion.sim.learned import mix_named
    from companion.sim.notebook import report
    from companion.sim.notebook.figures import groups
    from companion.sim.runner import Pool, default_jobs

    games = whole(args.games, "--games", 10, 1_000_000)
    seed = whole(args.seed, "--seed", 0, 2**63)
    jobs = whole(args.jobs, "--jobs", 1, 64) or default_jobs()
    mix = pick_mix(args.mix, learned=True)
    assert games is not None and seed is not None
    folders = _folders(args)
    shelf = _shelf(folders)
    include = bool(args.include_rehearsals)
    playtests = shelf.real(include)
    if not playtests:
        raise _none_yet(shelf, folders, include)
    left_out = len(shelf.playtests) - len(playtests)
    total = games * len(groups(playtests))

    with progress("The bots play", total, "games") as bar, \
            Pool(min(jobs, max(1, games // 100))) as pool:

        def on_group(key: GroupKey) -> Callable[[int], None]:
            bar.say(key.label())
            return running_total(bar)

        nb = report.build(
            playtests, pool, mix=mix, mix_summary=mix_named(mix).summary(), bot_games=games,
            seed=seed, left_out=left_out, unreadable=shelf.unreadable, unfinished=shelf.unfinished,
            on_group=on_group,
        )
        pool.close()
    if args.json:
        sys.stdout.write(report.as_json(nb))
    elif args.csv:
        print_csv(report.as_csv(nb))
    elif args.markdown:
        try:
            path = report.write_markdown(nb, Path(args.markdown).expanduser())
        except OSError as error:
            raise UserError(f"--markdown {args.markdown}: the report cannot be written there: "
                            f"{error.strerror}; pick a folder you can write to.") from None
        print(f"Wrote {path} with {2 * len(nb.groups)} charts in {path.parent / 'charts'}.")
    elif wants_table():
        print_report(nb)
    else:
        sys.stdout.write(report.text(nb))
    return 0


def print_report(nb: Notebook) -> None:
    """The notebook as a terminal shows it: each group's figures as a table that fits."""
    from companion.cli.terminal import print_tables
    from companion.sim.notebook import report

    print(report.headline(nb))
    print(report.bots_line(nb))
    for problem in nb.unreadable:
        print(f"Left out, unreadable: {problem}")
    for group in nb.groups:
        played = f", last played {group.last_played}" if group.last_played else ""
        print()
        print_tables(f"{group.key.label()}: {group.games_said()}{played}",
                     ("", "real tables", f"bots ({group.bots.games} games)"),
                     report.rows(group), lead="left")
        for verdict in report.group_verdict(group):
            print(f"  * {verdict}")


def run_import(args: argparse.Namespace) -> int:
    from companion.session.paths import data_dir
    from companion.session.prison.scenarios import load_named_scenario
    from companion.sim.notebook.playtest import PlaytestError
    from companion.sim.notebook.shelf import import_games, notebook_folder

    folder = data_dir(args.data_dir)
    try:
        new, again = import_games(Path(args.file).expanduser(), folder, load_named_scenario)
    except PlaytestError as error:
        raise UserError(f"Nothing was imported: {error}") from None
    said = []
    if new:
        rehearsals = sum(p.rehearsal for p in new)
        extra = f" ({rehearsals} of them rehearsals with bots)" if rehearsals else ""
        said.append(f"Imported {len(new)} {'game' if len(new) == 1 else 'games'}{extra} "
                    f"into {notebook_folder(folder)}")
    if again:
        said.append(f"{len(again)} {'was' if len(again) == 1 else 'were'} already in the "
                    "notebook and counted once")
    print("; ".join(said) + ".")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from companion.sim.notebook.shelf import export_text

    folders = _folders(args)
    shelf = _shelf(folders)
    include = bool(getattr(args, "include_rehearsals", False))
    playtests = shelf.real(include)
    if not playtests:
        raise _none_yet(shelf, folders, include)
    path = Path(args.file).expanduser()
    try:
        path.write_text(export_text(playtests, args.anonymous), encoding="utf-8")
    except OSError as error:
        raise UserError(f"{path} cannot be written: {error.strerror}; pick another file.") \
            from None
    names = "players' names replaced by seat numbers" if args.anonymous else "players' names kept"
    print(f"Wrote {len(playtests)} {'game' if len(playtests) == 1 else 'games'} to {path} "
          f"({names}).")
    return 0


def run_fit(args: argparse.Namespace) -> int:
    from companion.sim.learned import save_mix
    from companion.sim.notebook.fit import describe, fit

    folders = _folders(args)
    shelf = _shelf(folders)
    include = bool(getattr(args, "include_rehearsals", False))
    playtests = shelf.real(include)
    if not playtests:
        raise _none_yet(shelf, folders, include)
    found = fit(playtests)
    try:
        path = save_mix(found.mix(), found.basis())
    except OSError as error:
        raise UserError(f"The learned mix cannot be saved: {error.strerror}; check that the "
                        "scenario folder ('companion scenarios' shows it) is writable.") from None
    print("\n".join(describe(found)))
    print(f"Saved as the mix 'table' in {path}; play it with --mix table "
          "(companion simulate, balance, playtests).")
    if found.games < 10:
        print(f"{found.games} {'game is' if found.games == 1 else 'games are'} few: the "
              "intervals above say how loosely these habits are known.")
    return 0
