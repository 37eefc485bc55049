"""Checks on who plays: names and roster size, shared by scripts, the console and the phones.

Two names are the same name when they read the same: :func:`name_key` compares them after
Unicode normalisation and case folding, in every game's roster; :func:`reading_key` sorts
names the way people read them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

MAX_NAME = 40


class RosterError(ValueError):
    """A roster that cannot be played; the message is one clear sentence. A name refused by
    :func:`check_name` also says which ``check`` it failed (``text``, ``empty``, ``long``,
    ``spaces``, ``control``) and its ``params`` (``name``, as written in the sentence;
    ``length`` and ``most`` for a long one), so that a game may say it in its own words."""

    def __init__(self, message: str, check: str = "", **params: str | int) -> None:
        super().__init__(message)
        self.check = check
        self.params = params


def name_key(name: str) -> str:
    """What two names are compared by: ``Zoë`` typed precomposed or as ``e`` + U+0308, ``ZOË``
    and ``zoë`` all give the same key (canonical caseless matching, in NFC)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", name).casefold())


Chunk = tuple[int, int, str]  # (0, number, "") for digits, (1, 0, text) for the rest
_DIGITS = re.compile(r"(\d+)")


def _chunks(text: str) -> tuple[Chunk, ...]:
    return tuple(
        (0, int(part), "") if part.isdecimal() else (1, 0, part)
        for part in _DIGITS.split(text)
        if part
    )


def reading_key(name: str) -> tuple[tuple[Chunk, ...], tuple[Chunk, ...], str]:
    """A sort key in reading order rather than code points: letters first without their
    accents and case (``Dee, Émile, José``), numbers by value (``Player 2, Player 10``); then
    the accents, then the name itself, so that the order is total and stable."""
    folded = name_key(name)
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))
    return _chunks(bare), _chunks(folded), name


def check_name(name: object, what: str) -> str:
    if not isinstance(name, str):
        raise RosterError(f"The {what}'s name must be text, not {name!r}.", "text", name=repr(name))
    clean = name.strip()
    if not clean:
        raise RosterError(f"The {what}'s name is empty; give every player a name.", "empty")
    if len(clean) > MAX_NAME:
        raise RosterError(
            f"The {what}'s name {clean[:20]!r}... is {len(clean)} characters long; "
            f"use at most {MAX_NAME}.",
            "long",
            name=repr(clean[:20]),
            length=len(clean),
            most=MAX_NAME,
        )
    if clean != name:
        raise RosterError(
            f"The {what}'s name {name!r} has spaces at its ends; remove them.",
            "spaces",
            name=repr(name),
        )
    if any(ord(c) < 32 for c in name):
        raise RosterError(
            f"The {what}'s name {name!r} holds a control character; retype it.",
            "control",
            name=repr(name),
        )
    return name


def check_roster(
    warden: object, prisoners: Sequence[object], min_prisoners: int, max_prisoners: int
) -> tuple[str, list[str]]:
    """Validate a prison-break roster; returns the warden's and the prisoners' names."""
    if not isinstance(prisoners, Sequence) or isinstance(prisoners, str):
        raise RosterError("The prisoners must be a list of names.")
    w = check_name(warden, "warden")
    names = [check_name(p, f"prisoner #{i + 1}") for i, p in enumerate(prisoners)]
    seen: set[str] = {name_key(w)}
    for name in names:
        if name_key(name) in seen:
            raise RosterError(
                f"The name {name!r} is used twice; every player needs their own name."
            )
        seen.add(name_key(name))
    if not min_prisoners <= len(names) <= max_prisoners:
        span = (
            f"exactly {min_prisoners}"
            if min_prisoners == max_prisoners
            else f"{min_prisoners} to {max_prisoners}"
        )
        raise RosterError(
            f"This scenario is balanced for {span} prisoners, but the roster has {len(names)}; "
            "pick a scenario for this group size (see 'companion scenarios')."
        )
    return w, names
