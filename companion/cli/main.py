"""The ``companion`` command: the composition root.

Each subcommand lives in its own module under :mod:`companion.cli` and offers
``register(subparsers)``; :mod:`~companion.cli.commands` indexes them. They share
:mod:`~companion.cli.options` and :mod:`~companion.cli.wiring`. Only ``companion/__main__.py``
imports this module. Heavy libraries (Textual, aiohttp, fpdf2) are imported only inside the
function that runs a command, so ``companion replay`` starts quickly.
"""

from __future__ import annotations

import argparse
import codecs
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from companion import __version__, cli
from companion.cli.commands import COMMANDS
from companion.cli.options import Formatter
from companion.errors import UserError

TYPE_CHECKING = False  # typing would cost `companion --help` 0.2x (benchmarks/cli.py)
if TYPE_CHECKING:
    from typing import Any, NoReturn

# what the commands share
NOT_COMMANDS = {"main", "commands", "options", "wiring", "consoles", "terminal", "night"}


class _Parser(argparse.ArgumentParser):
    """Usage mistakes get one line, not a usage dump; an unknown option is named before any
    missing argument ('companion new -x' is about -x, not about the name); help as wide as the
    terminal (:class:`~companion.cli.options.Formatter`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}; see '{self.prog} --help'.\n")

    def _check_value(self, action: argparse.Action, value: object) -> None:
        """A command that does not exist is named, with the one it was probably meant to be
        ("sesions": sessions), instead of the list of every command."""
        if isinstance(action, argparse._SubParsersAction) and value not in action.choices:
            import difflib

            close = difflib.get_close_matches(str(value), list(action.choices), n=1)
            meant = f" (did you mean '{close[0]}'?)" if close else ""
            self.error(f"there is no command {value!r}{meant}")
        super()._check_value(action, value)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._subparsers is None:  # a command's own parser: it sees only its arguments
            unknown = self._unknown_option(sys.argv[1:] if args is None else list(args))
            if unknown is not None:
                self.error(f"there is no option {unknown}")
        return super().parse_known_args(args, namespace)

    def _unknown_option(self, args: list[str]) -> str | None:
        known = self._option_string_actions
        for arg in args:
            if arg == "--":
                return None
            if not arg.startswith("-") or arg == "-" or arg[1:2].isdigit():
                continue
            option = arg.split("=", 1)[0]
            if option in known or option[:2] in known:  # --port=1, -p8765
                continue
            if option.startswith("--") and any(o.startswith(option) for o in known):
                continue  # an abbreviation argparse will resolve (or call ambiguous)
            return option
        return None


# The global options that answer before any command is parsed.
GLOBAL_FLAGS = {"-h", "--help", "--version"}


def command_modules(argv: Sequence[str] | None) -> list[str] | None:
    """The modules whose commands ``argv`` needs: the one of the command it names after the
    global options; none (``None``: the index's lines alone, :mod:`~companion.cli.commands`)
    for ``--help`` or ``--version`` before any command, or no command at all, which read no
    command's options; every module without ``argv``, or for any other word before the
    command (an abbreviation, say), where the whole parser decides."""
    if argv is None:
        return every_module()
    words = iter(argv)
    for word in words:
        if word in GLOBAL_FLAGS:  # acted on before any command is parsed
            return None
        if word == "--data-dir":
            next(words, None)
        elif not word.startswith("--data-dir="):
            command = COMMANDS.get(word)
            return [command.module] if command is not None else every_module()
    return None


def every_module() -> list[str]:
    """Every module of :mod:`companion.cli` but those in :data:`NOT_COMMANDS`: its ``.py``
    files and packages, listed from its folder (``pkgutil.iter_modules`` would import
    ``inspect``, a tenth of what ``--help`` costs)."""
    names = set()
    for folder in cli.__path__:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".py") and entry.is_file():
                    names.add(entry.name[:-3])
                elif entry.is_dir() and os.path.isfile(os.path.join(entry.path, "__init__.py")):
                    names.add(entry.name)
    return sorted(names - NOT_COMMANDS - {"__init__"})


def english(message: str) -> str:
    return message


def english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def argparse_in_english() -> None:
    """Have argparse say its own words ("usage:", "options", "show this help message and
    exit") in English, as the help around them is written. It would look each of them up in
    gettext's catalog of the domain "messages", which Python ships none of (its words are
    English whatever the locale), anew at every call: some 120 times a parser of every command,
    a third of its making, and the locale module imported for it."""
    argparse._ = english  # type: ignore[attr-defined]
    argparse.ngettext = english_plural  # type: ignore[attr-defined]


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line's parser; with ``argv``, only the part that parses it (see
    :func:`command_modules`), which parses it as the whole parser would."""
    argparse_in_english()
    parser = _Parser(
        prog="companion",
        description="A game master's companion for The Prisoner's Dilemma people game.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="where sessions are kept (default: $COMPANION_DATA_DIR or the per-user data folder)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = command_modules(argv)
    if modules is None:  # the commands' lines: what --help says, without their options
        for name, command in COMMANDS.items():
            sub.add_parser(name, help=command.summary)
    else:
        for module in modules:
            importlib.import_module(f"companion.cli.{module}").register(sub)
    return parser


def utf8_streams() -> None:
    """Write stdout and stderr as UTF-8 whatever the console's code page: on Windows a
    redirected or piped stdout uses the code page (cp1252, say), in which a warden called
    "Łucja" cannot be written, and JSON is UTF-8 by definition. Each stream keeps its way of
    handling what it cannot write (stderr escapes it)."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding is None or reconfigure is None or codecs.lookup(encoding).name == "utf-8":
            continue
        stream.flush()
        reconfigure(encoding="utf-8", errors=stream.errors)


# pydantic looks for plugins (third-party hooks into every validation, such as tracing) in the
# entry points of every installed distribution when it builds its first model: the companion
# uses none, so it asks pydantic not to look, for its own process (it starts no other), unless
# the variable is already set (PYDANTIC_DISABLE_PLUGINS= companion ... keeps them loading).
PLUGINS_ENV = "PYDANTIC_DISABLE_PLUGINS"


def utf8_arguments() -> None:
    """Read this process's arguments and file names as UTF-8 where the locale says ASCII: a
    shell in the C locale (cron, containers, some SSH logins: ``LANG=C``) with Python's UTF-8
    mode off hands a session called "Ñandú" over as undecodable bytes, and no file of that name
    could be opened. The process starts again in UTF-8 mode (``-X utf8``), where the same bytes
    are the name typed; only on a POSIX system whose file names Python reads as ASCII (macOS
    and Windows read them as UTF-8), once."""
    if os.name != "posix" or sys.flags.utf8_mode or not getattr(sys, "orig_argv", None):
        return
    if codecs.lookup(sys.getfilesystemencoding()).name != "ascii":
        return  # a locale of its own (Latin-1, say): its names are read as it writes them
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-X", "utf8", *sys.orig_argv[1:]])


def undecodable(argv: Sequence[str]) -> str | None:
    """The first argument that is not UTF-8 text (its bytes kept as surrogates), shown as the
    bytes it is, or ``None``."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return repr(os.fsencode(arg))[2:-1]
    return None


def _words(args: argparse.Namespace) -> Callable[..., str]:
    from companion.cli.options import cli_words

    return cli_words(args)


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault(PLUGINS_ENV, "__all__")
    if argv is None:
        utf8_arguments()
    utf8_streams()
    argv = sys.argv[1:] if argv is None else list(argv)
    if (bad := undecodable(argv)) is not None:
        from companion.language import console_language

        _ = console_language()  # the laptop's locale: no --lang is read from such a line
        print("companion: " + _(
            "the argument '%(argument)s' is not UTF-8 text (the shell's locale writes another "
            "encoding); set a UTF-8 locale (export LANG=C.UTF-8) and type it again.",
            argument=bad,
        ), file=sys.stderr)
        return 2
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        args.command = "start"
        from companion.cli.start import run_start

        args.func = run_start
    try:
        result = args.func(args)
    except UserError as error:
        print(f"companion: {error.said(_words(args))}", file=sys.stderr)
        return error.status
    except KeyboardInterrupt:
        _ = _words(args)
        print(f"companion: {_('interrupted.')}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return int(result or 0)
