"""The night's server as the other programs find it: its record and the game master's key.

One process serves a night (``companion serve``, started detached by the console's commands):
it holds the session's lock, is the only writer of its log, and serves the phones, the board
and the game master's commands. Beside the session file it keeps

- ``NAME.sqlite.night``: its record (pid, host, port, the address consoles reach it on, since
  when), written once it listens and removed as it stops; a record whose server is gone (killed
  with ``kill -9``, the laptop restarted) is *stale*: :func:`answering` finds no server behind
  it, and the next console or command starts one on the same port;
- ``NAME.sqlite.key``: the game master's key, a long random secret made once, readable only by
  its user (mode 0600 where the system has modes). Every game master's command carries it; it is
  never printed on a player's material, never on the board, never in a page a phone can load;
- ``NAME.sqlite.phone``: the game master's phone's secret, made and kept the same way: the
  game master's private page (``/gm/SECRET``) opens with it, shown by the console alone as a QR
  code; replacing it (from the console) ends every device that held the old one.

Only the standard library: the command line's light commands (``sessions``, ``stop``) read it.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from companion.session.paths import session_name

TYPE_CHECKING = False  # typing would cost `companion sessions` 0.2x (benchmarks/cli.py)
if TYPE_CHECKING:
    from typing import Any

KEY_HEADER = "Authorization"  # "Bearer KEY", on every game master's request
KEY_BYTES = 32  # 256 bits, as text of 43 characters


class NightRecord:
    """Where a night's server listens, as it wrote it once listening (a plain class:
    `companion sessions` starts without typing's NamedTuple and without dataclasses)."""

    __slots__ = ("pid", "host", "port", "reach", "since")

    def __init__(self, pid: int, host: str, port: int, reach: str, since: float) -> None:
        self.pid = pid
        self.host = host  # what it listens on ("0.0.0.0": every interface)
        self.port = port
        self.reach = reach  # the address a program on this laptop reaches it on ("127.0.0.1")
        self.since = since  # epoch seconds

    def __repr__(self) -> str:
        return (f"NightRecord({self.pid!r}, {self.host!r}, {self.port!r}, {self.reach!r}, "
                f"{self.since!r})")

    def fields(self) -> dict[str, int | str | float]:
        """What the record file holds."""
        return {"pid": self.pid, "host": self.host, "port": self.port, "reach": self.reach,
                "since": self.since}

    @property
    def url(self) -> str:
        return f"http://{_bracketed(self.reach)}:{self.port}"


def record_path(session_file: Path) -> Path:
    return Path(f"{session_file}.night")


def key_path(session_file: Path) -> Path:
    return Path(f"{session_file}.key")


