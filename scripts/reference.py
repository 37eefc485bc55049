"""Write the generated references: docs/reference/cli.md, every command and option, from the
parser; docs/reference/keys.md, the keys of each console, from the screens' bindings.

Run: .venv/bin/python scripts/reference.py          (or `make docs`) to write them;
     .venv/bin/python scripts/reference.py --check  to fail (status 1) when either is stale.
tests/test_reference.py runs the check, so a changed option or key needs `make docs`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.cli.completion import Command, Option, every, walk  # noqa: E402
from companion.cli.main import build_parser  # noqa: E402

CLI = ROOT / "docs" / "reference" / "cli.md"
KEYS = ROOT / "docs" / "reference" / "keys.md"
HEADER = "<!-- Written by scripts/reference.py (`make docs`) from the {what}; do not edit. -->\n"

# Each console's screens, in the order a game master meets them: (title, [module:class]).
CONSOLES = [
    ("The prison break's console (`companion`, `new`, `resume`, `demo`, `rehearse`)", [
        ("The session picker", "companion.tui.prison.picker:PickerScreen"),
        ("The set-up screen", "companion.tui.prison.setup:SetupScreen"),
        ("The game screen", "companion.tui.prison.game:GameScreen"),
        ("A prisoner's choice", "companion.tui.prison.choice:ChoiceScreen"),
        ("An interview", "companion.tui.prison.interview:InterviewScreen"),
        ("A search's reveal", "companion.tui.prison.reveal:RevealScreen"),
        ("Seats", "companion.tui.prison.seats:SeatsScreen"),
        ("A seat's QR code", "companion.tui.prison.seats:QRScreen"),
        ("History", "companion.tui.prison.history:HistoryScreen"),
        ("Print", "companion.tui.prison.printout:PrintScreen"),
        ("Help", "companion.tui.prison.help:HelpScreen"),
    ]),
    ("The Balance screen (`b` in the console, `companion balance --screen`)", [
        ("Balance", "companion.tui.balance.app:BalanceScreen"),
    ]),
    ("The dilemma warm-up's console (`companion dilemma`)", [
        ("The room", "companion.tui.dilemma.room:RoomScreen"),
        ("A player's choice", "companion.tui.dilemma.choice:ChoiceScreen"),
        ("The keys", "companion.tui.dilemma.screens:KeysScreen"),
        ("The final results", "companion.tui.dilemma.screens:FinalScreen"),
    ]),
    ("The So Long Sucker referee (`companion sucker`)", [
        ("The referee's screen", "companion.tui.sucker.referee:RefereeScreen"),
        ("Every screen", "companion.tui.sucker.app:SuckerApp"),
    ]),
]

KEY_NAMES = {
    "question_mark": "?", "plus": "+", "equals_sign": "=", "comma": ",", "full_stop": ".",
    "minus": "-", "escape": "Esc", "enter": "Enter", "space": "Space", "tab": "Tab",
    "pageup": "Page Up", "pagedown": "Page Down", "left": "←", "right": "→", "up": "↑",
    "down": "↓", "home": "Home", "end": "End", "delete": "Delete", "backspace": "Backspace",
}


def cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def default_of(option: Option) -> str:
    if option.metavar is None or option.default in (None, argparse.SUPPRESS):
        return ""
    if isinstance(option.default, list):
        return ", ".join(map(str, option.default))
    return f"`{option.default}`"


def command_md(command: Command) -> list[str]:
    name = " ".join(["companion", *command.path])
    out = [f"## `{name}`", ""]
    about = command.description or command.help
    if about:
        out += [about.replace("\n", " "), ""]
    out += ["```", command.usage.removeprefix("usage: "), "```", ""]
    if command.positionals:
        out += ["| argument | meaning |", "| --- | --- |"]
        for p in command.positionals:
            choices = f" (one of: {', '.join(p.choices)})" if p.choices else ""
            out.append(f"| `{p.metavar}` | {cell(p.help)}{choices} |")
        out.append("")
    options = [o for o in command.options if "-h" not in o.flags]
    if options:
        out += ["| option | meaning | default in the parser |", "| --- | --- | --- |"]
        for o in options:
            flags = ", ".join(f"`{f}{' ' + o.metavar if o.metavar else ''}`" for f in o.flags)
            choices = f" (one of: {', '.join(o.choices)})" if o.choices else ""
            out.append(f"| {flags} | {cell(o.help)}{choices} | {cell(default_of(o))} |")
        out.append("")
    if command.commands:
        out += ["Its commands: " + ", ".join(
            f"[`{c.path[-1]}`](#{anchor(c)})" for c in command.commands) + ".", ""]
    return out


def anchor(command: Command) -> str:
    return "-".join(["companion", *command.path]).lower()


def cli_reference(parser: argparse.ArgumentParser) -> str:
    root = walk(parser)
    lines = [HEADER.format(what="command line's parser"), "# The command line", "",
             "Every command and option of `companion`, as `companion COMMAND --help` gives them. "
             "Options before the command (`companion --data-dir DIR COMMAND`) apply to all of "
             "them.", ""]
    lines += ["| command | what it does |", "| --- | --- |"]
    for c in every(root)[1:]:
        lines.append(f"| [`{' '.join(c.path)}`](#{anchor(c)}) | {cell(c.help)} |")
    lines.append("")
    for c in every(root):
        lines += command_md(c)
    return "\n".join(lines).rstrip("\n") + "\n"


def key_label(keys: str) -> str:
    shown = []
    for key in keys.split(","):
        parts = [KEY_NAMES.get(p, p.upper() if len(p) > 1 and p[0] == "f" and p[1:].isdigit()
                               else p) for p in key.strip().split("+")]
        if len(parts) > 1 and len(parts[-1]) == 1:
            parts[-1] = parts[-1].upper()  # Ctrl+Z
        shown.append("+".join(p.capitalize() if p in ("ctrl", "shift", "alt") else p
                              for p in parts))
    return " / ".join(f"`{k}`" for k in shown)


def bindings_of(target: str) -> list[tuple[str, str]]:
    module, name = target.split(":")
    cls = getattr(importlib.import_module(module), name)
    seen: set[str] = set()
    rows = []
    for klass in cls.__mro__:
        if klass.__module__.split(".")[0] != "companion":
            continue  # Textual's own (Tab, copying text) are the same everywhere
        for binding in klass.__dict__.get("BINDINGS", []):
            key, action, description = (binding.key, binding.action, binding.description) if (
                not isinstance(binding, tuple)) else (binding + ("",))[:3]
            if key in seen or not action:
                continue
            seen.add(key)
            rows.append((key_label(key), description or action))
    return rows


def keys_reference() -> str:
    lines = [HEADER.format(what="consoles' key bindings"), "# The consoles' keys", "",
             "Every key each console's screens bind, as their code declares them. The footer "
             "shows the ones that apply at the moment, and `?` (or F1) lists them on screen; "
             "`Ctrl+P` opens the command palette everywhere.", ""]
    for title, screens in CONSOLES:
        lines += [f"## {title}", ""]
        for label, target in screens:
            rows = bindings_of(target)
            if not rows:
                continue
            lines += [f"### {label}", "", "| key | what it does |", "| --- | --- |"]
            lines += [f"| {keys} | {cell(what)} |" for keys, what in rows]
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def main() -> int:
    check = "--check" in sys.argv[1:]
    stale = []
    for path, text in ((CLI, cli_reference(build_parser())), (KEYS, keys_reference())):
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"Wrote {path.relative_to(ROOT)}.")
    for path in stale:
        print(f"{path.relative_to(ROOT)} is stale; run `make docs` and commit it.",
              file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
