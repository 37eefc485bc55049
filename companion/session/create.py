"""Creating, opening and holding the sessions of every game, each refused in one sentence.

The console, the phone server and every command open sessions through here, so that a name,
a roster or a scenario is checked the same way wherever it is typed. What one game adds (its
roster, its scenario, its kind of session) is in its package beside this module:
``companion.session.prison.create``, ``companion.session.dilemma.create``,
``companion.session.sucker.create``.
"""

from __future__ import annotations

from pathlib import Path

from companion.errors import UserError
from companion.games import UnknownGame, game_entry
from companion.rules.core.words import N_
from companion.session.paths import list_sessions, session_name, session_path
from companion.session.store import Store, StoreError

TYPE_CHECKING = False  # typing would cost `companion sessions` 0.2x (benchmarks/cli.py)
if TYPE_CHECKING:  # imported where a session is opened or held, not to read its metadata
    from typing import Any

    from companion.session.lock import SessionLock
    from companion.session.session import Session


def hold_session(path: Path, holder: str | None) -> SessionLock | None:
    """The lock that keeps ``path`` to this program (``None`` without a holder)."""
    from companion.session.lock import SessionLock

    return SessionLock.take(path, holder) if holder else None


def remove_session_files(path: Path) -> None:
    """Delete a session's file and SQLite's files beside it, to replace the session; refused in
    one sentence when another program holds one of them (Windows will not delete a file that is
    open: a viewer, a backup or a second companion)."""
    for suffix in ("", "-wal", "-shm"):
        file = Path(f"{path}{suffix}")
        try:
            file.unlink(missing_ok=True)
        except PermissionError:
            raise UserError(
                f"The session {session_name(path)!r} cannot be replaced: another program has "
                f"{file.name} open; close that program (or the other companion window) and "
                "try again."
            ) from None
        except OSError as error:
            raise UserError(
                f"The session {session_name(path)!r} cannot be replaced: {file} cannot be "
                f"deleted ({error.strerror}); free it and try again."
            ) from None


def create_session(path: Path, game: str, setup: dict[str, Any], holder: str | None) -> Session:
    """A new session file for ``game``, held for ``holder`` (see :func:`open_session`)."""
    from companion.session.session import Session

    try:
        return Session.create(path, game, setup, lock=hold_session(path, holder))
    except StoreError as error:
        raise UserError(str(error)) from None


def open_session(folder: Path, name: str, *, holder: str | None = None) -> Session:
    """The saved session ``name``; with ``holder`` (who plays it: "companion resume", the phone
    server...), held for this program alone while open, refused in one sentence when another
    window has it (see companion.session.lock)."""
    from companion.session.session import Session

    path = saved_session_path(folder, name)
    try:
        return Session.open(path, holder=holder)
    except StoreError as error:
        raise UserError(str(error)) from None


def saved_session_path(folder: Path, name: str) -> Path:
    """The file of the saved session ``name``; refused in one sentence (with the name it was
    probably meant to be) when there is none."""
    path = session_path(folder, name)
    if not path.exists():
        near = nearest_session(folder, path.stem)
        if near:
            raise UserError.of(
                N_("There is no session called %(name)s in %(folder)s; did you mean "
                   "%(near)s? See 'companion sessions' for the saved ones."),
                name=repr(name), folder=str(folder), near=repr(near),
            )
        raise UserError.of(
            N_("There is no session called %(name)s in %(folder)s; see 'companion sessions' "
               "for the saved ones."),
            name=repr(name), folder=str(folder),
        )
    return path


def session_meta(folder: Path, name: str) -> dict[str, Any]:
    """What the saved session ``name`` is and its settings now (its game, its setup, its
    seats...), read without replaying its history or building its game; refused like
    :func:`open_session`."""
    path = saved_session_path(folder, name)
    try:
        store = Store.open(path)
        try:
            return store.settings()
        finally:
            store.close()
    except StoreError as error:
        raise UserError(str(error)) from None


def nearest_session(folder: Path, name: str) -> str | None:
    """The saved session ``name`` was probably meant to be: the same name in another case
    ("Friday" for "friday"), else the closest spelling, else ``None``."""
    saved = [session_name(p) for p in list_sessions(folder)]
    same = [s for s in saved if s.casefold() == name.casefold()]
    if same:
        return same[0]
    import difflib  # here: only a name not found needs it

    close = difflib.get_close_matches(name.casefold(), [s.casefold() for s in saved], n=1)
    return next((s for s in saved if close and s.casefold() == close[0]), None)


UNREADABLE = N_("cannot be read")


def game_of(path: Path) -> str | None:
    """The game a session file holds, read from its metadata without replaying it; ``None``
    when the file cannot be read."""
    try:
        store = Store.open(path)
    except StoreError:
        return None
    try:
        game = store.meta().get("game")
    except Exception:  # noqa: BLE001 - a damaged file is listed, not fatal
        return None
    finally:
        store.close()
    return None if game is None else str(game)


def game_label(path: Path) -> str:
    """What a session file holds, in a few words, read from its metadata without replaying
    it; a file that cannot be read says so."""
    game = game_of(path)
    if game is None:
        return UNREADABLE
    try:
        return game_entry(str(game)).label
    except UnknownGame:
        return str(game)
