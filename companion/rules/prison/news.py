"""What the room is told of a prison break, as phrases (:mod:`companion.rules.core.phrase`):
the day's public results and how the game ended (the phones, the board), a search's reveal step
by step (the board's large type, the console's reveal screen), today's lines of the console's
side panel and what the room has seen of a move (asked before an undo takes it back).

Pure functions of the views (:mod:`companion.rules.prison.views`) and of the room's fold
(:mod:`companion.rules.prison.room`); the faces say them in their reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.core.phrase import Listed, Phrase, phrase, phrases
from companion.rules.prison.phrases import (
    RESULT_WORDS,
    accused,
    names,
    night_work,
    nights,
    word,
)
from companion.rules.prison.room import RevealView, TakenBackView
from companion.rules.prison.stage import Reveal, Saw, Step
from companion.rules.prison.views import PublicDay

# ---- the day's results, as the phones and the board list them -------------------------------

# How a game ended, as the phones and the board announce it.
OUTCOME_NEWS = {
    "escape": phrase("The prisoners escaped!"),
    "parole": phrase("A prisoner was paroled: the game is over."),
    "all_caught": phrase("No prisoner is left: the warden wins."),
    "time_up": phrase("Time is up: the warden wins."),
}
GAME_OVER = phrase("The game is over.")
# A prisoner's status, as their own phone tells them (``Prisoner, caught working and out...``).
STATUS_NEWS = {
    "active": phrase("in the game"),
    "caught": phrase("caught working and out of the game"),
    "shived": phrase("shived and out of the game"),
    "paroled": phrase("paroled"),
    "escaped": phrase("escaped"),
}


def news(ended: str | None) -> Phrase:
    """``The prisoners escaped!``; ``The game is over.`` for an end this version does not know."""
    return OUTCOME_NEWS.get(ended or "", GAME_OVER)


def announced(ended: str | None, winners: Sequence[str]) -> Phrase:
    """How the game ended, and who won: ``The prisoners escaped! Winners: Ada and Ben.``"""
    if not winners:
        return news(ended)
    return phrase("%(outcome)s Winners: %(winners)s.", outcome=news(ended), winners=names(winners))


def winners(who: Sequence[str]) -> Phrase:
    """``Winners: Ada and Ben`` (under how the game ended)."""
    return phrase("Winners: %(names)s", names=names(who))


def yours(ended: str | None, *, won: bool) -> Phrase:
    """How the game ended, on a player's own phone: ``The prisoners escaped! You win.``"""
    if won:
        return phrase("%(outcome)s You win.", outcome=news(ended))
    return phrase("%(outcome)s You lose.", outcome=news(ended))


def searched(prisoner: str, caught: bool) -> Phrase:
    if caught:
        return phrase(
            "The warden searched %(name)s's cell: %(name)s was caught working.", name=prisoner
        )
    return phrase("The warden searched %(name)s's cell: %(name)s was safe.", name=prisoner)


def worked(workers: Sequence[str], nights_added: int) -> Phrase:
    if not workers:
        return phrase("Nobody worked successfully: no night of work was done.")
    return phrases(
        "%(names)s worked: %(nights)s of work done.",
        "%(names)s worked: %(nights)s of work done.",
        len(workers),
        names=names(workers),
        nights=nights(nights_added),
    )


def results(day: PublicDay) -> list[Phrase]:
    """A day's public results, one sentence each: its searches, its night once revealed, its
    accusations."""
    lines = [searched(s["prisoner"], s["caught"]) for s in day["searches"]]
    if day["revealed"]:
        lines.append(worked(day["workers"], day["nights_added"]))
    lines += [accused(a["accuser"], a["accused"], a["result"]) for a in day["accusations"]]
    return lines


# ---- a search's reveal, step by step ----------------------------------------------------------

def searches(name: str) -> Phrase:
    """The reveal's first step: ``The warden searches Ben's cell…``."""
    return phrase("The warden searches %(name)s's cell…", name=name)


REVEAL_HEADS = {
    "caught": phrase("CAUGHT"),
    "safe": phrase("SAFE"),
    "night": phrase("The night's work"),
    "outcome": phrase("GAME OVER"),
}


