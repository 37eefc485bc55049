"""The console's words: banners, counts, spoiler-free descriptions of moves, durations.

Pure functions of the views in :mod:`companion.rules.prison.views` (and of command dicts from
the log), so they can be tested without a terminal and never see anything a view hides. The
game's sentences are the rules' phrases (:mod:`companion.rules.prison.phrases`), said here in
the console's language; the history and the report are :mod:`companion.tui.prison.timeline`,
the log's notes :mod:`companion.tui.prison.notes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.language import N_, Language, language
from companion.rules.core.phrase import Phrase
from companion.rules.prison import phrases

View = Mapping[str, Any]  # a view of the rules (companion.rules.prison.views), read by key

PHASE_TITLES = {
    "planning": N_("Planning"),
    "interviews": N_("Interviews"),
    "search": N_("Search"),
    "accusations": N_("Accusations"),
    "over": N_("Game over"),
}

# How a game ended, a prisoner's status, an accusation's result and a secret choice: the rules'
# words (companion.rules.prison.phrases), as the console says them.
OUTCOME_TITLES = phrases.OUTCOME_TITLES
STATUS_WORDS = phrases.STATUS_WORDS
RESULT_WORDS = phrases.RESULT_WORDS
CHOICE_WORDS = phrases.CHOICE_WORDS
ENDED_WORDS = phrases.ENDED_WORDS


def spoken(lang: Language | None) -> Language:
    return lang if lang is not None else language()


def said(words: Mapping[str, Phrase], value: str, lang: Language | None = None) -> str:
    """``value`` (a status, a result, a choice) as a word of the rules' ``words``, translated;
    unknown ones as they are."""
    return spoken(lang).say(words[value]) if value in words else value


@dataclass(frozen=True)
class Banner:
    title: str
    say: str  # what the game master says aloud
    do: str  # what the game master does next (with the keys)


def names(items: list[str], lang: Language | None = None) -> str:
    """Names as the console says them: ``Ada, Ben and Cy``, or ``nobody``."""
    return spoken(lang).say(phrases.names(items))


def nights_count(done: int, total: int, lang: Language | None = None) -> str:
    """``4 of 6`` (:func:`companion.rules.prison.phrases.nights_count`)."""
    return spoken(lang).say(phrases.nights_count(done, total))


def nights_words(done: int, total: int, lang: Language | None = None) -> str:
    """The count, with the nights worked beyond the target said in words."""
    return spoken(lang).say(phrases.nights_words(done, total))


def squares(done: int, total: int, width: int = 12) -> str:
    """``■■■■□□``: the nights done of ``total``; long games drawn to scale in at most ``width``
    squares."""
    shown = min(done, total)
    if total <= width:
        full, cells = shown, total
    else:
        full, cells = round(shown * width / total), width
    return "■" * full + "□" * (cells - full)


def nights_bar(done: int, total: int, width: int = 12, lang: Language | None = None) -> str:
    """``■■■■□□ 4 of 6``."""
    return f"{squares(done, total, width)} {nights_count(done, total, lang)}"


def caught(day: View) -> list[str]:
    """Who was caught in a search of ``day`` (the public day): they worked too."""
    return [s["prisoner"] for s in day["searches"] if s["caught"]]


def night_work(day: View, lang: Language | None = None) -> str:
    """Who worked on a revealed night, from the public day (a prisoner caught in a search
    worked too: :func:`companion.rules.prison.phrases.night_work`)."""
    return spoken(lang).say(phrases.night_work(list(day["workers"]), caught(day)))


def not_interviewed(view: View) -> list[str]:
    return list(view["not_interviewed"])


def unsearched(view: View) -> list[str]:
    return list(view["unsearched"])


def searches_left(view: View) -> int:
    return int(view["searches_left"])


def can_accuse(view: View) -> list[str]:
    """Who may still accuse today: active, holding a shiv, under the daily limit."""
    return list(view["may_accuse"])


def outcome_line(view: View, lang: Language | None = None) -> str:
    if view["outcome"] is None:
        return ""
    return spoken(lang).say(phrases.outcome(view["outcome"], list(view["winners"])))


def day_title(day: int, phase: str, lang: Language | None = None) -> str:
    """``Day 3 · Interviews``."""
    _ = spoken(lang)
    return _("Day %(day)s · %(phase)s", day=day, phase=_(PHASE_TITLES[phase]))


def banner(view: View, inside: str | None = None, lang: Language | None = None) -> Banner:
    """What the game master says and does now, from the game master's (sealed) view;
    ``inside``: the prisoner in with the warden now (the stage's), if any."""
    _ = spoken(lang)
    phase = view["phase"]
    day = view["day"]
    title = day_title(day, phase, _)
    active = view["active"]
    if phase == "planning":
        chosen = len(view["submitted"])
        if active and chosen >= len(active):  # nobody is left to make a choice
            return Banner(
                title,
                _("“Everyone has chosen. You may still change your mind until planning closes.”"),
                _("X: close planning. C: enter a player's choice in private."),
            )
        return Banner(
            title,
            _(
                "“Warden, please leave the room. Prisoners: plan together, then each of you "
                "make your secret choice.”"
            ),
            _.n_(
                "C: enter a player's choice in private. %(count)s of %(total)s has chosen. "
                "X: close planning. M: a time limit.",
                "C: enter a player's choice in private. %(count)s of %(total)s have chosen. "
                "X: close planning. M: a time limit.",
                chosen,
                total=_.number(len(active)),
            ),
        )
    if phase == "interviews":
        # Never today's count of deals: with the order of interviews in view, the count
        # would tell the room who took one (the private view shows it).
        queue = not_interviewed(view)
        if not queue:
            return Banner(
                title,
                _("“Warden, the interviews are over: search a cell.”"),
                _("S: search a cell."),
            )
        first = not view["today"]["interviewed"]
        if inside is not None:
            return Banner(
                title,
                _("“Warden, please come back. %(name)s, please come in.”", name=inside)
                if first
                else _("“%(name)s, please come in.”", name=inside),
                # its keys are on its own screen (the deal's only while one is left today)
                _(
                    "%(name)s is with the warden. I: the interview's countdown and its keys.",
                    name=inside,
                ),
            )
        return Banner(
            title,
            _("“Warden, please come back. %(name)s, please come in.”", name=queue[0])
            if first
            else _("“%(name)s, please come in.”", name=queue[0]),
            _(
                "I: interview (countdown, then deal or no deal). "
                "S: search a cell (ends the interviews)."
            ),
        )
    if phase == "search":
        more = searches_left(view)
        return Banner(
            title,
            _.n_(
                "“Warden, search %(count)s more cell.”",
                "“Warden, search %(count)s more cells.”",
                more,
            ),
            _("S: pick the next cell to search."),
        )
    if phase == "accusations":
        worked = night_work(view["today"], _)
        accusers = can_accuse(view)
        hint = (
            _("A: record an accusation. E: end the day.")
            if accusers
            else _("Nobody can accuse any more. E: end the day.")
        )
        done = nights_count(view["nights_done"], view["nights_to_escape"], _)
        return Banner(
            title,
            _(
                "“Tonight %(worked)s: %(nights)s nights done. Anyone with a shiv may accuse "
                "someone.”",
                worked=worked,
                nights=done,
            )
            if accusers
            else _("“Tonight %(worked)s: %(nights)s nights done.”", worked=worked, nights=done),
            hint,
        )
    return Banner(
        day_title(day, "over", _),
        _("“%(outcome)s”", outcome=outcome_line(view, _)),
        _(
            "O: show the room the epilogue, what really happened. H: history and the full "
            "story. R: export the report. Ctrl+Z: take back the last move."
        ),
    )


def parse_duration(text: str) -> int | None:
    """Seconds from ``90``, ``1:30`` or ``2m``; ``None`` if it is not a duration."""
    text = text.strip().lower()
    try:
        if ":" in text:
            minutes, seconds = text.split(":", 1)
            value = int(minutes) * 60 + int(seconds)
        elif text.endswith("m"):
            value = int(text[:-1]) * 60
        else:
            value = int(text.removesuffix("s"))
    except ValueError:
        return None
    return value if 10 <= value <= 3600 else None


def minutes_seconds(seconds: int) -> str:
    seconds = max(0, seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"
