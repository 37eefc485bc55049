"""The languages the app speaks: gettext catalogs managed with Babel, and each locale's lists,
numbers and times.

English is the source language: every message is written in English in the code and the
templates, marked with ``_``/``N_``/``n_`` (Python) or ``{% trans %}``/``_()`` (Jinja2),
extracted into ``companion/locale/companion.pot`` (``scripts/catalogs.sh``, ``make catalogs``)
and translated in ``companion/locale/LANG/LC_MESSAGES/companion.po``. The wheel carries them
compiled (``.mo``, by ``setup.py``); a checkout without compiled catalogs reads the ``.po``
sources directly. Adding a language is adding its ``.po`` file: :func:`available` finds it.

Only the standard library, Babel and the rules' phrases: the printing, the web faces and the
consoles import it; the rules core does not. Every sentence of the rules is a phrase (its
English message and parameters, :mod:`companion.rules.core.phrase`), which :meth:`Language.say`
says in a language; a refusal's too (:meth:`Language.refused`).
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, cached_property, lru_cache
from io import BytesIO
from pathlib import Path

from companion.errors import UserError

TYPE_CHECKING = False  # typing would cost `companion sessions` 0.2x (benchmarks/cli.py)
if TYPE_CHECKING:
    from datetime import datetime, time
    from types import ModuleType
    from typing import Literal, Protocol

    from babel import Locale

    from companion.rules.core.phrase import Arg, Listed, Phrase

    class Refusing(Protocol):
        """What a refusal says (``companion.rules.core.game.Refused``), read without importing
        the rules: the English ``reason``, its message ``template`` (empty: ``reason`` is not a
        message), its ``params`` and, for a count, ``plural`` and ``count``."""

        @property
        def reason(self) -> str: ...

        @property
        def template(self) -> str: ...

        @property
        def params(self) -> tuple[tuple[str, Arg], ...]: ...

        @property
        def plural(self) -> str: ...

        @property
        def count(self) -> int | None: ...


LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "companion"
SOURCE = "en"  # the language the messages are written in
# The English the messages are written in lists "Ada, Ben and Cy" (no comma before "and").
SOURCE_LOCALE = "en_GB"

# Languages registered by code rather than found as catalogs (the tests' pseudo-locale).
_extra: dict[str, Language] = {}


def _phrases() -> ModuleType:
    """The rules' phrases (:mod:`companion.rules.core.phrase`), imported the first time one is
    said in a language other than English: a command that says none (``companion sessions``)
    starts without them, and without the ``dataclasses`` they are made of."""
    from companion.rules.core import phrase

    return phrase


def N_(message: str) -> str:  # noqa: N802 - the marker's conventional name
    """Marks ``message`` for extraction where it is defined; it is translated where used."""
    return message


def pN_(context: str, message: str) -> str:  # noqa: N802 - the marker's conventional name
    """Marks ``message`` for extraction with its ``context`` (one English word that means two
    things: the prison break's prisoners and So Long Sucker's chips); it is translated where
    used, with ``pgettext(context, message)``."""
    return message


WHOLE = 100_000  # the whole numbers a Language keeps as written, up to this size either way

# The short words a language drops its last vowel from before a word that starts with one, and
# what they become: French "de Ada" is "d’Ada", "que Ada" "qu’Ada". A message cannot write it,
# as the name is not known until it is filled in; the Language does, before a text value (a
# name, a list of names, a phrase), never before a number (a name starting with H or Y keeps
# the word: "de Hugo", "de Yann", as the sound of its first letter cannot be told from it).
# (Patterns, compiled where first used and kept by re: `companion sessions` in English
# compiles none.)
_ELIDING = {
    "fr": (r"(?i)\b(de|que|lorsque|puisque|jusque) %\((\w+)\)s", "’"),
}
_VOWEL = frozenset("aeiouàâäæéèêëîïôöœùûüAEIOUÀÂÄÆÉÈÊËÎÏÔÖŒÙÛÜ")


@lru_cache(maxsize=4096)
def _elisions(code: str, message: str) -> tuple[tuple[int, int, str, str], ...]:
    """Where ``message`` (a translation) puts an eliding word before a placeholder: its span,
    the word as it is written without its last vowel, and the placeholder's name."""
    rule = _ELIDING.get(code)
    if rule is None or "%(" not in message:
        return ()
    return tuple(
        (hit.start(), hit.end(), hit.group(1)[:-1] + rule[1], hit.group(2))
        for hit in re.finditer(rule[0], message)
    )


