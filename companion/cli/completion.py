"""``companion completion SHELL``: a completion script for bash, zsh or fish, written from the
parser itself (so it never lists a command or option the parser does not have), and the walk
over the parser that ``scripts/reference.py`` also writes docs/reference/cli.md from."""

from __future__ import annotations

import argparse
from typing import NamedTuple

from companion.cli.commands import summary

SHELLS = ("bash", "zsh", "fish")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "completion",
        help=summary("completion"),
        description="Print a script that completes companion's commands and options in your "
        "shell. Load it from your shell's start-up file: bash: eval \"$(companion completion "
        "bash)\" in ~/.bashrc; zsh: eval \"$(companion completion zsh)\" in ~/.zshrc; fish: "
        "companion completion fish > ~/.config/fish/completions/companion.fish",
    )
    p.add_argument("shell", choices=SHELLS, help="the shell: bash, zsh or fish")
    p.set_defaults(func=run_completion)


# Named tuples rather than dataclasses: this module is imported to build every parser
# (``--help`` too), and ``dataclasses`` imports ``inspect``, a sixth of what ``--help`` costs.
class Option(NamedTuple):
    flags: list[str]
    metavar: str | None  # None: a switch, it takes no value
    help: str
    default: object
    choices: list[str] | None


class Command(NamedTuple):
    path: list[str]  # ["playtests", "import"]; [] for companion itself
    help: str
    description: str
    usage: str
    options: list[Option]  # each walk fills its own lists
    positionals: list[Option]
    commands: list[Command]


def walk(parser: argparse.ArgumentParser, path: list[str] | None = None, help: str = "") -> Command:
    """Every command under ``parser`` with its options, positionals and subcommands, in the
    order the parser lists them."""
    path = path or []
    formatter = argparse.HelpFormatter(parser.prog, width=10_000)  # one line, not the terminal's
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, "")
    here = Command(path, help, parser.description or "", formatter.format_help().strip(),
                   [], [], [])
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, child in action.choices.items():
                here.commands.append(walk(child, [*path, name], helps.get(name, "")))
            continue
        if action.help == argparse.SUPPRESS:
            continue
        takes = action.nargs != 0
        metavar = action.metavar if isinstance(action.metavar, str) else (
            action.dest.upper() if action.option_strings else action.dest)
        choices = [str(c) for c in action.choices] if action.choices else None
        option = Option(list(action.option_strings), metavar if takes else None,
                        action.help or "", action.default, choices)
        (here.options if action.option_strings else here.positionals).append(option)
    return here


def every(command: Command) -> list[Command]:
    """``command`` and every command under it, depth first."""
    return [command, *(c for sub in command.commands for c in every(sub))]


def _flags(command: Command) -> list[str]:
    return [flag for option in command.options for flag in option.flags]


def bash(root: Command) -> str:
    """A bash completion function: the subcommands after ``companion`` (and after
    ``companion playtests``), each command's options, an option's choices, files otherwise."""
    import shlex  # here, not for every command's parser

    known = sorted(" " + " ".join(c.path) for c in every(root) if c.path)
    cases = []
    for c in every(root):
        words = " ".join(s.path[-1] for s in c.commands) or " ".join(
            next((p.choices for p in c.positionals if p.choices), []))
        takes = " ".join(f for o in c.options if o.metavar for f in o.flags)
        cases.append(f'        "{" ".join([""] + c.path)}") words={shlex.quote(words)}; '
                     f'opts={shlex.quote(" ".join(_flags(c)))}; takes={shlex.quote(takes)};;')
    choices = []
    for c in every(root):
        for o in c.options:
            if o.choices:
                for flag in o.flags:
                    choices.append(f'        "{" ".join([""] + c.path)}|{flag}") '
                                   f'COMPREPLY=($(compgen -W {shlex.quote(" ".join(o.choices))} '
                                   '-- "$cur")); return;;')
    known_case = "|".join(f'"{k}"' for k in known)
    return f"""# bash completion for companion (written by 'companion completion bash')
_companion() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="" path="" w i words opts takes
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${{COMP_WORDS[i]}}"
        [[ $w == -* ]] && continue
        case "$path $w" in
        {known_case}) path="$path $w";;
        esac
    done
    ((COMP_CWORD > 1)) && prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    case "$path|$prev" in
{chr(10).join(choices)}
    esac
    case "$path" in
{chr(10).join(cases)}
        *) words=""; opts=""; takes="";;
    esac
    if [[ " $takes " == *" $prev "* ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ -n $words ]]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -o filenames -F _companion companion
"""


