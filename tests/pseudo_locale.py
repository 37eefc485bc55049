"""The pseudo-locale the tests read every face in: each message of companion.pot with its
letters accented, lengthened by a third and wrapped in ``[!! … !!]``, so that any English left
on a page is a message that did not go through the catalog. Made at test time from the .pot,
never shipped as a language."""

from __future__ import annotations

import gettext
import re
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from companion.language import LOCALE_DIR, Language, register, unregister

CODE = "qps"  # a private-use language tag: no real language has it
LOWER = "áƀçďéƒĝĥíĵķĺḿñóƥʠŕšţúṽŵẋýž"
UPPER = "ÁƁÇĎÉƑĜĤÍĴĶĹḾÑÓƤɊŔŠŢÚṼŴẊÝŽ"
_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", LOWER + UPPER
)
# What a translation must keep as it is: placeholders, HTML tags, Markdown's bold marks.
_KEEP = re.compile(r"%\([a-z_]+\)[sdr]|<[^>]+>|\*\*")
# Letters a page may show that are not messages: accented pseudo text never matches.
ENGLISH = re.compile(r"[A-Za-z]{2,}")


def pseudo(text: str) -> str:
    """``Saved: you WORK tonight.`` as ``[!! Šáṽéď: ýóú ŴÓŔĶ ţóñíĝĥţ. ~~~~~~~ !!]``."""
    parts = []
    last = 0
    for kept in _KEEP.finditer(text):
        parts.append(text[last : kept.start()].translate(_ACCENTED))
        parts.append(kept.group())
        last = kept.end()
    parts.append(text[last:].translate(_ACCENTED))
    padding = "~" * max(1, len(text) // 3)
    return f"[!! {''.join(parts)} {padding} !!]"


def catalog() -> Catalog:
    with (LOCALE_DIR / "companion.pot").open("rb") as file:
        template = read_po(file)
    made = Catalog(locale="en_GB", domain="companion")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            string: str | tuple[str, ...] = tuple(pseudo(m) for m in message.id)
        else:
            string = pseudo(message.id)
        made.add(message.id, string, context=message.context)
    return made


def install() -> Language:
    """Register the pseudo-locale as the language ``qps``; :func:`remove` takes it away."""
    buffer = BytesIO()
    write_mo(buffer, catalog())
    buffer.seek(0)
    return register(CODE, gettext.GNUTranslations(buffer))


def remove() -> None:
    unregister(CODE)


def leftovers(text: str, dynamic: list[str]) -> list[str]:
    """The English words in ``text`` once the ``dynamic`` parts (names, addresses, codes) are
    taken out: the words that did not go through the catalog."""
    for value in sorted(dynamic, key=len, reverse=True):
        text = text.replace(value, " ")
    return ENGLISH.findall(text)


def shipped() -> list[Path]:
    return sorted(LOCALE_DIR.glob("*/LC_MESSAGES/companion.po"))