class Language:
    """One language: its messages (gettext) and its locale's formatting (Babel, imported at
    the first list, number or time it writes: a command that only says a sentence, such as
    ``companion sessions``, starts without it)."""

    def __init__(
        self, code: str, translations: _gettext.NullTranslations, locale: str
    ) -> None:
        self.code = code
        self.translations = translations
        self.locale_code = locale  # the Babel locale of its lists, numbers and times
        self._whole: dict[int, str] = {}  # whole numbers as written (see number())

    @cached_property
    def locale(self) -> Locale:
        from babel import Locale

        return Locale.parse(self.locale_code)

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self.translations.ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        return self.translations.pgettext(context, message)

    def __call__(self, message: str, **params: object) -> str:
        """``message`` translated, with ``%(name)s`` filled from ``params`` (if any)."""
        text = self.gettext(message)
        return self.fill(text, params) if params else text

    def n_(self, singular: str, plural: str, number: int, **params: object) -> str:
        """A message with a count in it: ``%(count)s`` is ``number``, written in this locale."""
        text = self.ngettext(singular, plural, number)
        return self.fill(text, {"count": self.number(number), **params})

    def fill(self, text: str, params: Mapping[str, object]) -> str:
        """``text`` (a translated message) with its ``%(name)s`` filled from ``params``, the
        language's short words elided before the values that start with a vowel ("d’Ada")."""
        return self.elided(text, params) % params

    def elided(self, text: str, params: Mapping[str, object]) -> str:
        """``text`` with each eliding word before a placeholder elided when its value (text,
        not a number) starts with a vowel: French "de %(name)s" filled with Ada is
        "d’%(name)s"."""
        if self.code not in _ELIDING:
            return text
        found = _elisions(self.code, text)
        if not found:
            return text
        out, last = [], 0
        for start, end, short, name in found:
            value = params.get(name)
            if isinstance(value, str) and value[:1] in _VOWEL:
                out += [text[last:start], short, "%(", name, ")s"]
                last = end
        return "".join(out) + text[last:] if out else text

    def joined(
        self,
        items: Sequence[str],
        nobody: str = "",
        *,
        style: Literal["standard", "or"] = "standard",
    ) -> str:
        """``Ada, Ben and Cy`` in this locale's words; ``nobody`` for an empty list;
        ``style="or"`` for ``Ada, Ben or Cy``."""
        if not items:
            return nobody
        from babel.lists import format_list

        return str(format_list(list(items), style=style, locale=self.locale))

    def say(self, said: Phrase | Listed) -> str:
        """A phrase of the rules in this language: its template translated (the English is the
        message id), names and colors as they are (data, never messages), numbers in this
        locale, lists joined in this locale's words, phrases inside it said the same way. In
        English, the rules' own sentence (:meth:`Phrase.english`), byte for byte."""
        if self.code == SOURCE:
            return said.english()
        return self._said(said)

    def _said(self, said: Phrase | Listed) -> str:
        if isinstance(said, _phrases().Listed):  # sentences one after another, or a list alone
            return str(self._arg(said))
        one: Phrase = said  # type: ignore[assignment]  # not a Listed: a Phrase
        values: dict[str, object] = {k: self._arg(v) for k, v in one.params}
        if one.plural and one.count is not None:
            return self.n_(one.template, one.plural, one.count, **values)
        return self(one.template, **values)

    def refused(self, refused: Refusing) -> str:
        """A refusal's sentence in this language (:meth:`say` of its phrase). In English, the
        rules' own sentence."""
        if not refused.template or self.code == SOURCE:
            return self.gettext(refused.reason)
        phrase = _phrases().Phrase
        return self._said(phrase(refused.template, refused.params, refused.plural, refused.count))

    def _arg(self, value: object) -> object:
        p = _phrases()
        if isinstance(value, p.Phrase):
            return self._said(value)
        if isinstance(value, p.Number):
            return self.number(value.value, value.places)
        if isinstance(value, p.Percent):
            from babel.numbers import format_percent

            return str(format_percent(round(value.rate, 2), locale=self.locale))
        if isinstance(value, p.Listed):
            words = [str(self._arg(item)) for item in value.items]
            if not words and value.nobody is not None:
                return self._said(value.nobody)
            if value.style == "sentences":
                return " ".join(words)
            if value.style == "commas":
                return ", ".join(words)
            return self.joined(words, style="or" if value.style == "or" else "standard")
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return self.number(value)
        return value

    def number(self, value: float, places: int | None = None) -> str:
        """``value`` in this language's digits (``1,234.5``, ``1.234,5``); with ``places``,
        always that many decimals (a mean: ``21.0`` beside ``6.6``, never ``21``). A whole
        number is formatted once (counts, ranks and totals fill every page, and Babel's
        formatting costs some 14 us a number)."""
        if places is None and type(value) is int and -WHOLE <= value <= WHOLE:
            text = self._whole.get(value)
            if text is None:
                text = self._whole[value] = self._decimal(value)
            return text
        if places is None:
            return self._decimal(value)
        pattern = "#,##0." + "0" * places if places else "#,##0"
        return self._decimal(round(value, places), pattern)

    def _decimal(self, value: float, pattern: str | None = None) -> str:
        from babel.numbers import format_decimal

        return str(format_decimal(value, format=pattern, locale=self.locale))

    def time(self, moment: time | datetime) -> str:
        from babel.dates import format_time

        return str(format_time(moment, format="short", locale=self.locale))

    @property
    def name(self) -> str:
        """The language's own name for itself: English, Deutsch, français, español."""
        return _own_name(self.code)

    def __repr__(self) -> str:
        return f"Language({self.code!r})"