def reveal_lines(reveal: RevealView) -> list[tuple[str, Phrase, Phrase | None]]:
    """The steps of a search's reveal the room has been shown, each as (step, headline,
    sentence): what the board and the phones show in large type, one by one."""
    name = reveal["prisoner"]
    lines: list[tuple[str, Phrase, Phrase | None]] = []
    for step in reveal["shown"]:
        if step == "search":
            lines.append((step, searches(name), None))
        elif step == "result" and reveal["caught"]:
            said = phrase("%(name)s was working: out of the game.", name=name)
            lines.append(("caught", REVEAL_HEADS["caught"], said))
        elif step == "result":
            said = phrase("%(name)s was not working.", name=name)
            lines.append(("safe", REVEAL_HEADS["safe"], said))
        elif step == "night" and reveal["workers"]:
            workers = reveal["workers"]
            head = phrases(
                "%(names)s worked tonight",
                "%(names)s worked tonight",
                len(workers),
                names=names(workers),
            )
            count = nights(reveal["nights_added"] or 0)
            lines.append((step, head, phrase("%(nights)s of work.", nights=count)))
        elif step == "night":
            head, said = phrase("Nobody worked tonight"), phrase("No night of work was done.")
            lines.append((step, head, said))
        elif step == "outcome":
            said = announced(reveal["outcome"], reveal["winners"])
            lines.append((step, REVEAL_HEADS["outcome"], said))
    return lines


def reveal_step(
    step: Step, reveal: Reveal, caught: Sequence[str], bar: Listed, ended: Phrase | None
) -> tuple[Phrase, Phrase | None]:
    """(headline, sentence) of one step of ``reveal`` as the console shows it: ``caught``, who
    was caught in today's searches; ``bar``, the nights bar after the search; ``ended``, the
    game's end (:func:`outcome`), if it ended. The night's sentence starts lowercase where a
    name does not start it (``nobody worked: …``): the console writes its first letter large."""
    name = reveal.prisoner
    if step == "search":
        return searches(name), None
    if step == "result":
        if reveal.caught:
            said = phrase("%(name)s was working, and is out of the game.", name=name)
            return REVEAL_HEADS["caught"], said
        return REVEAL_HEADS["safe"], phrase("%(name)s was not working.", name=name)
    if step == "night":
        workers = reveal.workers or ()
        line = phrases(
            "%(worked)s: %(count)s night more. Nights %(bar)s",
            "%(worked)s: %(count)s nights more. Nights %(bar)s",
            len(workers),
            worked=night_work(workers, caught),
            bar=bar,
        )
        return REVEAL_HEADS["night"], line
    return REVEAL_HEADS["outcome"], ended


# ---- the console's lines for today, and what the room has seen of a move ------------------------


def searched_today(prisoner: str, caught: bool) -> Phrase:
    """``Searched Ben: CAUGHT``."""
    if caught:
        return phrase("Searched %(name)s: CAUGHT", name=prisoner)
    return phrase("Searched %(name)s: safe", name=prisoner)


def accused_today(accuser: str, accused: str, result: str) -> Phrase:
    """``Tom accused Ravi: shived``."""
    return phrase(
        "%(accuser)s accused %(accused)s: %(result)s",
        accuser=accuser,
        accused=accused,
        result=word(RESULT_WORDS, result),
    )


def room_saw(saw: Saw) -> Phrase:
    """What the room has seen of a move, inside the undo's question (``The room has already
    seen …``)."""
    name = saw.prisoner
    if saw.kind == "search":
        if not saw.result:
            return phrase("the warden search %(name)s's cell", name=name)
        if saw.caught and saw.night:
            return phrase("that %(name)s was caught working and who worked tonight", name=name)
        if saw.caught:
            return phrase("that %(name)s was caught working", name=name)
        if saw.night:
            return phrase(
                "that %(name)s's cell was searched and %(name)s was safe and who worked tonight",
                name=name,
            )
        return phrase("that %(name)s's cell was searched and %(name)s was safe", name=name)
    if saw.kind == "interview":
        return phrase("%(name)s go in to the warden", name=name)
    if saw.kind == "close_planning":
        return phrase("planning close")
    if saw.kind == "accuse":
        return phrase(
            "%(accuser)s accuse %(accused)s, and the result", accuser=name, accused=saw.accused
        )
    return phrase("the day end")


def taken_back(undone: TakenBackView) -> Phrase:
    """What the board says after an undo, of what the room had seen of the move: an undone
    deal is said as the interview the room saw, a search as the cell searched."""
    kind, name = undone["kind"], undone["prisoner"]
    if kind == "accuse":
        return phrase(
            "The game master took back %(accuser)s's accusation of %(accused)s.",
            accuser=name,
            accused=undone["accused"],
        )
    if kind == "interview":
        return phrase("The game master took back %(name)s's interview.", name=name)
    if kind == "search":
        return phrase("The game master took back the search of %(name)s's cell.", name=name)
    if kind == "close_planning":
        return phrase("The game master took back the end of planning.")
    return phrase("The game master took back the end of the day.")
