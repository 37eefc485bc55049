"""The room's words: pure functions of the game master's view of the tournament, in the
console's language (``lang``, from :func:`companion.tui.common.language.words`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len

from companion.language import N_, Language
from companion.rules.dilemma import phrases
from companion.rules.dilemma.strategies import HOW
from companion.rules.dilemma.views import SMALL_ROOM

View = Mapping[str, Any]  # a view of the rules (companion.rules.dilemma.views), read by key
NO_ANSWER = N_("no answer")
# The famous strategies' names and ways are the rules' own messages (strategies.NAMES, HOW), as
# on the phones' pages. A peeked choice in the roster, as the phones' buttons say it.
CHOICE_WORDS = {"silent": N_("SILENT"), "betray": N_("BETRAY")}


def strategy_name(lang: Language, key: str) -> str:
    return lang.say(phrases.strategy(key))


def strategy_how(lang: Language, key: str) -> str:
    _ = lang
    return _(HOW[key]) if key in HOW else key


def house_name(lang: Language, v: View) -> str:
    """The house player's name, ``House (Tit for Tat)``, in this language."""
    return lang.say(phrases.house([v["house"]["strategy"]]))


def played_name(lang: Language, v: View) -> str:
    """The house player over its revealed rounds, in this language: ``House (Tit for Tat)``,
    or ``House (Tit for Tat and Always Betray)`` when it was changed between them."""
    played = v["house"]["played"]
    if not played:
        return house_name(lang, v)
    return lang.say(phrases.house(played))


def shown_name(lang: Language, v: View, name: str) -> str:
    """A name as the room shows it: the house player's in this language."""
    return house_name(lang, v) if name == v["house"]["name"] else name


def months(lang: Language, n: int) -> str:
    """``1 month``, ``2 months``."""
    return lang.say(phrases.months(n))


def decimal(lang: Language, value: float) -> str:
    """``12.5``, ``12,5``: one decimal, in this language."""
    return lang.number(value, 1)


def doing_word(lang: Language, doing: str, short: bool = False) -> str:
    """What a player is doing now (the view's words), as the roster says it; ``short`` for the
    two long ones."""
    _ = lang
    words = {
        "left": lang.pgettext("player", "left"),
        "waiting for a round": _("waiting") if short else _("waiting for a round"),
        "sits out": _("sits out"),
        "chosen": _("chosen"),
        "choosing": _("choosing"),
        "joins next round": _("next round") if short else _("joins next round"),
    }
    return words.get(doing, doing)


def waiting_text(lang: Language, names: list[str], room: int) -> str:
    """Who has not chosen, in at most ``room`` characters with the words around it (two lines
    of the status): as many names as fit, then how many more."""
    room -= len(waiting_sentence(lang, ""))

    def more(n: int) -> str:
        return lang.n_("%(count)s more", "%(count)s more", n)

    shown: list[str] = []
    for i, name in enumerate(names):
        left = len(names) - i - 1
        tail = len(lang.joined(["", more(left)])) if left else 0
        if shown and len(", ".join([*shown, name])) + tail > room:
            return lang.joined([", ".join(shown), more(len(names) - len(shown))])
        shown.append(name)
    return ", ".join(shown)


def waiting_sentence(lang: Language, names: str) -> str:
    _ = lang
    return _("Waiting for %(names)s. Press c to close the round now.", names=names)


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns of the terminal (an emoji takes two, a combining
    accent none), an ellipsis where it was cut, never inside a letter and its accents."""
    if cell_len(text) <= width:
        return text
    kept = ""
    for letter in letters(text):
        if cell_len(kept + letter) > width - 1:
            break
        kept += letter
    return kept + "…"


def letters(text: str) -> list[str]:
    """``text`` as the letters a reader sees: each with the combining marks that follow it."""
    out: list[str] = []
    for char in text:
        joined = out and (out[-1].endswith("\u200d") or unicodedata.combining(char))
        if joined or (out and char in "\u200d\ufe0f"):
            out[-1] += char
        else:
            out.append(char)
    return out


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` columns of the terminal."""
    return text + " " * max(0, width - cell_len(text))


