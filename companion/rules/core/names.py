"""What a name may hold, and when two names are the same name: the one name rule's pieces.

A name is what a player types on a phone or what the game master types on the console; it is
shown to the whole room on the board, the phones, the console and the paper. So it must be
*seen* as it is: :func:`hidden_trouble` finds what would not be (control characters, direction
overrides, invisible characters, a name with nothing visible in it, piles of accents), and
:func:`skeleton` is what two names are compared by, so that names that look alike are the same
name: ``Ada``, ``ADA``, ``Аda`` with a Cyrillic ``А`` and ``Ada`` with a zero-width space.

The skeleton follows Unicode's confusable detection (Technical Standard #39): each character is
replaced by the prototype it is confusable with, from the TR39 data as the
``confusable-homoglyphs`` package ships it (made into a table of prototypes by
``scripts/confusables.py``), before case is folded, as TR39 does (a capital ``I`` looks like an
``l``, not like an ``i``); :func:`skeletons` adds the key with case folded first, so that names
that differ in case alone are one name too. Pure functions; the table is read once, on first
use.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import Literal

Trouble = Literal["control", "invisible", "blank", "marks"]

MOST_MARKS = 4  # combining marks on one letter: Vietnamese uses 2, Indic scripts up to 4

# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters that
# are drawn as nothing. Most are refused; the joiners and variation selectors only where they
# shape what is beside them (see _shaping).
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
# Drawn as a blank although they are not spaces: the braille blank, and the Hangul fillers
# (also ignorable, above).
_BLANK = frozenset("\u2800\u3164\u115f\u1160\uffa0")
_JOINERS = frozenset("\u200c\u200d")  # ZWNJ and ZWJ: Persian and Indic words, emoji families
_SELECTORS = frozenset(chr(c) for c in (*range(0xFE00, 0xFE10), 0x180B, 0x180C, 0x180D, 0x180F))


def _ignorable(c: str) -> bool:
    code = ord(c)
    return any(lo <= code <= hi for lo, hi in _IGNORABLE)


def _control(c: str) -> bool:
    """C0 and C1 controls and DEL; line and paragraph separators break a line as they do."""
    return unicodedata.category(c) == "Cc" or c in "\u2028\u2029"


def _seen(c: str) -> bool:
    """A character one can see on its own: not a space, a mark, a blank or an ignorable one."""
    category = unicodedata.category(c)
    return (
        category[0] not in "ZMC" and c not in _BLANK and not _ignorable(c)
    )


def _shaping(name: str, i: int) -> bool:
    """Whether the joiner or selector at ``i`` shapes a neighbour rather than hides: a joiner
    between two visible characters outside ASCII (``می‌خواهم``, 👩‍💻), a variation selector
    right after a visible character (❤️)."""
    c = name[i]
    before = name[i - 1] if i > 0 else ""
    if c in _SELECTORS:
        return bool(before) and _seen(before)
    after = name[i + 1] if i + 1 < len(name) else ""
    return all(n and not n.isascii() and (_seen(n) or _is_mark(n)) for n in (before, after))


def _is_mark(c: str) -> bool:
    return unicodedata.category(c)[0] == "M"


def hidden_trouble(name: str) -> Trouble | None:
    """What in ``name`` would not be seen as it is, or ``None``: a control character, an
    invisible or direction-changing one (bidi overrides and isolates, zero-width characters,
    fillers, unassigned or private characters), no visible character at all, or more than
    :data:`MOST_MARKS` accents on one letter."""
    if any(_control(c) for c in name):
        return "control"
    for i, c in enumerate(name):
        category = unicodedata.category(c)
        if c in _JOINERS or c in _SELECTORS:
            if not _shaping(name, i):
                return "invisible"
        elif _ignorable(c) or category in ("Cf", "Cn", "Co", "Cs") or c in _BLANK:
            return "invisible"
    if not any(_seen(c) for c in name):
        return "blank"
    run = 0
    for c in unicodedata.normalize("NFC", name):
        run = run + 1 if _is_mark(c) else 0
        if run > MOST_MARKS:
            return "marks"
    return None


def said(name: str) -> str:
    """``name`` quoted as a refusal says it: Python's ``repr``, which writes invisible and control
    characters as escapes, with the accents and blanks (U+3164, U+2800) escaped too, so that a
    pile of accents cannot draw over the sentence (``'Ze\\u0332\\u0332d'``)."""
    return "".join(
        f"\\u{ord(c):04x}" if _is_mark(c) or c in _BLANK or _ignorable(c) else c
        for c in repr(name)
    )


@cache
def _prototypes() -> dict[str, str]:
    """Each character's TR39 prototype, for the characters that have one: ``prototypes.json``
    beside this module, written by ``scripts/confusables.py`` from the data the
    ``confusable-homoglyphs`` package ships (a test fails when the two differ). Read once, on
    the first name compared: 5,000-odd pairs, where the package's own 900 KB table was most of
    what a command that checks a roster spent before it started."""
    import json
    from importlib.resources import files

    table: dict[str, str] = json.loads(
        files("companion.rules.core").joinpath("prototypes.json").read_bytes()
    )
    return table


# Kept per character: a name's keys made cold (1,000 new names, as a join rush) take some 26 µs
# a name with it against 59 µs without (the TR39 table and the Unicode name looked up per letter).
@lru_cache(maxsize=4096)
def _prototype(source: str) -> str:
    """The prototype of the character ``source`` in the TR39 data (``source`` itself if it has
    none). A small capital the data does not list (``ᴀ``, ``ʙ``, ``ᴅ``) stands for its capital
    letter (``A``), which is what it is drawn as, a little smaller."""
    found = _prototypes().get(source)
    if found is not None:
        return found
    small = _SMALL_CAPITAL.match(unicodedata.name(source, ""))
    if small is None:
        return source
    try:
        capital = unicodedata.lookup(f"{small[1]} CAPITAL LETTER {small[2]}")
    except KeyError:  # a small capital with no capital of its own
        return source
    return _prototypes().get(capital, capital)


_SMALL_CAPITAL = re.compile(r"^(LATIN|GREEK|CYRILLIC) LETTER SMALL CAPITAL ([A-Z]+)$")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _mapped(text: str) -> str:
    return "".join(
        _prototype(c)
        for c in unicodedata.normalize("NFD", text)
        if not (_ignorable(c) or unicodedata.category(c) == "Cf")
    )


def _settled(text: str) -> str:
    """``text`` mapped to its prototypes and folded, again and again until it no longer
    changes (a prototype may be a capital letter, a folded letter may have a prototype)."""
    for _ in range(8):
        mapped = _fold(_mapped(text))
        if mapped == text:
            break
        text = mapped
    return " ".join(text.split())


@lru_cache(maxsize=8192)  # a room of 1,000 compares every name with each join
def skeleton(name: str) -> str:
    """What two names are compared by: the same for names that look the same.

    As Unicode's skeleton does (TR39), each character is first replaced by its prototype, and
    only then is case folded, so that a capital ``I`` is the ``l`` it looks like (``WiII`` and
    ``Will``, ``lan`` and ``Ian``, ``AI`` and ``Al``) and a small capital the capital it is
    (``ᴀda`` and ``Ada``); then mapped and folded again to a fixed point: ``Ada``, ``ADA``,
    ``Аda`` (Cyrillic), ``A\u200bda`` and ``Ａda`` all give ``ada``; runs of spaces count as
    one. Invisible characters are dropped, after NFKC."""
    return _settled(unicodedata.normalize("NFKC", name))


def caseless_skeleton(name: str) -> str:
    """The skeleton of ``name`` with its case folded first: the key that keeps two names that
    differ only in case together where their capitals and small letters have different
    prototypes (``ian`` and ``Ian``: the capital ``I`` is an ``l``, the small ``i`` is not)."""
    return _settled(_fold(name))


def skeletons(name: str) -> frozenset[str]:
    """Both keys of ``name``: two names are the same name when they share one. One key could
    not hold both relations without making every ``i`` an ``l`` (``Lia`` and ``Ila``): ``Ian``
    is ``lan`` to the eye and ``ian`` to the ear, but ``ian`` and ``lan`` are two names."""
    return frozenset((skeleton(name), caseless_skeleton(name)))


def reads_as(name: str, word: str) -> bool:
    """Whether ``name`` reads as ``word`` or as ``word`` followed by more (``House``,
    ``HOUSE (Tit for Tat)``, ``Hоuse 2`` for the word ``House``), but not as another word that
    starts the same (``Householder``); by either key (``MAISON``: its ``I`` is an ``l``)."""
    return any(
        _starts(key(name), key(word)) for key in (skeleton, caseless_skeleton)
    )


def _starts(shape: str, start: str) -> bool:
    if not shape.startswith(start):
        return False
    rest = shape[len(start) :]
    return not rest or not (rest[0].isalnum() or _is_mark(rest[0]))
