"""``companion replay SCRIPT.json``: play a game script and print the final state as JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.cli.commands import summary
from companion.errors import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help=summary("replay"))
    p.add_argument("script", help="a game script (.json); see docs/rules/ and tests/examples/")
    p.set_defaults(func=run_replay)


def load_script(path: str) -> dict[str, Any]:
    import json

    try:
        text = Path(path).read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise UserError(f"There is no script file at {path}.") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a folder, not a script file.") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text; save it as UTF-8.") from None
    except OSError as error:
        raise UserError(f"{path} cannot be read: {error.strerror}.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(
            f"{path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        ) from None
    if not isinstance(data, dict):
        raise UserError(f"{path} must hold a JSON object with the script's keys.")
    return data


def play_script(data: dict[str, Any]) -> dict[str, Any]:
    """Play a parsed script of any game that has scripts; raises UserError for a fatal problem."""
    from companion.games import DEFAULT_GAME, GAMES, script_player
    from companion.rules.core.scripts import ScriptError

    game = data.get("game", DEFAULT_GAME)
    player = None
    if isinstance(game, str) and game in (g.name for g in GAMES):
        player = script_player(game)
    if player is None:
        scripted = " or ".join(f'"{g.name}"' for g in GAMES if script_player(g.name))
        raise UserError(f"The script's game {game!r} is unknown; use {scripted}.")
    try:
        return player(data, named_scenario)
    except ScriptError as error:
        raise UserError(str(error)) from None


def named_scenario(name: str) -> Any:
    """A prison-break script's scenario, read when the script names one (a So Long Sucker
    script names none, and its replay does not load the prison break's scenario model)."""
    from companion.session.prison.scenarios import load_named_scenario

    return load_named_scenario(name)


def run_replay(args: argparse.Namespace) -> int:
    import json

    result = play_script(load_script(args.script))
    sys.stdout.write(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    return 0
