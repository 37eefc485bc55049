"""Helpers the phone servers' tests share."""

from __future__ import annotations


class Clock:
    """A clock that moves only when a test sets ``now`` (for the guard against guessing)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
