"""The command line's index: every command, the module under :mod:`companion.cli` that builds
its parser, and the one line ``companion --help`` says of it, in the order the help lists them.

Running one command imports its module alone (:func:`companion.cli.main.command_modules`);
``companion --help``, ``--version`` and plain ``companion`` need no command's options, so their
parser is made from this index without importing any command's module. Each module says its
command's line from here (:func:`summary`), so the two cannot differ.
"""

from __future__ import annotations


class Command:
    """A command's module under :mod:`companion.cli` and the line ``companion --help`` gives
    it (a plain class: importing typing for a NamedTuple is a tenth of what --help costs)."""

    __slots__ = ("module", "summary")

    def __init__(self, module: str, summary: str) -> None:
        self.module = module
        self.summary = summary


COMMANDS: dict[str, Command] = {
    "balance": Command(
        "balance", "find fair nights to escape and parole tokens to win for each group size"),
    "check-network": Command(
        "check_network", "before the game: check that the players' phones reach this laptop"),
    "completion": Command("completion", "print a shell completion script for bash, zsh or fish"),
    "demo": Command("demo", "open a fresh demo session (warden Wendy; Ada, Ben, Cy, Dee)"),
    "dilemma": Command(
        "dilemma", "the two-prisoner dilemma warm-up: a tournament on the room's phones"),
    "language": Command(
        "language", "show a session's language, or change it (its board and printouts follow)"),
    "links": Command("links", "print each seat's private link, its seat code and the board"),
    "new": Command("new", "set up a new session (players, then the game)"),
    "playtests": Command(
        "playtests", "the designers' notebook: real games beside what the bots predict"),
    "print": Command("print", "print a session's player cards, tokens, tracker and rules as a PDF"),
    "rehearse": Command(
        "rehearse", "practise a game alone: bots play every seat through the phone server"),
    "replay": Command("replay", "play a game script and print the final state as JSON"),
    "resume": Command("resume", "reopen a saved session where it stood"),
    "scenarios": Command(
        "scenarios", "list the shipped scenarios and your own, with their main numbers"),
    "check-scenario": Command("scenarios", "validate one scenario file"),
    "serve": Command(
        "serve", "serve a session's night (phones, board, consoles) in the foreground"),
    "sessions": Command("sessions", "list the saved sessions"),
    "simulate": Command("simulate", "play many games with bots and report the win rates"),
    "start": Command("start", "the session picker (also what plain 'companion' opens)"),
    "stop": Command(
        "stop", "stop serving a session's night: its phones, its board and its consoles"),
    "sucker": Command(
        "sucker", "referee a So Long Sucker game (create a session, or resume it by name)"),
    "sucker-rules": Command("sucker", "print the one-page So Long Sucker rules summary"),
}


def summary(command: str) -> str:
    """The line ``companion --help`` says of ``command``."""
    return COMMANDS[command].summary
