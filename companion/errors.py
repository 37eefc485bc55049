"""The one error type a command shows the user: a clear sentence and an exit status."""

from __future__ import annotations


class UserError(Exception):
    """Something the user can fix; shown as one sentence, never a traceback."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status
