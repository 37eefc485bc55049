"""Checks on who plays: names and roster size, shared by scripts, the console and the phones.

Two names are the same name when they look the same: they share one of their
:func:`name_keys` (confusable letters mapped, then case folded, or case folded first), in every
game's roster; :func:`reading_key` sorts
names the way people read them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from companion.rules.core.game import Refused, english
from companion.rules.core.names import MOST_MARKS, hidden_trouble, said, skeleton, skeletons
from companion.rules.core.words import N_

MAX_NAME = 40


class RosterError(ValueError):
    """A roster that cannot be played; the message is one clear sentence, in English.

    ``template`` is that sentence as a message of the catalogs, with ``%(name)s`` placeholders
    filled from ``params`` (empty when the sentence is not a message), so that a face says it in
    its reader's language from :attr:`refused` (``Language.refused``)."""

    def __init__(self, message: str, template: str = "", **params: str | int) -> None:
        super().__init__(message)
        self.template = template
        self.params = params

    @property
    def refused(self) -> Refused:
        return Refused(str(self), self.template, tuple(self.params.items()))


def _refusing(template: str, **params: str | int) -> RosterError:
    return RosterError(english(template, params), template, **params)


# A name that cannot be played, one whole sentence per check and whose name it is (a name
# whose part is not here, such as a So Long Sucker setup's "player #2", is said in English).
_NAME_PROBLEMS: dict[tuple[str, str], str] = {
    ("warden", "text"): N_("The warden's name must be text, not %(name)s."),
    ("warden", "empty"): N_("The warden's name is empty; give every player a name."),
    ("warden", "long"): N_(
        "The warden's name %(name)s... is %(length)s characters long; use at most %(most)s."
    ),
    ("warden", "spaces"): N_("The warden's name %(name)s has spaces at its ends; remove them."),
    ("warden", "control"): N_(
        "The warden's name %(name)s holds a control character; retype it."
    ),
    ("prisoner", "text"): N_("The prisoner's name must be text, not %(name)s."),
    ("prisoner", "empty"): N_("The prisoner's name is empty; give every player a name."),
    ("prisoner", "long"): N_(
        "The prisoner's name %(name)s... is %(length)s characters long; use at most %(most)s."
    ),
    ("prisoner", "spaces"): N_(
        "The prisoner's name %(name)s has spaces at its ends; remove them."
    ),
    ("prisoner", "control"): N_(
        "The prisoner's name %(name)s holds a control character; retype it."
    ),
    ("prisoner #", "text"): N_("The prisoner #%(number)s's name must be text, not %(name)s."),
    ("prisoner #", "empty"): N_(
        "The prisoner #%(number)s's name is empty; give every player a name."
    ),
    ("prisoner #", "long"): N_(
        "The prisoner #%(number)s's name %(name)s... is %(length)s characters long; "
        "use at most %(most)s."
    ),
    ("prisoner #", "spaces"): N_(
        "The prisoner #%(number)s's name %(name)s has spaces at its ends; remove them."
    ),
    ("prisoner #", "control"): N_(
        "The prisoner #%(number)s's name %(name)s holds a control character; retype it."
    ),
    ("player", "text"): N_("The player's name must be text, not %(name)s."),
    ("player", "empty"): N_("The player's name is empty; give every player a name."),
    ("player", "long"): N_(
        "The player's name %(name)s... is %(length)s characters long; use at most %(most)s."
    ),
    ("player", "spaces"): N_("The player's name %(name)s has spaces at its ends; remove them."),
    ("player", "control"): N_("The player's name %(name)s holds a control character; retype it."),
    ("warden", "invisible"): N_(
        "The warden's name %(name)s holds an invisible or direction-changing character; "
        "retype it with letters only."
    ),
    ("warden", "blank"): N_(
        "The warden's name %(name)s has no letter one can see; type a name people can read."
    ),
    ("warden", "marks"): N_(
        "The warden's name %(name)s piles up more than %(most)s accents on one letter; retype it."
    ),
    ("prisoner", "invisible"): N_(
        "The prisoner's name %(name)s holds an invisible or direction-changing character; "
        "retype it with letters only."
    ),
    ("prisoner", "blank"): N_(
        "The prisoner's name %(name)s has no letter one can see; type a name people can read."
    ),
    ("prisoner", "marks"): N_(
        "The prisoner's name %(name)s piles up more than %(most)s accents on one letter; retype it."
    ),
    ("prisoner #", "invisible"): N_(
        "The prisoner #%(number)s's name %(name)s holds an invisible or direction-changing "
        "character; "
        "retype it with letters only."
    ),
    ("prisoner #", "blank"): N_(
        "The prisoner #%(number)s's name %(name)s has no letter one can see; "
        "type a name people can read."
    ),
    ("prisoner #", "marks"): N_(
        "The prisoner #%(number)s's name %(name)s piles up more than %(most)s accents on one "
        "letter; "
        "retype it."
    ),
    ("player", "invisible"): N_(
        "The player's name %(name)s holds an invisible or direction-changing character; "
        "retype it with letters only."
    ),
    ("player", "blank"): N_(
        "The player's name %(name)s has no letter one can see; type a name people can read."
    ),
    ("player", "marks"): N_(
        "The player's name %(name)s piles up more than %(most)s accents on one letter; retype it."
    ),
}
_NAME_ENGLISH = {
    "text": "The {what}'s name must be text, not %(name)s.",
    "empty": "The {what}'s name is empty; give every player a name.",
    "long": "The {what}'s name %(name)s... is %(length)s characters long; use at most %(most)s.",
    "spaces": "The {what}'s name %(name)s has spaces at its ends; remove them.",
    "control": "The {what}'s name %(name)s holds a control character; retype it.",
    "invisible": "The {what}'s name %(name)s holds an invisible or direction-changing character; "
    "retype it with letters only.",
    "blank": "The {what}'s name %(name)s has no letter one can see; type a name people can read.",
    "marks": "The {what}'s name %(name)s piles up more than %(most)s accents on one letter; "
    "retype it.",
}


