"""Finding a night's server, starting it detached, attaching a console to it, stopping it.

A console never serves the phones itself: it attaches to the night's server
(:mod:`companion.cli.serve`), which this starts in a process of its own when the night is not
served yet, detached from the terminal (its own session and process group on Linux and macOS,
a detached process with no window on Windows), so that a frozen, closed or crashed terminal
leaves the room served. A stale record (a server that died) is replaced: the new server listens
on the same port, and nothing acknowledged is lost (the log has it).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.session.night import (
    NightRecord,
    NightUnreachable,
    answering,
    ask,
    clear_record,
    game_master_key,
    log_path,
    process_alive,
    read_record,
    wait_until_gone,
)

START_SECONDS = 20.0  # the longest a new server may take to answer
BUSY_WAITS = 100  # tenths of a second a live server may take to answer before it is ended
STOP_SECONDS = 5.0  # the longest a server may take to stop when asked

# Windows' process creation flags (subprocess has them only on Windows)
DETACHED_PROCESS = 0x00000008
CREATE_NEW_PROCESS_GROUP = 0x00000200
CREATE_NO_WINDOW = 0x08000000


def detached(system: str = os.name) -> dict[str, Any]:
    """How a server process is started apart from the terminal, on ``system`` (``os.name``):
    never a bare fork (macOS forbids it once frameworks are loaded, Windows has none)."""
    if system == "nt":
        return {"creationflags": DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW,
                "close_fds": True}
    return {"start_new_session": True, "close_fds": True}


def server_command(name: str, folder: Path, args: argparse.Namespace,
                   port: int | None) -> list[str]:
    """The command line of a night's server for the session ``name`` in ``folder``."""
    command = [sys.executable, "-m", "companion", "--data-dir", str(folder), "serve", name,
               "--quiet"]
    host = getattr(args, "host", None)
    if host:
        command += ["--host", host]
    if port:
        command += ["--port", str(port)]
    public = getattr(args, "public_url", None)
    if public:
        command += ["--public-url", public]
    per_device = getattr(args, "per_device", None)
    if per_device is not None:
        command += ["--per-device", str(per_device)]
    bots = getattr(args, "bots", None)
    if bots:
        command += ["--bots", bots, "--bots-pace", str(getattr(args, "bots_pace", 4.0))]
        seed = getattr(args, "bots_seed", None)
        if seed is not None:
            command += ["--bots-seed", str(seed)]
    return command


def start_server(path: Path, folder: Path, args: argparse.Namespace, port: int | None,
                 *, spawn: Callable[..., Any] = subprocess.Popen) -> NightRecord:
    """Start the night's server of the session file ``path`` detached, and wait until it
    answers; refused in one sentence (what the server said) when it cannot start."""
    from companion.session.paths import session_name

    log = log_path(path)
    command = server_command(session_name(path), folder, args, port)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
    with os.fdopen(os.open(log, flags, 0o600), "wb") as out:
        process = spawn(command, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                        **detached())
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        found = answering(path, timeout=1.0)
        if found is not None:
            return found[0]
        if process.poll() is not None:
            break
        time.sleep(0.05)
    said = _last_words(log)
    if process.poll() is None:
        process.kill()
    raise UserError(said or "The night's server did not start in time; try again.")


def _last_words(log: Path) -> str:
    """The server's own sentence (``companion: …``) from its log, if it said one."""
    try:
        lines = [line.strip() for line in log.read_text("utf-8", "replace").splitlines()]
    except OSError:
        return ""
    said = [line for line in lines if line.startswith("companion:")]
    text = said[-1].removeprefix("companion:").strip() if said else ""
    return text


def ensure_served(path: Path, folder: Path, args: argparse.Namespace) -> NightRecord:
    """The night's server of ``path``: the running one, else a new one (on the stale record's
    port when a server died, so the printed links keep working)."""
    found = answering(path)
    if found is not None:
        return found[0]
    stale = read_record(path)
    port = getattr(args, "port", None)
    if stale is not None:
        if process_alive(stale.pid):  # alive but not answering: give a busy server time
            for _ in range(BUSY_WAITS):
                time.sleep(0.1)
                found = answering(path)
                if found is not None:
                    return found[0]
            _end(stale.pid)
        clear_record(path, stale.pid)
        port = port or stale.port
    return start_server(path, folder, args, port)


def attach(path: Path, folder: Path, args: argparse.Namespace, record: NightRecord) -> Any:
    """The session of ``path`` as a console holds it: attached to its night's server."""
    from companion.session.attached import AttachedSession
    from companion.session.store import StoreError

    try:
        return AttachedSession.attach(path, record, lambda: ensure_served(path, folder, args))
    except StoreError as error:
        raise UserError(str(error)) from None


def served_session(folder: Path, name: str, args: argparse.Namespace) -> Any | None:
    """The saved session ``name`` attached to its night's server, if one serves it now."""
    from companion.session.paths import session_path

    path = session_path(folder, name)
    if not path.exists():
        return None
    found = answering(path)
    if found is None:
        return None
    return attach(path, folder, args, found[0])


def hand_over(session: Any, args: argparse.Namespace) -> Any:
    """A console's session once the night is served: ``session`` (held here) is closed and its
    night's server started (or found), and the attached session comes back. With
    ``--no-phones``, the console keeps it alone (no phones, no server)."""
    from companion.session.attached import AttachedSession

    if isinstance(session, AttachedSession) or getattr(args, "no_phones", False):
        return session
    path = session.store.path
    folder = path.parent
    from companion.cli.options import served_as_before

    served_as_before(args, session)  # where it served last: the printed links keep working
    session.close()
    return attach(path, folder, args, ensure_served(path, folder, args))


def stop_night(path: Path) -> bool:
    """Stop the night's server of ``path``; whether one was serving. No process of the night
    is left: one that does not stop when asked is ended."""
    record = read_record(path)
    if record is None or not process_alive(record.pid):
        clear_record(path)
        return False
    with contextlib.suppress(NightUnreachable):
        ask(record, game_master_key(path), "POST", "/api/gm/stop", {}, timeout=3.0)
    if not wait_until_gone(record.pid, STOP_SECONDS):
        _end(record.pid)
    clear_record(path, record.pid)
    return True


def _end(pid: int) -> None:
    """End process ``pid`` (terminate, then kill)."""
    import signal

    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        return
    if not wait_until_gone(pid, 2.0) and hasattr(signal, "SIGKILL"):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            return
        wait_until_gone(pid, 2.0)


async def play_bots(session: Any, url: str, mix: str, seed: int | None, pace: float) -> None:
    """The bots of a rehearsal, playing every seat of ``session`` through its phone server at
    ``url`` (the night's server runs them: they go on when the console closes)."""
    from companion.session.prison.seats import seats_of
    from companion.sim.rehearsal import PhoneBots, PhoneSeat

    seats = [PhoneSeat(s.name, s.role, s.token) for s in seats_of(session)]
    await PhoneBots(url, seats, mix=mix, seed=seed, pace=pace).run()
