"""Where things live: the sessions (one SQLite file each) and the user's own scenarios, each in
the folder the operating system expects for this user (for example
``~/.local/share/companion`` on Linux, ``~/Library/Application Support/companion`` on
macOS, ``%LOCALAPPDATA%\\companion`` on Windows). ``$COMPANION_DATA_DIR`` or ``--data-dir``
name the sessions' folder instead (``$COMPANION_DATA_DIR`` keeps the scenarios too, in its
``scenarios``), ``$COMPANION_SCENARIOS`` the scenarios' one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from companion.errors import UserError
from companion.rules.core.words import N_

APP = "companion"
DATA_DIR_ENV = "COMPANION_DATA_DIR"
SCENARIO_DIR_ENV = "COMPANION_SCENARIOS"
NAME_MARKS = "_.-"  # besides letters (in any script, accents included) and digits
# The names Windows keeps for devices, in any case and whatever follows a dot ("nul.txt" too):
# no file can be called so there, and a session folder may be copied to Windows from anywhere.
DEVICES = frozenset(
    ["con", "prn", "aux", "nul"]
    + [f"{port}{digit}" for port in ("com", "lpt") for digit in "0123456789\u00b9\u00b2\u00b3"]
)


def _user_data() -> Path:
    """The user's data folder for the app. On Linux it is the XDG base directory's rule, read
    here: ``$XDG_DATA_HOME`` when it is an absolute path, else ``~/.local/share`` (what
    platformdirs answers; tests/session/test_paths.py compares them), because importing
    platformdirs is a large part of a light command's start (benchmarks/cli.py, ``companion
    sessions``). platformdirs answers on the other systems (macOS, Windows, Android)."""
    if sys.platform == "linux" and "ANDROID_ROOT" not in os.environ:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
        return base / APP
    import platformdirs

    return platformdirs.user_data_path(APP, appauthor=False)


def default_data_dir() -> Path:
    """The sessions' folder: ``$COMPANION_DATA_DIR``, else ``sessions`` in the user's data
    folder."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return _user_data() / "sessions"


def data_dir(override: str | os.PathLike[str] | None) -> Path:
    return Path(override).expanduser() if override else default_data_dir()


def user_scenario_dir() -> Path:
    """The user's own scenarios (``companion balance`` writes there): ``$COMPANION_SCENARIOS``,
    else ``scenarios`` in ``$COMPANION_DATA_DIR`` when it is set (a data folder of one's own
    keeps everything), else ``scenarios`` in the user's data folder."""
    env = os.environ.get(SCENARIO_DIR_ENV)
    if env:
        return Path(env).expanduser()
    data = os.environ.get(DATA_DIR_ENV)
    if data:
        return Path(data).expanduser() / "scenarios"
    return _user_data() / "scenarios"


def check_session_name(name: str) -> str:
    """The name as its file is named (Unicode NFC, so that an "é" typed as e and an accent is
    the same session), or refused in one sentence: up to 60 letters of any script, digits,
    '-', '_' or '.', starting with a letter or digit."""
    name = composed(name)
    usable = (
        0 < len(name) <= 60
        and name[0].isalnum()
        and all(c.isalnum() or c in NAME_MARKS for c in name)
        and not name.endswith(".sqlite")
    )
    if not usable:
        raise UserError.of(
            N_("%(name)s is not a usable session name; use up to 60 letters (accents are "
               "fine), digits, '-', '_' or '.', starting with a letter or digit."),
            name=repr(name),
        )
    device = name.split(".", 1)[0]
    if device.casefold() in DEVICES:
        raise UserError.of(
            N_("%(name)s cannot be a session's name, because Windows keeps %(device)s for a "
               "device and a session folder may be copied there; pick another name."),
            name=repr(name), device=device.upper(),
        )
    return name


def composed(text: str) -> str:
    """``text`` in Unicode's composed form (NFC); ASCII is composed already, and read without
    loading Unicode's tables (a name in ASCII, as most are, lists and opens without them)."""
    if text.isascii():
        return text
    import unicodedata

    return unicodedata.normalize("NFC", text)


def session_name(path: Path) -> str:
    """The session's name from its file, in one form (NFC): a file system that stores names
    decomposed (macOS HFS+ writes "soirée" as e and a combining accent) gives it back composed."""
    return composed(path.stem)


def session_path(folder: Path, name: str) -> Path:
    """The file of the session ``name``: the file already saved under that name in another
    Unicode form (a decomposed "soirée" copied from a Mac) when there is one, else the file in
    the name's composed form."""
    name = check_session_name(name)
    path = folder / f"{name}.sqlite"
    if name.isascii() or path.exists():
        return path
    return next((saved for saved in list_sessions(folder) if session_name(saved) == name), path)


def list_sessions(folder: Path) -> list[Path]:
    """The session files in ``folder``, the last changed first (their names: session_name)."""
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.sqlite"), key=lambda p: p.stat().st_mtime, reverse=True)
