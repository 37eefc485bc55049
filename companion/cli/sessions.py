"""``companion sessions``: list the saved sessions and what game each holds."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.commands import summary

TYPE_CHECKING = False  # typing would cost `companion sessions` 0.2x (benchmarks/cli.py)
if TYPE_CHECKING:
    from companion.language import Language


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("sessions", help=summary("sessions"))
    p.set_defaults(func=run_list)


def run_list(args: argparse.Namespace) -> int:
    from companion.cli.options import cli_words
    from companion.session.create import game_label
    from companion.session.paths import data_dir, list_sessions, session_name

    _ = cli_words(args)
    folder = data_dir(args.data_dir)
    paths = list_sessions(folder)
    if not paths:
        print(_("No sessions yet in %(folder)s. Start one with: companion new NAME",
                folder=str(folder)))
        return 0
    print(_("Sessions in %(folder)s:", folder=str(folder)))
    names = [session_name(path) for path in paths]
    width = max(len(name) for name in names)
    labels = [_(game_label(path)) for path in paths]  # a message id, said in the language
    label_width = max(len(label) for label in labels)
    for name, path, label in zip(names, paths, labels, strict=True):
        print(f"  {name:<{width}}  {label:<{label_width}}  {served(path, _)}".rstrip())
    return 0


def served(path: Path, _: Language) -> str:
    """Whether a night's server serves the session now: its port, since when, its consoles."""
    import time

    from companion.session.night import answering, clear_record, process_alive, read_record

    found = answering(path, timeout=1.0)
    if found is None:
        kept = read_record(path)
        if kept is None:
            return ""
        if not process_alive(kept.pid):
            clear_record(path, kept.pid)  # a server that died: its record goes
            return ""
        return _("served on port %(port)s, busy (not answering within a second)",
                 port=str(kept.port))
    record, hello = found
    consoles = int(hello.get("consoles", 0))
    attached = _.n_("%(count)s console", "%(count)s consoles", consoles) if consoles else _(
        "no console")
    since = time.strftime("%H:%M", time.localtime(record.since))
    return _("served on port %(port)s since %(since)s, %(consoles)s", port=str(record.port),
             since=since, consoles=attached)
