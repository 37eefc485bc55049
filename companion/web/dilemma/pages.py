"""The dilemma warm-up's HTML: rendered by Jinja2 (autoescaped) from views only."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple, TypedDict

import jinja2

from companion.rules.core.words import joined, plural

# The views the pages read, as rules/dilemma/views.py gives them.
from companion.rules.dilemma.views import BoardView, OutcomeRow, PlayerView
from companion.web.common.rendering import make_environment

CHOICE_WORDS = {"silent": "stayed SILENT", "betray": "BETRAYED"}
PHASE_TITLES = {
    "lobby": "Joining",
    "choosing": "Choosing",
    "revealed": "Revealed",
    "over": "Final results",
}


RESULTS_LIMIT = 60  # leaderboard rows on a phone (results.html's ``limit``)


class Timer(NamedTuple):
    """The open round's countdown as a page shows it: seconds left when it was made."""

    left: float
    text: str  # "m:ss", what the page shows before its script ticks

    @classmethod
    def of(cls, left: float) -> Timer:
        whole = max(0, int(-(-left // 1)))
        return cls(round(max(0.0, left), 1), f"{whole // 60}:{whole % 60:02d}")


class Phones(NamedTuple):
    """The board's count: players (still in) whose phone is connected, of how many."""

    connected: int
    of: int


def months(n: int | None) -> str:
    """``1 month``, ``2 months``; nothing for no sentence."""
    return "" if n is None else plural(n, "month")


def sat_out(names: list[str], served: int | None) -> str:
    """``Sat out: Ben (1 month).``; ``Sat out: Ben and Cy (2 months each).``"""
    if served is None:
        return f"Sat out: {joined(names)}."
    each = " each" if len(names) > 1 else ""
    return f"Sat out: {joined(names)} ({months(served)}{each})."


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
        no_answer=no_answer,
        choice_words=CHOICE_WORDS,
        phase_titles=PHASE_TITLES,
        percent=lambda rate: f"{round(rate * 100)}%",
    )


def _render(template: str, **values: Any) -> str:
    return environment().get_template(template).render(**values)


def render_results(view: BoardView) -> str:
    """The part every phone shares (last round, leaderboard, chart, debrief), made once per
    change for all the phones; :func:`mark_me` picks out one player's row."""
    return _render("results.html", v=view, me=None, limit=RESULTS_LIMIT)


def mark_me(results: str, row: int | None) -> str:
    """The shared results with the leaderboard's row ``row`` (0 first) marked as mine."""
    if row is None or row >= RESULTS_LIMIT:
        return results
    mark = f'<tr data-row="{row}" class="'
    return results.replace(mark, mark + "me ", 1)


def render_player_part(
    view: PlayerView, timer: Timer | None = None, results: str | None = None
) -> str:
    """One phone's part; ``results`` is :func:`render_results` of the same view, already
    marked for this player, when the caller made it once for many phones."""
    values: dict[str, Any] = {"v": view, "me": view["me"], "timer": timer}
    if results is not None:
        values["results"] = results
    return _render("part_player.html", **values)


def render_player_page(view: PlayerView, token: str, timer: Timer | None = None) -> str:
    name = view["me"]["name"] if view["me"] else "Dilemma"
    part = render_player_part(view, timer)
    return _render("player.html", name=name, token=token, part=part)


def render_board_part(
    view: BoardView, join: str, phones: Phones, timer: Timer | None = None
) -> str:
    return _render("part_board.html", v=view, join=join, phones=phones, timer=timer)


class Counts(TypedDict):
    """The counts a choice or a join changes (keys as in the board's view)."""

    chosen_count: int
    to_choose: int
    players: list[str]


def progress(view: BoardView | Counts) -> dict[str, str]:
    """The phones' counts, by element id: what a choice or a join changes on every phone."""
    return {
        "progress": f"{view['chosen_count']} of {view['to_choose']} have chosen.",
        "joined": f"{plural(len(view['players']), 'player')} joined so far.",
    }


def render_board_page(part: str) -> str:
    return _render("board.html", part=part)


def render_join(view: BoardView, message: str | None = None, name: str = "") -> str:
    return _render("join.html", v=view, message=message, name=name)


def render_problem(message: str) -> str:
    return _render("problem.html", message=message)
