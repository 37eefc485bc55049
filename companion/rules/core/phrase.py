"""The rules' sentences: every game sentence (a refusal, a reveal, a result, an explanation, a
history line, what the table waits for) is a :class:`Phrase`, an English message template with
typed parameters, written once by the rules.

``str(phrase)`` (:meth:`Phrase.english`) is the English sentence the scripts, ``companion
replay`` and the session log keep; a face says it in its reader's language from the same
phrase (``companion.language.Language.say``): the template translated through the catalogs
(its English is the message id), the parameters said in that language. The parameters are:

- text (``str``): a player's name, a color, a pile's number as typed: data, never translated
  and never markup;
- numbers (``int``): written in the reader's locale; a report's figures as :class:`Number`
  and :class:`Percent` (in the locale's way in English too);
- lists (:class:`Listed`): joined in the reader's words (``Ada, Ben and Cy``);
- phrases: a sentence inside a sentence, said in the same language (the house player's name,
  ``and 4 more pairs``).

The rules write phrases with :func:`phrase` and :func:`phrases` (a count in it), the markers the
catalogs extract (``-k phrase -k phrases:1,2`` in ``scripts/catalogs.sh``). The rules never
translate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NoReturn, Union

from companion.rules.core.words import joined

Arg = Union[str, int, "Number", "Percent", "Listed", "Phrase"]


@dataclass(frozen=True)
class Number:
    """A figure of a report (months, a mean), written in the reader's locale also in English
    (``1,234.5``; at most three decimals), where a rule's sentence writes a number as it is.
    ``places``: always that many decimals (``21.0`` beside ``6.6``: one format for a column of
    means)."""

    value: float
    places: int | None = None

    def english(self) -> str:
        if self.places is not None:
            return f"{self.value:,.{self.places}f}"
        if float(self.value).is_integer():
            return f"{int(self.value):,}"
        return f"{self.value:,.3f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Percent:
    """A share (0 to 1) as a whole percentage: ``67%``, in the reader's locale."""

    rate: float

    def english(self) -> str:
        return f"{round(round(self.rate, 2) * 100):,}%"


@dataclass(frozen=True)
class Listed:
    """Names, colors, numbers or phrases in a sentence, joined where it is said: in English by
    :meth:`english` (``Ada, Ben and Cy``; ``style="or"``: ``red or blue``; ``style="comma"``:
    ``Ada, Ben, Cy``, which other languages join with their "and"), in the reader's language
    by a face; ``style="commas"``: ``Ada, Ben, Cy`` in every language; ``style="sentences"``:
    sentences one after another. ``nobody`` is said for an empty list."""

    items: tuple[str | int | Number | Percent | Phrase, ...]
    style: Literal["and", "or", "comma", "commas", "sentences"] = "and"
    nobody: Phrase | None = None

    def english(self) -> str:
        words = [str(english_of(item)) for item in self.items]
        if not words and self.nobody is not None:
            return self.nobody.english()
        if self.style == "sentences":
            return " ".join(words)
        if self.style in ("comma", "commas"):
            return ", ".join(words)
        return joined(words, last=self.style)

    def __str__(self) -> str:
        return self.english()


@dataclass(frozen=True)
class Phrase:
    """One sentence (or part of one): ``template``, the English message with ``%(name)s``
    placeholders, filled from ``params``; with a count in it, ``plural`` is the English plural
    and ``count`` the number (``%(count)s``). Two phrases are equal when they say the same in
    every language (the same template and parameters)."""

    template: str
    params: tuple[tuple[str, Arg], ...] = ()
    plural: str = ""
    count: int | None = None

    def english(self) -> str:
        """The sentence in English, as the rules write it."""
        message = self.plural if self.plural and self.count != 1 else self.template
        values: dict[str, object] = {k: english_of(v) for k, v in self.params}
        if self.count is not None:
            values.setdefault("count", self.count)
        return message % values if values else message

    def __str__(self) -> str:
        return self.english()

    def __add__(self, other: object) -> NoReturn:  # a phrase is said whole, never glued
        raise TypeError("a Phrase is said (str() or Language.say), not added to text")


def english_of(value: Arg) -> str | int:
    """A parameter as the English sentence has it."""
    if isinstance(value, (Number, Percent, Listed, Phrase)):
        return value.english()
    return value


def phrase(message: str, /, **params: Arg) -> Phrase:
    """A sentence of the rules: ``message`` (English, ``%(name)s`` placeholders) with its
    parameters. The catalogs extract ``message``."""
    return Phrase(message, tuple(params.items()))


def phrases(singular: str, plural: str, count: int, /, **params: Arg) -> Phrase:
    """A sentence with a count in it (``%(count)s`` is ``count``): ``singular`` when it is one,
    ``plural`` otherwise in English; other languages have their own forms. The catalogs extract
    both."""
    return Phrase(singular, tuple(params.items()), plural, count)