def last_round(lang: Language, v: View, pairs: int = 12, width: int = 18) -> str:
    """The last revealed round: up to ``pairs`` pairs (a small room's board shows them all; a
    crowd's board shows the room's totals, which are said here too)."""
    _ = lang
    last = v["last"]
    if last is None:
        return _("No round revealed yet.")
    if not last["closed_early"]:
        title = _("Round %(round)s:", round=last["number"])
    elif last["timed_out"]:
        title = _("Round %(round)s (time ran out):", round=last["number"])
    else:
        title = _("Round %(round)s (closed early):", round=last["number"])
    lines = [title]
    shown = last["outcomes"][:pairs]

    def word(o: View, side: str) -> str:  # no answer is said, not shown as silent
        if not o[f"answered_{side}"]:  # short: a name gives way to it
            return _.pgettext("last round", "no answer")
        return _("silent") if o[f"choice_{side}"] == "silent" else _("BETRAY")

    def served(n: int) -> str:  # "12m": months, abbreviated
        return _("%(months)sm", months=f"{n:>2}")

    def name(o: View, side: str) -> str:  # the house under the strategy it played then
        strategy = o[f"strategy_{side}"]
        if strategy is None:
            return str(o[side])
        return _.say(phrases.house([strategy]))

    words = max((len(word(o, side)) for o in shown for side in "ab"), default=6)
    width -= words - 6  # the name gives way to a longer word
    versus = _.pgettext("last round", "vs")  # short: the partner's name gives way to it
    vs = f"{versus:>5} "  # "   vs ": the partner's line
    second = max(3, width + 1 - len(vs))
    for o in shown:  # a pair on two lines, choices and months aligned
        lines.append(
            f" {pad(cut(name(o, 'a'), width), width)} {word(o, 'a'):<{words}} "
            f"{served(o['months_a'])}"
        )
        lines.append(
            f"{vs}{pad(cut(name(o, 'b'), second), second)} "
            f"{word(o, 'b'):<{words}} {served(o['months_b'])}"
        )
    more = len(last["outcomes"]) - pairs
    crowd = len(v["players"]) > SMALL_ROOM  # the board shows the room's totals, not the pairs
    if more > 0 and not crowd:
        lines.append(
            " "
            + _.n_(
                "and %(count)s more pair (on the board)",
                "and %(count)s more pairs (on the board)",
                more,
            )
        )
    elif more > 0:
        lines.append(
            " "
            + _.n_(
                "and %(count)s more pair (each on its players' phones)",
                "and %(count)s more pairs (each on its players' phones)",
                more,
            )
        )
    if crowd and "totals" in last:  # what the board shows of this round
        t = last["totals"]
        lines.append(
            " "
            + _(
                "Board: %(silent)s both silent, %(one)s one betrayed, %(both)s both "
                "betrayed, %(none)s no answer",
                silent=t["both_silent"],
                one=t["one_betrayed"],
                both=t["both_betrayed"],
                none=t["no_answer"],
            )
        )
    if last["sitting_out"]:
        lines.append(" " + _("out: %(names)s", names=", ".join(last["sitting_out"])))
    if v["cooperation"]:
        rates = "  ".join(
            _("R%(round)s %(percent)s%%", round=r["round"], percent=round(100 * r["rate"]))
            for r in v["cooperation"]
        )
        lines.append(_("Silent: %(rates)s", rates=rates))
        unanswered = [r for r in v["cooperation"] if r["no_answer"]]
        if unanswered:
            counts = "  ".join(
                _("R%(round)s %(count)s", round=r["round"], count=r["no_answer"])
                for r in unanswered
            )
            lines.append(_("No answer: %(counts)s", counts=counts))
    return "\n".join(lines)


def leaders(lang: Language, v: View, names: int = 20, width: int = 18) -> str:
    """The leaderboard: up to ``names`` players, least months first."""
    _ = lang
    if not v["cooperation"]:
        return _("The leaderboard starts after the first round.")
    lines = [_("Leaderboard (least months):")]
    for row in v["leaderboard"][:names]:
        rank = f"{row['rank']:>2}" if row["rank"] else " –"
        lines.append(f"{rank}. {pad(cut(row['name'], width), width)} {row['months']:>4}")
    more = len(v["leaderboard"]) - names
    if more > 0:
        lines.append("    " + _.n_("and %(count)s more", "and %(count)s more", more))
    return "\n".join(lines)


def sentences_text(lang: Language, s: View) -> str:
    """The scenario's sentences, as a player weighs them before choosing."""
    _ = lang
    return "\n".join(
        [
            _("Both silent: %(months)s each.", months=months(_, s["both_silent"])),
            _("Both betray: %(months)s each.", months=months(_, s["both_betray"])),
            _(
                "One betrays, one stays silent: the betrayer serves %(betrayer)s, "
                "the silent one %(betrayed)s.",
                betrayer=months(_, s["betrayer"]),
                betrayed=months(_, s["betrayed"]),
            ),
        ]
    )