def _name_problem(what: str, number: int | None, check: str, **params: str | int) -> RosterError:
    if number is not None:
        params["number"] = number
    template = _NAME_PROBLEMS.get((what + (" #" if number is not None else ""), check))
    if template is not None:
        return _refusing(template, **params)
    whose = what if number is None else f"{what} #{number}"
    return RosterError(_NAME_ENGLISH[check].replace("{what}", whose) % params)


def name_key(name: str) -> str:
    """What two names are compared by, in every game's roster: names that look the same give
    the same key (:func:`~companion.rules.core.names.skeleton`): ``Zoë`` typed precomposed or
    as ``e`` + U+0308, ``ZOË``, ``zoë``; ``Ada``, ``Аda`` with a Cyrillic ``А``, ``ADA``."""
    return skeleton(name)


def name_keys(name: str) -> frozenset[str]:
    """Every key ``name`` is compared by: two names are the same name when they share one
    (:func:`~companion.rules.core.names.skeletons`): ``Ian`` is ``lan`` and ``IAN`` and ``ian``,
    ``WiII`` is ``Will``, ``ᴀda`` is ``Ada``; but ``ian`` and ``lan`` are two names."""
    return skeletons(name)


def _caseless(name: str) -> str:
    """Canonical caseless matching, in NFC: the order names are read in."""
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
    folded = _caseless(name)
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))
    return _chunks(bare), _chunks(folded), name


def check_name(name: object, what: str, number: int | None = None) -> str:
    """``name`` as the name of the ``what`` (``warden``, ``prisoner``, ``player``; ``number``:
    the ``what #number`` of a list), or :class:`RosterError` saying what is wrong with it."""
    if not isinstance(name, str):
        raise _name_problem(what, number, "text", name=repr(name))
    clean = name.strip()
    if not clean:
        raise _name_problem(what, number, "empty")
    if len(clean) > MAX_NAME:
        raise _name_problem(
            what, number, "long", name=repr(clean[:20]), length=len(clean), most=MAX_NAME
        )
    if clean != name:
        raise _name_problem(what, number, "spaces", name=repr(name))
    trouble = hidden_trouble(name)
    if trouble == "marks":
        raise _name_problem(what, number, "marks", name=said(name), most=MOST_MARKS)
    if trouble is not None:
        raise _name_problem(what, number, trouble, name=said(name))
    return name


def check_roster(
    warden: object, prisoners: Sequence[object], min_prisoners: int, max_prisoners: int
) -> tuple[str, list[str]]:
    """Validate a prison-break roster; returns the warden's and the prisoners' names."""
    if not isinstance(prisoners, Sequence) or isinstance(prisoners, str):
        raise _refusing(N_("The prisoners must be a list of names."))
    w = check_name(warden, "warden")
    names = [check_name(p, "prisoner", i + 1) for i, p in enumerate(prisoners)]
    seen: set[str] = set(name_keys(w))
    for name in names:
        if not seen.isdisjoint(name_keys(name)):
            raise _refusing(
                N_("The name %(name)s is used twice; every player needs their own name."),
                name=repr(name),
            )
        seen |= name_keys(name)
    if not min_prisoners <= len(names) <= max_prisoners:
        if min_prisoners == max_prisoners:
            raise _refusing(
                N_(
                    "This scenario is balanced for exactly %(most)s prisoners, but the roster "
                    "has %(count)s; pick a scenario for this group size "
                    "(see 'companion scenarios')."
                ),
                most=max_prisoners,
                count=len(names),
            )
        raise _refusing(
            N_(
                "This scenario is balanced for %(least)s to %(most)s prisoners, but the roster "
                "has %(count)s; pick a scenario for this group size (see 'companion scenarios')."
            ),
            least=min_prisoners,
            most=max_prisoners,
            count=len(names),
        )
    return w, names
