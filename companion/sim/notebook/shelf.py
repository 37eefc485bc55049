"""Where the notebook finds its playtests: the finished prison breaks among the session files of
each data folder, and the games brought in from elsewhere (``companion playtests import``), kept
as one JSON record each in the data folder's ``notebook`` folder, named by the game's key.
The same game (the same key) counts once, however many times and from wherever it comes."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.rules.prison.scenario import PrisonRules
from companion.session.paths import list_sessions
from companion.sim.notebook.playtest import (
    Playtest,
    PlaytestError,
    from_record,
    from_script,
    from_session_file,
)

FOLDER = "notebook"
EXPORT_MARK = "playtests"


def notebook_folder(data_dir: Path) -> Path:
    return data_dir / FOLDER


@dataclass
class Shelf:
    """Every playtest found, each once, and what could not be read."""

    playtests: list[Playtest] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    unfinished: int = 0
    seen: set[str] = field(default_factory=set)

    def add(self, playtest: Playtest) -> bool:
        key = playtest.key
        if key in self.seen:
            return False
        self.seen.add(key)
        self.playtests.append(playtest)
        return True

    def real(self, include_rehearsals: bool) -> list[Playtest]:
        return [p for p in self.playtests if include_rehearsals or not p.rehearsal]


def gather(folders: Iterable[Path], load_scenario: Callable[[str], PrisonRules]) -> Shelf:
    """The playtests of every folder: finished sessions first, then imported records."""
    shelf = Shelf()
    for folder in folders:
        for path in sorted(list_sessions(folder)):
            try:
                playtest = from_session_file(path)
            except PlaytestError as error:
                shelf.unreadable.append(str(error))
                continue
            if playtest is None:
                shelf.unfinished += _is_prison_break(path)
            else:
                shelf.add(playtest)
        records = notebook_folder(folder)
        for path in sorted(records.glob("*.json")) if records.is_dir() else []:
            try:
                for playtest in read_games(path, load_scenario):
                    shelf.add(playtest)
            except PlaytestError as error:
                shelf.unreadable.append(str(error))
    return shelf


def _is_prison_break(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()
    except sqlite3.Error:
        return 0
    return int(row is not None and json.loads(row[0]) == "prison-break")


def read_json(path: Path) -> Any:
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise PlaytestError(f"There is no file at {path}.") from None
    except IsADirectoryError:
        raise PlaytestError(f"{path} is a folder, not a file.") from None
    except UnicodeDecodeError:
        raise PlaytestError(f"{path} is not UTF-8 text; save it as UTF-8.") from None
    except OSError as error:
        raise PlaytestError(f"{path} cannot be read: {error.strerror}.") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise PlaytestError(
            f"{path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        ) from None


def is_session_file(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def read_games(path: Path, load_scenario: Callable[[str], PrisonRules]) -> list[Playtest]:
    """The finished games a file holds: a session file, a game script, one record the notebook
    wrote, or an export of many; PlaytestError in one sentence otherwise."""
    if is_session_file(path):
        playtest = from_session_file(path)
        if playtest is None:
            raise PlaytestError(
                f"{path} is not a finished prison break; finish the game first (or import "
                "another file)."
            )
        return [playtest]
    data = read_json(path)
    if isinstance(data, dict) and isinstance(data.get(EXPORT_MARK), list):
        games = data[EXPORT_MARK]
        return [from_record(g, load_scenario, f"{path}, game {i + 1}") if isinstance(g, dict)
                else _not_a_game(path, i) for i, g in enumerate(games)]
    if isinstance(data, dict) and "script" in data:
        return [from_record(data, load_scenario, str(path))]
    if isinstance(data, dict) and "commands" in data:
        return [from_script(data, load_scenario, str(path))]
    raise PlaytestError(
        f"{path} is neither a session file, a game script nor a playtests export; "
        "give one of those."
    )


def _not_a_game(path: Path, index: int) -> Playtest:
    raise PlaytestError(f"{path}, game {index + 1}, is not an object; the export is damaged.")


def import_games(
    path: Path, data_dir: Path, load_scenario: Callable[[str], PrisonRules]
) -> tuple[list[Playtest], list[Playtest]]:
    """Bring the games of ``path`` into ``data_dir``'s notebook: (new ones, ones already
    there). Every game is read before anything is written, so a bad file changes nothing."""
    games = read_games(path, load_scenario)
    known = gather([data_dir], load_scenario).seen
    new: list[Playtest] = []
    again: list[Playtest] = []
    for game in games:
        key = game.key
        if key in known:
            again.append(game)
            continue
        known.add(key)
        new.append(game)
    folder = notebook_folder(data_dir)
    if new:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for game in new:
                text = json.dumps(game.record(), indent=1, ensure_ascii=False) + "\n"
                (folder / f"{game.key}.json").write_text(text, encoding="utf-8")
        except OSError as error:
            raise PlaytestError(
                f"The notebook folder {folder} cannot be written: {error.strerror}."
            ) from None
    return new, again


def export_text(playtests: list[Playtest], anonymous: bool) -> str:
    games = [(p.anonymous() if anonymous else p).record() for p in playtests]
    if anonymous:
        for g in games:
            g["source"] = ""
    data = {EXPORT_MARK: games}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
