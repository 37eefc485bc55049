"""The options several commands share, declared once (argparse ``parents=``), and the readings
of option values that several commands give, each refused in one sentence; and how a command
prints a CSV table (``--csv``)."""

from __future__ import annotations

import argparse
import os
import sys

from companion.errors import UserError
from companion.rules.core.words import N_

TYPE_CHECKING = False  # typing would cost `companion --help` 0.2x (benchmarks/cli.py)
if TYPE_CHECKING:
    from typing import Any

    from companion.language import Language
    from companion.rules.prison.scenario import PrisonRules
    from companion.session.session import Session
    from companion.session.wifi import Wifi


class Formatter(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal: measured as ``shutil.get_terminal_size``
    does (``$COLUMNS``, else the terminal of standard output, else 80 columns) but without
    importing ``shutil``, which argparse's own formatter does each time it is made, for every
    option declared: a tenth of what ``companion sessions`` took to start."""

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def terminal_columns() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        out = sys.__stdout__
        try:
            columns = os.get_terminal_size(out.fileno()).columns if out is not None else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def no_phones() -> argparse.ArgumentParser:
    """``--no-phones``, for every command that opens a console."""
    p = argparse.ArgumentParser(add_help=False, formatter_class=Formatter)
    p.add_argument("--no-phones", action="store_true",
                   help="the console alone: no night's server, so no phones and no board")
    return p


def console_lang(
    help: str = "the console's language: en, de, es, fr (default: the laptop's locale, from "
    "LANGUAGE, LC_ALL, LC_MESSAGES or LANG; else en)",
) -> argparse.ArgumentParser:
    """``--lang``, for the commands that open a console and have no ``--lang`` of their own."""
    p = argparse.ArgumentParser(add_help=False, formatter_class=Formatter)
    p.add_argument("--lang", metavar="LANG", help=help)
    return p


def console_words(args: argparse.Namespace) -> Language:
    """The console's language: ``--lang`` (refused in one sentence if unknown), else the
    laptop's locale (``LANG``), else English."""
    from companion.language import console_language

    return console_language(getattr(args, "lang", None))


# The commands whose --lang is the console's (and the new session's) language; elsewhere it is
# a printout's or a session's, and the command line keeps the laptop's.
CONSOLE_LANG_COMMANDS = frozenset(
    {"demo", "start", "resume", "new", "dilemma", "sucker", "rehearse"}
)


def cli_words(args: argparse.Namespace) -> Language:
    """The language the command line answers in: the game master's, as the console's (its
    ``--lang`` on a command that opens a console, else the laptop's locale, else English);
    English when that ``--lang`` is itself refused."""
    from companion.language import console_language

    code = getattr(args, "lang", None) if args.command in CONSOLE_LANG_COMMANDS else None
    try:
        return console_language(code)
    except UserError:
        return console_language(None)


PORT_AS_BEFORE = "phones: this port (default: where the session served last, else 8765)"


def phone_options(
    host: str | None = "0.0.0.0", host_help: str = "phones: listen here (default: all)",
    port_help: str = "phones: this port (default: 8765)",
) -> argparse.ArgumentParser:
    """``--host``, ``--port`` and ``--public-url``, for ``serve``, ``links`` and every command
    that opens a console (a fresh parser each time, so a command may change its defaults; each
    help states the default the command uses: :data:`PORT_AS_BEFORE` where the session's last
    address fills what is left out, see :func:`served_as_before`)."""
    p = argparse.ArgumentParser(add_help=False, formatter_class=Formatter)
    p.add_argument("--host", default=host, help=host_help)
    p.add_argument("--port", type=int, default=None, help=port_help)
    p.add_argument("--public-url", metavar="URL", help="phones: pin the links' base URL")
    return p


PHONE_GAMES = ("prison-break", "dilemma")  # the games whose players have phones


def served_as_before(args: argparse.Namespace, session: Session) -> None:
    """Fill the phone options the command line left out with where the session's phone server
    last listened, so the phones' links and cards keep working after a crash and ``resume``
    (a pinned public URL is kept in the session already); given options win."""
    from companion.session.links import served_on

    if session.game not in PHONE_GAMES:
        return  # no phones, no printed links: its server listens anywhere on this laptop
    last = served_on(session)
    if getattr(args, "host", None) is None:
        args.host = last[0] if last else "0.0.0.0"
    if getattr(args, "port", None) is None and last is not None:
        args.port = last[1]


def check_public_url(url: str) -> str:
    from urllib.parse import urlsplit  # here: the commands that take no URL start without it

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise UserError.of(
            N_("%(url)s is not a usable public URL; give one like http://192.168.1.20:8765."),
            url=repr(url),
        )
    return url.rstrip("/")


def check_port(port: int | None) -> int | None:
    if port is not None and not 1 <= port <= 65535:
        raise UserError.of(
            N_("The port %(port)s is out of range; use a number from 1 to 65535, such as 8765."),
            port=str(port),
        )
    return port


def port_problem(port: int, error: OSError) -> UserError:
    """Why the phone server cannot listen on ``port``, and which option fixes it."""
    import errno

    said = str(port)
    if error.errno == errno.EADDRINUSE or "in use" in str(error):
        return UserError.of(
            N_("The phone server cannot listen on port %(port)s: it is already in use; pick "
               "another with --port or stop the program using it."), port=said,
        )
    if error.errno == errno.EACCES:
        return UserError.of(
            N_("The phone server cannot listen on port %(port)s: permission denied; pick a "
               "port above 1023 with --port."), port=said,
        )
    if error.errno == errno.EADDRNOTAVAIL or "assign" in str(error):
        return UserError.of(
            N_("The phone server cannot listen on port %(port)s: this laptop has no such "
               "address; check --host or leave it out."), port=said,
        )
    return UserError.of(
        N_("The phone server cannot listen on port %(port)s: %(why)s; pick another with "
           "--port."), port=said, why=error.strerror or str(error),
    )


def whole(value: str | None, option: str, low: int, high: int) -> int | None:
    """An option that must be a whole number in [low, high]; one sentence if not."""
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        raise UserError.of(
            N_("%(option)s must be a whole number, not %(value)s."), option=option,
            value=repr(value),
        ) from None
    if not low <= number <= high:
        raise UserError.of(
            N_("%(option)s must be between %(low)s and %(high)s; got %(number)s."),
            option=option, low=str(low), high=str(high), number=str(number),
        )
    return number


def pick_mix(name: str, *, learned: bool = False) -> str:
    """A mix's name, checked; with ``learned``, also ``table`` (the mix learned from real
    tables by 'companion playtests fit', refused in one sentence until there is one)."""
    from companion.sim.strategies.mixes import MIXES

    if learned:
        from companion.sim.learned import MixError, mix_named

        try:
            mix_named(name)
        except MixError as error:
            raise UserError(str(error)) from None
        return name
    if name not in MIXES:
        raise UserError(f"There is no mix called {name!r}; use one of {', '.join(MIXES)}.")
    return name


def load_rules(
    scenario: str, prisoners: int | None, overrides: dict[str, Any] | None = None
) -> tuple[PrisonRules, int, PrisonRules, bool]:
    """A scenario's rules, the group size (the scenario's smallest if not given), the rules the
    simulator plays for it, and whether the simulator caps the game's length."""
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.prison.scenarios import load_scenario
    from companion.sim.runner import sim_rules

    try:
        base = load_scenario(scenario)
        size = prisoners if prisoners is not None else base.min_prisoners
        rules, capped = sim_rules(base, size, overrides)
    except ScenarioError as error:
        raise UserError(str(error)) from None
    return base, size, rules, capped


def print_csv(text: str) -> None:
    """Print a CSV table (its lines end in CRLF, as RFC 4180 has them, like every CSV the app
    writes) as UTF-8 bytes, untouched: Windows' text mode would turn each CRLF into CR CR LF."""
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # a stream of text only
        sys.stdout.write(text)
        return
    out.write(text.encode("utf-8"))
    out.flush()
def wifi_options() -> argparse.ArgumentParser:
    """``--wifi-name``, ``--wifi-password``, ``--wifi-open`` and ``--no-wifi``: the venue's
    network, for the "join the Wi-Fi" QR code on the cards, the poster and the board."""
    p = argparse.ArgumentParser(add_help=False, formatter_class=Formatter)
    p.add_argument("--wifi-name", metavar="NAME",
                   help="the venue's Wi-Fi: a QR code to join it beside the game's (kept in "
                   "the session)")
    p.add_argument("--wifi-password", metavar="PASSWORD", help="the Wi-Fi's password")
    p.add_argument("--wifi-open", action="store_true",
                   help="the Wi-Fi has no password")
    p.add_argument("--no-wifi", action="store_true",
                   help="forget the Wi-Fi kept in the session (no Wi-Fi QR code)")
    return p


FORGET_WIFI = "forget"


def check_wifi(args: argparse.Namespace) -> Wifi | str | None:
    """The Wi-Fi the options name (a :class:`~companion.session.wifi.Wifi`),
    :data:`FORGET_WIFI` for ``--no-wifi``, or ``None`` when they say nothing; a bad
    combination is refused in one sentence."""
    from companion.session.wifi import Wifi, wifi_problem

    name = getattr(args, "wifi_name", None)
    password = getattr(args, "wifi_password", None)
    open_network = bool(getattr(args, "wifi_open", False))
    if getattr(args, "no_wifi", False):
        if name is not None or password is not None or open_network:
            raise UserError.of(
                N_("--no-wifi forgets the Wi-Fi; leave out the other --wifi options.")
            )
        return FORGET_WIFI
    problem = wifi_problem(name, password, open_network)
    if problem:
        raise UserError(problem)
    if name is None:
        return None
    return Wifi(name, None if open_network else password)


def apply_wifi(session: Session, choice: Wifi | str | None) -> None:
    """Keep (or forget) the Wi-Fi the options named in ``session``; nothing when they named
    none."""
    from companion.session.wifi import Wifi, forget_wifi, keep_wifi

    if isinstance(choice, Wifi):
        keep_wifi(session, choice)
    elif choice == FORGET_WIFI:
        forget_wifi(session)