@cache
def _own_name(code: str) -> str:
    from babel import Locale, UnknownLocaleError

    try:
        own = Locale.parse(code)
    except (ValueError, LookupError, UnknownLocaleError):
        return code
    return str(own.get_display_name(own) or code)


@cache
def _catalog_dirs() -> dict[str, Path]:
    """The shipped catalogs, found once: every page's language is negotiated against them, and
    looking in the package's folder at each request was most of a request's own time."""
    found = {}
    if LOCALE_DIR.is_dir():
        for folder in sorted(LOCALE_DIR.iterdir()):
            messages = folder / "LC_MESSAGES"
            if (messages / f"{DOMAIN}.mo").is_file() or (messages / f"{DOMAIN}.po").is_file():
                found[folder.name] = messages
    return found


def available() -> list[str]:
    """The languages with a catalog, English (the source) first, then by code."""
    return [SOURCE, *sorted(c for c in {*_catalog_dirs(), *_extra} if c != SOURCE)]


def check(code: str) -> str:
    """``code`` as one of :func:`available` (``de_DE``, ``de-de``, ``DE`` all give ``de``);
    refused in one sentence naming the languages there are."""
    wanted = code.strip().replace("-", "_")
    known = available()
    for candidate in (wanted, wanted.split("_")[0]):
        for known_code in known:
            if candidate.lower() == known_code.lower():
                return known_code
    raise UserError.of(
        N_("%(code)s is not a language companion speaks; use one of %(known)s."),
        code=repr(code), known=", ".join(known),
    )


def _load(messages: Path) -> _gettext.NullTranslations:
    compiled = messages / f"{DOMAIN}.mo"
    if compiled.is_file():
        with compiled.open("rb") as file:
            return _gettext.GNUTranslations(file)
    # A checkout: the .po source compiled in memory (the wheel ships it compiled).
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with (messages / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


@cache
def _language(code: str) -> Language:
    if code == SOURCE:
        return Language(SOURCE, _gettext.NullTranslations(), SOURCE_LOCALE)
    return Language(code, _load(_catalog_dirs()[code]), code)


def language(code: str | None = None) -> Language:
    """The language called ``code`` (English when ``None``); an unknown one is refused in one
    sentence (:class:`UserError`)."""
    if code is None:
        return _language(SOURCE)
    if code in _extra:
        return _extra[code]
    return _language(check(code))


def register(
    code: str, translations: _gettext.NullTranslations, locale: str = SOURCE_LOCALE
) -> Language:
    """Make a language known without a catalog file (the tests' pseudo-locale)."""
    made = Language(code, translations, locale)
    _extra[code] = made
    return made


def unregister(code: str) -> None:
    _extra.pop(code, None)


# The variables a POSIX program reads its messages' language from, strongest first.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def locale_tags(environ: Mapping[str, str]) -> list[str]:
    """The language tags the locale variables ask for, best first (``de_DE.UTF-8`` gives
    ``de_DE``; ``C`` and ``POSIX`` ask for none; ``LANGUAGE`` may list several, ``fr:de``)."""
    tags: list[str] = []
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        parts = value.split(":") if variable == "LANGUAGE" else [value]
        for part in parts:
            tag = part.split(".")[0].split("@")[0].strip()
            if tag and tag not in ("C", "POSIX"):
                tags.append(tag)
    return tags


def console_language(code: str | None = None, environ: Mapping[str, str] | None = None) -> Language:
    """The game master's language (the consoles' and the command line's): ``code``
    (``--lang``, refused in one sentence if unknown), else the laptop's locale's, else
    English."""
    if code is not None:
        return language(code)
    tags = locale_tags(os.environ if environ is None else environ)
    return language(negotiate(tags))


def negotiate(wanted: Iterable[str]) -> str | None:
    """The first of ``wanted`` (language tags, best first) that :func:`available` has, by its
    full code or its language alone (``fr-CA`` gives ``fr``)."""
    known = {c.lower(): c for c in available()}
    for tag in wanted:
        parts = tag.strip().replace("-", "_").lower()
        for candidate in (parts, parts.split("_")[0]):
            if candidate in known:
                return known[candidate]
    return None


def accepted(header: str | None) -> list[str]:
    """An ``Accept-Language`` header's tags, best first (``q=0`` left out)."""
    if not header:
        return []
    weighted = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        if tag and tag != "*" and quality > 0:
            weighted.append((-quality, position, tag))
    return [tag for _, _, tag in sorted(weighted)]

