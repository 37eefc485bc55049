"""Where sessions live: one SQLite file per session in a per-user data folder."""

from __future__ import annotations

import os
import re
from pathlib import Path

from companion.errors import UserError

DATA_DIR_ENV = "COMPANION_DATA_DIR"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,59}$")


def default_data_dir() -> Path:
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "companion" / "sessions"


def data_dir(override: str | os.PathLike[str] | None) -> Path:
    return Path(override).expanduser() if override else default_data_dir()


def check_session_name(name: str) -> str:
    if not _NAME.match(name) or name.endswith(".sqlite"):
        raise UserError(
            f"{name!r} is not a usable session name; use up to 60 letters, digits, '-', '_' "
            "or '.', starting with a letter or digit."
        )
    return name


def session_path(folder: Path, name: str) -> Path:
    return folder / f"{check_session_name(name)}.sqlite"


def list_sessions(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.sqlite"), key=lambda p: p.stat().st_mtime, reverse=True)
