"""The dilemma warm-up's HTML: rendered by Jinja2 (autoescaped) from views only."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple, TypedDict

import jinja2
from babel.numbers import format_percent
from markupsafe import Markup

from companion.language import N_, Language, language

# The views the pages read, as rules/dilemma/views.py gives them.
from companion.rules.dilemma import phrases
from companion.rules.dilemma.finale import FinaleView
from companion.rules.dilemma.strategies import HOW
from companion.rules.dilemma.views import (
    SMALL_ROOM,
    BoardView,
    OutcomeRow,
    PlayerView,
    SentencesView,
)
from companion.web.common.rendering import make_environment, render

CHOICE_WORDS = {"silent": N_("stayed SILENT"), "betray": N_("BETRAYED")}
# A player's round when they gave no answer, by what they served as (said, never a choice).
NO_ANSWER_WORDS = {
    "silent": N_("gave no answer (served as silent)"),
    "betray": N_("gave no answer (served as betraying)"),
}
# The famous strategies' names and ways are the rules' own messages (strategies.NAMES, HOW).


RESULTS_LIMIT = 60  # leaderboard rows on a phone (results.html's ``limit``)


class Timer(NamedTuple):
    """The open round's countdown as a page shows it: seconds left when it was made."""

    left: float
    text: str  # "m:ss", what the page shows before its script ticks

    @classmethod
    def of(cls, left: float) -> Timer:
        whole = max(0, int(-(-left // 1)))
        return cls(round(max(0.0, left), 1), f"{whole // 60}:{whole % 60:02d}")


class PhonesConnected(NamedTuple):
    """The board's count: players (still in) whose phone is connected, of how many."""

    connected: int
    of: int


def months(_: Language, n: int | None) -> str:
    """``1 month``, ``2 months``; nothing for no sentence (made once per language and number:
    every phone's part says a few)."""
    if n is None:
        return ""
    said = _MONTHS.get((_.code, n))
    if said is None:
        said = _MONTHS[(_.code, n)] = _.say(phrases.months(n))
    return said


_MONTHS: dict[tuple[str, int], str] = {}


def sat_out(_: Language, names: list[str], served: int | None) -> str:
    """``Sat out: Ben (1 month).``; ``Sat out: Ben and Cy (2 months each).``"""
    if served is None:
        return _("Sat out: %(names)s.", names=_.joined(names))
    if len(names) > 1:
        return _("Sat out: %(names)s (%(months)s each).", names=_.joined(names),
                 months=months(_, served))
    return _("Sat out: %(names)s (%(months)s).", names=_.joined(names),
             months=months(_, served))


def missed_rule(_: Language, sentences: SentencesView) -> str:
    """How a round missed is served, and why, in one sentence for the board and the phones."""
    return _.say(phrases.missed_rule(sentences["sitting_out"]))


def why(_: Language, sentences: SentencesView) -> Markup:
    """Why betray, and why not, in short (the rules' phrase): the catalog's sentence with
    numbers only in it, trusted as the templates' own messages are."""
    s = sentences
    said = phrases.dominance(s["betrayer"], s["both_silent"], s["both_betray"], s["betrayed"])
    return Markup(_.say(said))  # noqa: S704 - a message and numbers, no typed text


def strategy_name(_: Language, key: str) -> str:
    return _.say(phrases.strategy(key))


def strategy_how(_: Language, key: str) -> str:
    return _(HOW[key]) if key in HOW else key


def house_name(_: Language, view: BoardView | PlayerView, name: str) -> str:
    """A name as the pages show it: the house player's in this language."""
    if name == view["house"]["name"]:
        return _.say(phrases.house([view["house"]["strategy"]]))
    return name


def answer_words(_: Language, choice: str | None, served_as: str | None) -> str:
    """What a player did in a revealed round of theirs, as their phone says it: ``stayed
    SILENT``, ``BETRAYED``, or ``gave no answer (served as silent)`` (the view's ``mine`` is
    ``None`` for no answer, ``served_as`` what it served as)."""
    if choice is not None:
        return _(CHOICE_WORDS[choice])
    return _(NO_ANSWER_WORDS[served_as or "silent"])


def seat_name(_: Language, name: str, strategy: str | None) -> str:
    """A name in a revealed round, as the pages show it: a house seat under the strategy it
    played in that round (the view's ``strategy_a``/``strategy_b``, a round's ``strategy``)."""
    if strategy is None:
        return name
    return _.say(phrases.house([strategy]))


def played_name(_: Language, view: BoardView | PlayerView) -> str:
    """The house player over its revealed rounds: ``House (Tit for Tat)``, or ``House (Tit
    for Tat and Always Betray)`` when the game master changed it between them."""
    played = view["house"]["played"]
    if not played:
        return house_name(_, view, view["house"]["name"])
    return _.say(phrases.house(played))


def percent(_: Language, rate: float) -> str:
    return str(format_percent(round(rate, 2), locale=_.locale))


def faces_house(pairs: list[list[str]], house: str) -> bool:
    """Whether the house player sits in one of ``pairs`` (names, as the round's view has them)."""
    return any(house in pair for pair in pairs)


def no_answer(outcomes: list[OutcomeRow]) -> list[str]:
    """Who gave no answer in a revealed round (they served as silent)."""
    names = []
    for o in outcomes:
        names += [o["a"]] if not o["answered_a"] else []
        names += [o["b"]] if not o["answered_b"] else []
    return names


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return make_environment(
        "companion.web.dilemma",
        months=months,
        sat_out=sat_out,
        missed_rule=missed_rule,
        why=why,
        strategy_name=strategy_name,
        strategy_how=strategy_how,
        house_name=house_name,
        seat_name=seat_name,
        played_name=played_name,
        no_answer=no_answer,
        faces_house=faces_house,
        choice_words=CHOICE_WORDS,
        answer_words=answer_words,
        percent=percent,
        small_room=SMALL_ROOM,
    )


def _render(template: str, lang: Language | None, **values: Any) -> str:
    return render(environment(), template, lang or language(), **values)


def render_results(view: BoardView, lang: Language | None = None) -> str:
    """The part every phone in ``lang`` shares (last round, leaderboard, chart, debrief),
    made once per change for all of them; :func:`mark_me` picks out one player's row."""
    return _render("results.html", lang, v=view, me=None, limit=RESULTS_LIMIT)


def mark_me(results: str, row: int | None) -> str:
    """The shared results with the leaderboard's row ``row`` (0 first) marked as mine."""
    if row is None or row >= RESULTS_LIMIT:
        return results
    mark = f'<tr data-row="{row}" class="'
    return results.replace(mark, mark + "me ", 1)


def render_rules(view: BoardView, lang: Language | None = None) -> str:
    """The three rules as a phone's part lists them, made once for many phones."""
    return _render("rules.html", lang, v=view)


def render_player_part(
    view: PlayerView,
    lang: Language | None = None,
    timer: Timer | None = None,
    results: str | None = None,
    rules: str | None = None,
) -> str:
    """One phone's part; ``results`` is :func:`render_results` of the same view in the same
    language, already marked for this player, and ``rules`` :func:`render_rules`, when the
    caller made them once for many phones."""
    values: dict[str, Any] = {"v": view, "me": view["me"], "timer": timer}
    if results is not None:
        values["results"] = results
    if rules is not None:
        values["rules"] = rules
    return _render("part_player.html", lang, **values)


def render_player_page(
    view: PlayerView,
    token: str,
    lang: Language | None = None,
    timer: Timer | None = None,
    version: int | None = None,
) -> str:
    """A player's whole page; its live part tells the ``version`` it shows (``data-version``)."""
    _ = lang or language()
    name = view["me"]["name"] if view["me"] else _("The dilemma")
    part = render_player_part(view, _, timer)
    return _render("player.html", _, player_name=name, token=token, part=part, version=version)


def render_board_part(
    view: BoardView,
    join: str,
    phones: PhonesConnected,
    lang: Language | None = None,
    timer: Timer | None = None,
    wifi: str | None = None,
    finale: FinaleView | None = None,
) -> str:
    """The board's live part; ``wifi``: the venue's network's name, whose code
    (``/wifi.svg``) is shown beside the room's; ``finale``: the step of the tournament's
    finale the room is shown (rules/dilemma/finale.py), if any."""
    return _render(
        "part_board.html", lang, v=view, join=join, phones=phones, timer=timer, wifi=wifi,
        small_room=SMALL_ROOM, finale=finale,
    )


class Counts(TypedDict):
    """The counts a choice or a join changes (keys as in the board's view)."""

    chosen_count: int
    to_choose: int
    players: list[str]


def progress(view: BoardView | Counts, _: Language) -> dict[str, str]:
    """The phones' counts, by element id: what a choice or a join changes on every phone."""
    return {
        "progress": _.n_("%(count)s of %(total)s has chosen.",
                         "%(count)s of %(total)s have chosen.", view["chosen_count"],
                         total=_.number(view["to_choose"])),
        "joined": _.n_("%(count)s player joined so far.", "%(count)s players joined so far.",
                          len(view["players"])),
    }


def render_board_page(
    part: str, lang: Language | None = None, version: int | None = None
) -> str:
    return _render("board.html", lang, part=part, version=version)


def render_join(
    view: BoardView,
    lang: Language | None = None,
    message: str | None = None,
    name: str = "",
    *,
    page: str = "",
) -> str:
    """The join form; ``page``: the page's token, in its hidden field."""
    return _render("join.html", lang, v=view, message=message, typed=name, page=page)


def render_problem(message: str, lang: Language | None = None) -> str:
    return _render("problem.html", lang, message=message)
