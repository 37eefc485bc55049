"""Helpers the phone servers' tests share."""

from __future__ import annotations

import socket


class Clock:
    """A clock that moves only when a test sets ``now`` (for the guard against guessing)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