def log_path(session_file: Path) -> Path:
    """Where a detached server writes what it would have said on a terminal."""
    return Path(f"{session_file}.night.log")


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def reach_address(host: str) -> str:
    """The address a program on this laptop uses to reach a server listening on ``host``."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "::1"
    return host


# ---- the game master's key -------------------------------------------------------------------


def phone_path(session_file: Path) -> Path:
    """The game master's phone's secret (the link to the game master's private page)."""
    return Path(f"{session_file}.phone")


def _secret(path: Path) -> str:
    """The secret kept in ``path``, made now (readable by its user alone) if it has none."""
    try:
        kept = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        kept = ""
    if len(kept) >= 32:
        return kept
    path.unlink(missing_ok=True)  # one too short to be a secret is made again
    import secrets  # here: a command that reads a record (companion sessions) needs none

    secret = secrets.token_urlsafe(KEY_BYTES)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:  # another program made it at the same moment: theirs stands
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(secret)
    return secret


def game_master_key(session_file: Path) -> str:
    """The session's game master's key, made now (readable by its user alone) if it has none."""
    return _secret(key_path(session_file))


def phone_secret(session_file: Path) -> str:
    """The game master's phone's secret, made now if the session has none."""
    return _secret(phone_path(session_file))


def replace_phone_secret(session_file: Path) -> str:
    """A new secret for the game master's phone (the night's server holds the old one until
    it is told: its desk's ``replace_phone`` does both)."""
    phone_path(session_file).unlink(missing_ok=True)
    return phone_secret(session_file)


def phone_url(base: str, secret: str) -> str:
    """The game master's private page at ``base`` (the phones' links' base)."""
    return f"{base.rstrip('/')}/gm/{secret}"


# ---- the record ---------------------------------------------------------------------------


def write_record(session_file: Path, record: NightRecord) -> None:
    path = record_path(session_file)
    partial = path.with_name(path.name + f".{os.getpid()}")
    partial.write_text(json.dumps(record.fields()), encoding="utf-8")
    os.replace(partial, path)


def read_record(session_file: Path) -> NightRecord | None:
    try:
        data = json.loads(record_path(session_file).read_text(encoding="utf-8"))
        return NightRecord(
            int(data["pid"]), str(data["host"]), int(data["port"]), str(data["reach"]),
            float(data["since"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def clear_record(session_file: Path, pid: int | None = None) -> None:
    """Remove the record (only if it is ``pid``'s, when given)."""
    if pid is not None:
        kept = read_record(session_file)
        if kept is not None and kept.pid != pid:
            return
    record_path(session_file).unlink(missing_ok=True)


def process_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (on Windows, whether it can be opened)."""
    if pid <= 0:
        return False
    if os.name == "nt":  # os.kill(pid, 0) would end the process there
        import ctypes

        kernel = ctypes.windll.kernel32  # type: ignore[attr-defined,unused-ignore]
        handle = kernel.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        kernel.GetExitCodeProcess(handle, ctypes.byref(code))
        kernel.CloseHandle(handle)
        return code.value == 259  # STILL_ACTIVE
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)  # a server this program started, ended: reaped
    except OSError:  # (ChildProcessError: not this program's child)
        done = 0
    if done == pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# ---- asking the server ----------------------------------------------------------------------


class NightUnreachable(Exception):
    """The night's server did not answer (one sentence)."""


def ask(
    record: NightRecord, key: str, method: str, path: str, body: Any = None,
    *, timeout: float = 10.0,
) -> tuple[int, Any]:
    """One request to the night's server with the game master's key: (status, JSON answer).
    Raises :class:`NightUnreachable` when it cannot be reached."""
    import http.client  # here: `companion sessions` with no night served needs none of it

    connection = http.client.HTTPConnection(_bracketed(record.reach), record.port,
                                            timeout=timeout)
    headers = {KEY_HEADER: f"Bearer {key}", "Accept": "application/json"}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        raw = response.read()
    except (OSError, http.client.HTTPException) as error:
        raise NightUnreachable(
            f"The night's server at {record.url} is not answering ({error})."
        ) from None
    finally:
        connection.close()
    try:
        answer = json.loads(raw.decode("utf-8")) if raw else {}
    except ValueError:
        answer = {"error": raw.decode("utf-8", "replace")[:200]}
    return response.status, answer


def answering(
    session_file: Path, *, timeout: float = 2.0
) -> tuple[NightRecord, dict[str, Any]] | None:
    """The night's record and its server's greeting, if a server is serving this session now;
    ``None`` when there is no record or it is stale."""
    record = read_record(session_file)
    if record is None:
        return None
    if not process_alive(record.pid):
        return None
    try:
        status, hello = ask(record, game_master_key(session_file), "GET", "/api/gm/hello",
                            timeout=timeout)
    except NightUnreachable:
        return None
    if status != 200 or hello.get("session") != session_name(session_file):
        return None
    return record, hello


def wait_until_gone(pid: int, seconds: float) -> bool:
    """Wait up to ``seconds`` for process ``pid`` to end; whether it did."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not process_alive(pid):
            return True
        time.sleep(0.05)
    return not process_alive(pid)
