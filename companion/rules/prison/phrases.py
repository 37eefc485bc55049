"""The prison break's sentences, as phrases (:mod:`companion.rules.core.phrase`): how a game
ended, who worked a night, a move as the history names it (never a choice or a deal), what was
taken back, and each line of a day in the history and the debrief report (what the room is told
of a day, a search's reveal and a move: :mod:`companion.rules.prison.news`).

Pure functions of what the views show (names, counts, the record's moves): the console's
history, its banners and the report say them in the game master's language, names as typed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.rules.core.phrase import Listed, Phrase, phrase, phrases

OUTCOME_TITLES = {
    "escape": phrase("The prisoners escaped"),
    "parole": phrase("A prisoner was paroled"),
    "all_caught": phrase("No prisoner is left: the warden wins"),
    "time_up": phrase("Time is up: the warden wins"),
}
# The end of a game as a correction or an undo's question names it, inside a sentence.
ENDED_WORDS = {
    "escape": phrase("the prisoners escaped"),
    "parole": phrase("a prisoner was paroled"),
    "all_caught": phrase("no prisoner was left: the warden won"),
    "time_up": phrase("time was up: the warden won"),
}
# A prisoner's status, an accusation's result and a secret choice, as the history says them.
STATUS_WORDS = {
    "active": phrase("active"),
    "caught": phrase("caught"),
    "shived": phrase("shived"),
    "paroled": phrase("paroled"),
    "escaped": phrase("escaped"),
}
RESULT_WORDS = {"shived": phrase("shived"), "shiv passed": phrase("shiv passed")}
CHOICE_WORDS = {"work": phrase("work"), "rest": phrase("rest")}
NOBODY = phrase("nobody")
NO_CHOICES = phrase("no choices")


def word(words: Mapping[str, Phrase], value: str) -> Phrase:
    """``value`` (a status, a result, a choice) as a word of ``words``; an unknown one as it
    is."""
    return words.get(value) or Phrase(value)


def names(items: Sequence[str]) -> Listed:
    """Names: ``Ada, Ben and Cy``, or ``nobody``."""
    return Listed(tuple(items), nobody=NOBODY)


def nights_count(done: int, total: int) -> Phrase:
    """``4 of 6``; the last night's work may take the count past the target (two prisoners
    working when one night was left): the target reached is ``6 of 6``, never ``7 of 6``."""
    return phrase("%(done)s of %(total)s", done=min(done, total), total=total)


def nights_words(done: int, total: int) -> Phrase:
    """The count, with the nights worked beyond the target said in words."""
    if done <= total:
        return nights_count(done, total)
    return phrases(
        "%(nights)s (they worked %(count)s night more than they needed)",
        "%(nights)s (they worked %(count)s nights more than they needed)",
        done - total,
        nights=nights_count(done, total),
    )


def night_work(workers: Sequence[str], caught: Sequence[str]) -> Phrase:
    """Who worked on a revealed night: a prisoner ``caught`` in a search worked too (the search
    says so in front of everyone), so a night with a catch is never "nobody worked"."""
    worked = phrases("%(names)s worked", "%(names)s worked", len(workers), names=names(workers))
    if not caught:
        return worked if workers else phrase("nobody worked")
    were = phrases(
        "%(names)s was caught working",
        "%(names)s were caught working",
        len(caught),
        names=names(caught),
    )
    if workers:
        return phrase("%(worked)s, and %(caught)s", worked=worked, caught=were)
    return phrase("%(caught)s and nobody else worked", caught=were)


def outcome(ended: str, winners: Sequence[str]) -> Phrase:
    """``The prisoners escaped. Winners: Ada and Ben.``"""
    return phrase(
        "%(outcome)s. Winners: %(winners)s.",
        outcome=word(OUTCOME_TITLES, ended),
        winners=names(winners),
    )


def move(command: Mapping[str, str]) -> Phrase:
    """A spoiler-free description of a logged move (its ``do`` and who it names): never a
    choice or a deal."""
    do = command.get("do", "")
    if do == "choose":
        return phrase("%(name)s's secret choice", name=command["prisoner"])
    if do == "close_planning":
        return phrase("closing planning")
    if do == "interview":
        return phrase("%(name)s's interview", name=command["prisoner"])
    if do == "search":
        return phrase("the search of %(name)s's cell", name=command["prisoner"])
    if do == "accuse":
        return phrase(
            "%(accuser)s's accusation of %(accused)s",
            accuser=command["accuser"],
            accused=command["accused"],
        )
    if do == "end_day":
        return phrase("ending the day")
    return Phrase(str(do))


def taken_back(made: Mapping[str, str], ended: str | None, *, correction: bool) -> Phrase:
    """A move taken back, where it was made (``correction`` false), or the correction where
    the game master made it, with the end of the game it took back, if any."""
    what = move(made)
    if not correction:
        return phrase("%(move)s (taken back)", move=what)
    if ended:
        return phrase(
            "Correction: the game master took back %(move)s, and with it the end of the game "
            "(%(ended)s).",
            move=what,
            ended=word(ENDED_WORDS, ended),
        )
    return phrase("Correction: the game master took back %(move)s.", move=what)


# ---- the debrief report ---------------------------------------------------------------------


def report_title(session: str) -> Phrase:
    return phrase("# %(session)s: the prison break", session=session)


def cast(warden: str, prisoners: Sequence[str]) -> Phrase:
    return phrase(
        "Warden: %(warden)s. Prisoners: %(prisoners)s.", warden=warden, prisoners=names(prisoners)
    )


def nights_of_work(done: int, total: int) -> Phrase:
    return phrase("Nights of work: %(nights)s.", nights=nights_words(done, total))


NOT_OVER = phrase("The game is not over.")
TABLE_HEADER = phrase("| prisoner | status | parole tokens | shivs |")


# ---- a day's lines in the history and the report ------------------------------------------


def day(number: int) -> Phrase:
    return phrase("Day %(day)s", day=number)


def choices(chosen: Mapping[str, str]) -> Phrase:
    """``choices: Ada: work, Ben: rest``."""
    said = tuple(
        phrase("%(name)s: %(choice)s", name=name, choice=word(CHOICE_WORDS, choice))
        for name, choice in chosen.items()
    )
    return phrase("choices: %(choices)s", choices=Listed(said, "commas", nobody=NO_CHOICES))


def interviewed(prisoners: Sequence[str]) -> Phrase:
    return phrase("interviewed: %(names)s", names=Listed(tuple(prisoners), "commas"))


def deals(prisoners: Sequence[str]) -> Phrase:
    return phrase("deals: %(names)s", names=names(prisoners))


def search(prisoner: str, caught: bool) -> Phrase:
    if caught:
        return phrase("search: %(name)s's cell, CAUGHT", name=prisoner)
    return phrase("search: %(name)s's cell, safe", name=prisoner)


def nights(count: int) -> Phrase:
    """``1 night``, ``2 nights``."""
    return phrases("%(count)s night", "%(count)s nights", count)


def night(workers: Sequence[str], caught: Sequence[str]) -> Phrase:
    """``night: Ada worked (+1 night)``."""
    work = night_work(workers, caught)
    return phrase("night: %(work)s (+%(nights)s)", work=work, nights=nights(len(workers)))


def accusation(accuser: str, accused: str, result: str) -> Phrase:
    return phrase(
        "accusation: %(accuser)s accused %(accused)s: %(result)s",
        accuser=accuser,
        accused=accused,
        result=word(RESULT_WORDS, result),
    )


def accused(accuser: str, accused: str, result: str) -> Phrase:
    """An accusation and what it decided, as the board, the phones and the console all say it
    (no count in it: how many parole tokens the accused held is the warden's to know)."""
    if result == "shived":
        return phrase(
            "%(accuser)s accused %(accused)s, who had taken a deal: %(accused)s is SHIVED and "
            "out of the game.",
            accuser=accuser,
            accused=accused,
        )
    return phrase(
        "%(accuser)s accused %(accused)s, who never took a deal: %(accuser)s's shiv passes to "
        "%(accused)s.",
        accuser=accuser,
        accused=accused,
    )
