"""``companion sessions``: list the saved sessions and what game each holds."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("sessions", help="list the saved sessions")
    p.set_defaults(func=run_list)


def run_list(args: argparse.Namespace) -> int:
    from companion.session.create import game_label
    from companion.session.paths import data_dir, list_sessions, session_name

    folder = data_dir(args.data_dir)
    paths = list_sessions(folder)
    if not paths:
        print(f"No sessions yet in {folder}. Start one with: companion new NAME")
        return 0
    print(f"Sessions in {folder}:")
    names = [session_name(path) for path in paths]
    width = max(len(name) for name in names)
    labels = [game_label(path) for path in paths]
    label_width = max(len(label) for label in labels)
    for name, path, label in zip(names, paths, labels, strict=True):
        print(f"  {name:<{width}}  {label:<{label_width}}  {served(path)}".rstrip())
    return 0


def served(path: Path) -> str:
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
        return f"served on port {kept.port}, busy (not answering within a second)"
    record, hello = found
    consoles = int(hello.get("consoles", 0))
    attached = "no console" if consoles == 0 else (
        "1 console" if consoles == 1 else f"{consoles} consoles")
    since = time.strftime("%H:%M", time.localtime(record.since))
    return f"served on port {record.port} since {since}, {attached}"
