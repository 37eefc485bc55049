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
``scripts/confusables.py``), after NFKC and case folding. Pure functions; the table is read
once, on first use.
"""

from __future__ import annotations

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


def _prototype(source: str) -> str:
    """The prototype of the character ``source`` in the TR39 data (``source`` itself if it has
    none)."""
    return _prototypes().get(source, source)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


@lru_cache(maxsize=8192)  # a room of 1,000 compares every name with each join
def skeleton(name: str) -> str:
    """What two names are compared by: the same for names that look the same.

    After NFKC and case folding, invisible characters are dropped and each character is
    replaced by its TR39 prototype, then folded again (a prototype may be a capital letter), to
    a fixed point: ``Ada``, ``ADA``, ``Аda`` (Cyrillic), ``A\u200bda`` and ``Ａda`` all give
    ``ada``; runs of spaces count as one."""
    text = _fold(name)
    for _ in range(4):  # prototypes are fixed points; a second pass settles the folded ones
        mapped = "".join(
            _prototype(c)
            for c in unicodedata.normalize("NFD", text)
            if not (_ignorable(c) or unicodedata.category(c) == "Cf")
        )
        mapped = _fold(mapped)
        if mapped == text:
            break
        text = mapped
    return " ".join(text.split())


def reads_as(name: str, word: str) -> bool:
    """Whether ``name`` reads as ``word`` or as ``word`` followed by more (``House``,
    ``HOUSE (Tit for Tat)``, ``Hоuse 2`` for the word ``House``), but not as another word that
    starts the same (``Householder``)."""
    shape, start = skeleton(name), skeleton(word)
    if not shape.startswith(start):
        return False
    rest = shape[len(start) :]
    return not rest or not (rest[0].isalnum() or _is_mark(rest[0]))
