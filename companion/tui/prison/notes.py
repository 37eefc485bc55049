"""The log's notes as the console says them: a peek, a reissued seat, the links pinned, the
wrong links an address tried (and whether its device is paused)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from companion.language import Language
from companion.tui.common.guesses import wrong_links as guessed
from companion.tui.common.guesses import wrong_words
from companion.tui.prison.text import spoken


def wrong_links(body: dict[str, Any], *, paused: bool, lang: Language | None = None) -> str:
    """A ``bad_tokens`` note (an address that reached the limit of wrong links) in words."""
    return guessed(body, paused=paused, lang=spoken(lang))


def _earlier(body: Mapping[str, Any], when: str, lang: Language) -> str:
    _ = lang
    return _(
        "At %(time)s, wrong links from %(address)s: %(count)s in %(window)s; that device was "
        "paused",
        time=when,
        **wrong_words(body, _),
    )


def note_line(body: Mapping[str, Any], at: str, lang: Language | None = None) -> str | None:
    """A note of the log as the history and the report say it (``None``: not worth a line)."""
    _ = spoken(lang)
    what = body.get("what")
    if what == "peek":
        return _("The game master peeked at the sealed choices.")
    if what == "seat_reissued":
        return _("%(seat)s's seat was reissued (new link and code).", seat=body.get("seat"))
    if what == "address_pinned":
        url = body.get("url")
        return (
            _("The players' links were pinned to %(url)s.", url=url)
            if url
            else _("The players' links were unpinned (the served address again).")
        )
    if what == "bad_tokens":
        try:
            when = datetime.fromisoformat(at).astimezone().strftime("%H:%M")
        except ValueError:
            when = "?"
        return _earlier(body, when, _) + "."
    return None


def wrong_link_lines(
    notes: Iterable[tuple[float, dict[str, Any]]],
    now: float,
    *,
    earlier: bool,
    limit: int = 4,
    lang: Language | None = None,
) -> list[str]:
    """The latest ``bad_tokens`` note of each address (given as (unix time, body)), newest
    first: "paused" while its window lasts; older ones only when ``earlier``, with their time."""
    _ = spoken(lang)
    latest: dict[str, tuple[float, dict[str, Any]]] = {}
    for at, body in notes:
        address = str(body.get("address"))
        if address not in latest or at >= latest[address][0]:
            latest[address] = (at, body)
    lines = []
    for at, body in sorted(latest.values(), key=lambda item: -item[0]):
        seconds = body.get("seconds")
        window = float(seconds) if isinstance(seconds, (int, float)) else 60.0
        if now - at < window:
            lines.append(wrong_links(body, paused=True, lang=_))
        elif earlier:
            when = datetime.fromtimestamp(at).strftime("%H:%M")
            lines.append(_earlier(body, when, _))
    return lines[:limit]
