"""``companion sessions``: list the saved sessions and what game each holds."""

from __future__ import annotations

import argparse


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
    for name, path in zip(names, paths, strict=True):
        print(f"  {name:<{width}}  {game_label(path)}")
    return 0
