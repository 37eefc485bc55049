"""The guess limiter's notes on a console: one notice for every address guessing links.

The phone servers note ``bad_tokens`` (an address reached the limit of wrong links and is
paused) through :func:`companion.web.common.context.count_wrong`. A console says so in one
notice, updated as more addresses come (``Wrong links from 40 addresses within a minute``),
never one notice per address stacked over the screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from textual.app import App
from textual.notifications import Notification, Notify

from companion.language import Language
from companion.tui.common.literal import visible

TIMEOUT = 15  # seconds the notice stays up after it first shows
WINDOW = 60  # seconds: the limiter's window when a note does not say


def wrong_words(body: Mapping[str, Any], lang: Language) -> dict[str, str]:
    """A ``bad_tokens`` note's address, count and window, in words."""
    _ = lang
    seconds = body.get("seconds")
    window = (
        _("a minute")
        if seconds in (None, 60)
        else _("%(seconds)s seconds", seconds=f"{seconds:g}")
        if isinstance(seconds, (int, float))
        else _("a minute")
    )
    count = body.get("count")
    return {
        "address": visible(body.get("address") or _("an unknown address")),
        "count": str(count) if count is not None else _("too many"),
        "window": window,
    }


def wrong_links(body: Mapping[str, Any], *, paused: bool, lang: Language) -> str:
    """A ``bad_tokens`` note (an address that reached the limit of wrong links) in words."""
    _ = lang
    if paused:
        return _(
            "Wrong links from %(address)s: %(count)s in %(window)s; that device is paused",
            **wrong_words(body, _),
        )
    return _("Wrong links from %(address)s: %(count)s in %(window)s", **wrong_words(body, _))


def guessing(notes: list[Mapping[str, Any]], lang: Language) -> str:
    """The notice for the ``notes`` of the addresses paused lately (the latest last)."""
    _ = lang
    addresses = {str(body.get("address")) for body in notes}
    if len(addresses) == 1:
        return _(
            "%(wrong)s. Someone may be guessing links.",
            wrong=wrong_links(notes[-1], paused=True, lang=lang),
        )
    window = wrong_words(notes[-1], _)["window"]
    return _.n_(
        "Wrong links from %(count)s address within %(window)s; it is paused. Someone may be "
        "guessing links.",
        "Wrong links from %(count)s addresses within %(window)s; each is paused. Someone may "
        "be guessing links.",
        len(addresses),
        window=window,
    )


class WrongLinks:
    """The one notice of wrong links on ``app``: each ``bad_tokens`` note heard updates it
    (while it shows) or raises it again (once it went), counting the addresses noted within
    the limiter's window."""

    def __init__(
        self, app: App[Any], lang: Callable[[], Language], clock: Callable[[], float] = time.time
    ) -> None:
        self.app = app
        self.lang = lang
        self.clock = clock
        self.notes: list[tuple[float, Mapping[str, Any]]] = []
        self.notice: Notification | None = None

    def noted(self, body: Mapping[str, Any]) -> None:
        now = self.clock()
        window = body.get("seconds")
        window = window if isinstance(window, (int, float)) and window > 0 else WINDOW
        self.notes = [(at, b) for at, b in self.notes if now - at < window]
        self.notes.append((now, body))
        _ = self.lang()
        said = guessing([b for _at, b in self.notes], _)
        notice = self.notice
        if notice is not None and not notice.has_expired:
            notice.message = said  # the toast shows its notice as it is now
            self.app.post_message(Notify(notice))
            for toast in self.app.screen.query("Toast"):
                toast.refresh()
            return
        self.notice = Notification(
            said, title=_("Wrong links"), severity="warning", timeout=TIMEOUT, markup=False
        )
        self.app.post_message(Notify(self.notice))
