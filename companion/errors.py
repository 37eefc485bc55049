"""The one error type a command shows the user: a clear sentence and an exit status."""

from __future__ import annotations

from collections.abc import Callable, Mapping


class UserError(Exception):
    """Something the user can fix; shown as one sentence, never a traceback. Made with
    :meth:`of`, it keeps its message's English template and parameters, so that the command
    line says it in the game master's language (:meth:`said`)."""

    def __init__(
        self, message: str, status: int = 2, *, template: str = "",
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.template = template
        self.params = dict(params or {})

    @classmethod
    def of(cls, template: str, status: int = 2, **params: object) -> UserError:
        """The error whose sentence is ``template`` (a message marked ``N_``, English, with
        ``%(name)s`` placeholders) filled from ``params``."""
        return cls(template % params if params else template, status, template=template,
                   params=params)

    def said(self, say: Callable[..., str]) -> str:
        """The sentence in the language of ``say`` (a ``companion.language.Language``); the
        English one when it was not made from a template."""
        return say(self.template, **self.params) if self.template else str(self)