def _zsh_quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _zsh_said(text: str) -> str:
    """A help text as a description in an ``_arguments`` spec or a ``_describe`` entry."""
    return " ".join(text.split()).replace("\\", "\\\\").replace("[", "\\[").replace(
        "]", "\\]").replace(":", "\\:")


def _zsh_function(command: Command) -> str:
    return "_companion" + "".join("_" + part.replace("-", "_") for part in command.path)


def _zsh_specs(command: Command) -> list[str]:
    """The ``_arguments`` specs of a command's options and positionals."""
    specs = []
    for o in command.options:
        for flag in o.flags:
            spec = f"{flag}[{_zsh_said(o.help)}]"
            if o.metavar:
                values = f"({' '.join(o.choices)})" if o.choices else "_files"
                spec += f":{_zsh_said(o.metavar)}:{values}"
            specs.append(_zsh_quoted(spec))
    if command.commands:
        return [*specs, "'1: :->command'", "'*:: :->argument'"]
    for index, p in enumerate(command.positionals, start=1):
        values = f"({' '.join(p.choices)})" if p.choices else "_files"
        specs.append(_zsh_quoted(f"{index}:{_zsh_said(p.metavar or '')}:{values}"))
    return specs


def zsh(root: Command) -> str:
    """A native zsh completion (``compdef`` and ``_arguments``): one function per command, with
    its options (their help, their choices, files for a value otherwise), its positionals, and
    its subcommands with their help."""
    functions = []
    for c in every(root):
        specs = " \\\n        ".join(_zsh_specs(c))
        body = [f"{_zsh_function(c)}() {{",
                '    local curcontext="$curcontext" state line',
                "    typeset -A opt_args",
                f"    _arguments -s -C \\\n        {specs}"]
        if c.commands:
            entries = " ".join(_zsh_quoted(f"{s.path[-1].replace(':', chr(92) + ':')}:"
                                           f"{_zsh_said(s.help)}") for s in c.commands)
            cases = "\n".join(f"            {s.path[-1]}) {_zsh_function(s)} ;;"
                              for s in c.commands)
            body += ["    case $state in",
                     f"        command) local -a commands=({entries})",
                     "            _describe -t commands 'companion command' commands ;;",
                     "        argument) case $line[1] in",
                     cases,
                     "        esac ;;",
                     "    esac"]
        body.append("}")
        functions.append("\n".join(body))
    return (
        "# zsh completion for companion (written by 'companion completion zsh'; load it with\n"
        '# eval "$(companion completion zsh)" in ~/.zshrc)\n'
        + "\n".join(functions)
        + "\n(( $+functions[compdef] )) || { autoload -Uz compinit && compinit }\n"
        "compdef _companion companion\n"
    )


def _fish_text(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish(root: Command) -> str:
    """fish's ``complete`` lines: a command's subcommands once its path is typed, then its
    options (with their choices), each with its help."""
    lines = ["# fish completion for companion (written by 'companion completion fish')",
             "complete -c companion -f"]
    for c in every(root):
        if c.path:
            seen = " ".join(f"__fish_seen_subcommand_from {p}" for p in c.path)
            condition = seen.replace(" __fish", "; and __fish")
        else:
            condition = ""
        subs = " ".join(s.path[-1] for s in c.commands)
        for s in c.commands:
            guard = f"not __fish_seen_subcommand_from {subs}"
            cond = f"{condition}; and {guard}" if condition else guard
            lines.append(f"complete -c companion -n {_fish_text(cond)} -a {s.path[-1]} "
                         f"-d {_fish_text(s.help)}")
        for o in c.options:
            parts = ["complete -c companion"]
            if condition:
                parts.append(f"-n {_fish_text(condition)}")
            for flag in o.flags:
                parts.append(f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}")
            if o.metavar:
                parts.append("-r")
                if o.choices:
                    parts.append(f"-a {_fish_text(' '.join(o.choices))}")
                else:
                    parts.append("-F")
            parts.append(f"-d {_fish_text(o.help)}")
            lines.append(" ".join(parts))
        for p in c.positionals:
            if p.choices and condition:
                lines.append(f"complete -c companion -n {_fish_text(condition)} "
                             f"-a {_fish_text(' '.join(p.choices))}")
            elif condition and not c.commands:
                lines.append(f"complete -c companion -n {_fish_text(condition)} -F")
    return "\n".join(lines) + "\n"


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    root = walk(parser)
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](root)


def run_completion(args: argparse.Namespace) -> int:
    import sys

    from companion.cli.main import build_parser

    sys.stdout.write(script(args.shell, build_parser()))
    return 0
