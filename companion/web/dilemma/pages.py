"""The dilemma warm-up's HTML: rendered by Jinja2 (autoescaped) from views only."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

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


def render_player_part(view: PlayerView) -> str:
    return _render("part_player.html", v=view, me=view["me"])


def render_player_page(view: PlayerView, token: str) -> str:
    name = view["me"]["name"] if view["me"] else "Dilemma"
    return _render("player.html", name=name, token=token, part=render_player_part(view))


def render_board_part(view: BoardView, join: str, phones: Phones) -> str:
    return _render("part_board.html", v=view, join=join, phones=phones)


def render_board_page(part: str) -> str:
    return _render("board.html", part=part)


def render_join(view: BoardView, message: str | None = None, name: str = "") -> str:
    return _render("join.html", v=view, message=message, name=name)


def render_problem(message: str) -> str:
    return _render("problem.html", message=message)
